package io.shardwise.server.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.UserConfig;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The authentication conversations, as MySQL 8 has them, without a network. */
class AuthExchangeTest {
    private static final byte[] NONCE = NativePassword.newSeed();
    private static final List<UserConfig> USERS = List.of(new UserConfig("app", "secret", List.of("shop")),
            new UserConfig("guest", "", List.of("shop")));
    private static final Authenticator.Accepted APP = new Authenticator.Accepted("app", "shop");
    private static final Authenticator.Denied DENIED_YES = new Authenticator.Denied(1045, "28000",
            "Access denied for user 'app'@'10.0.0.1' (using password: YES)");

    private final Authenticator sha2 = new Authenticator(USERS, "shop", AuthPlugin.CACHING_SHA2_PASSWORD, RsaKeys.shared());
    private final Authenticator nativeDefault = new Authenticator(USERS, "shop", AuthPlugin.MYSQL_NATIVE_PASSWORD, RsaKeys.shared());

    private AuthExchange exchange(Authenticator authenticator, boolean secure, String user) {
        return new AuthExchange(authenticator, NONCE, secure, user, "10.0.0.1", "shop");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] nulTerminated(String s) {
        return Arrays.copyOf(bytes(s), bytes(s).length + 1);
    }

    private static void assertMoreData(byte expected, AuthExchange.Step step) {
        assertArrayEquals(new byte[] {expected}, assertInstanceOf(AuthExchange.MoreData.class, step).data());
    }

    /** Full authentication over TLS: the cleartext password. */
    private void loginOverTls(Authenticator authenticator) {
        AuthExchange first = exchange(authenticator, true, "app");
        assertMoreData(CachingSha2Password.PERFORM_FULL_AUTHENTICATION,
                first.start(CachingSha2Password.PLUGIN, CachingSha2Password.scramble(NONCE, "secret")));
        assertEquals(new AuthExchange.Done(null, APP).outcome(),
                assertInstanceOf(AuthExchange.Done.class, first.next(nulTerminated("secret"))).outcome());
    }

    @Test
    void theFirstCachingSha2LoginIsAFullAuthenticationAndTheNextTakesTheFastPath() {
        assertFalse(sha2.isCached("app"));
        loginOverTls(sha2);
        assertTrue(sha2.isCached("app"));
        AuthExchange.Done fast = assertInstanceOf(AuthExchange.Done.class,
                exchange(sha2, false, "app").start(CachingSha2Password.PLUGIN, CachingSha2Password.scramble(NONCE, "secret")));
        assertArrayEquals(new byte[] {CachingSha2Password.FAST_AUTH_SUCCESS}, fast.preface());
        assertEquals(APP, fast.outcome());
    }

    @Test
    void withoutTlsTheClientFetchesThePublicKeyAndSendsThePasswordEncrypted() throws Exception {
        AuthExchange e = exchange(sha2, false, "app");
        assertMoreData(CachingSha2Password.PERFORM_FULL_AUTHENTICATION,
                e.start(CachingSha2Password.PLUGIN, CachingSha2Password.scramble(NONCE, "secret")));
        AuthExchange.MoreData key = assertInstanceOf(AuthExchange.MoreData.class, e.next(new byte[] {CachingSha2Password.REQUEST_PUBLIC_KEY}));
        assertEquals(RsaKeys.shared().publicKeyPem(), new String(key.data(), StandardCharsets.US_ASCII));
        byte[] encrypted = CachingSha2Password.encryptPassword(RsaKeys.shared().publicKey(), NONCE, "secret");
        assertEquals(APP, assertInstanceOf(AuthExchange.Done.class, e.next(encrypted)).outcome());
        assertTrue(sha2.isCached("app"));
    }

    @Test
    void withoutTlsACleartextPasswordIsRefused() {
        AuthExchange e = exchange(sha2, false, "app");
        e.start(CachingSha2Password.PLUGIN, CachingSha2Password.scramble(NONCE, "secret"));
        assertEquals(DENIED_YES, assertInstanceOf(AuthExchange.Done.class, e.next(nulTerminated("secret"))).outcome());
        assertFalse(sha2.isCached("app"));
    }

    @Test
    void aWrongScrambleOfACachedUserFallsBackToFullAuthenticationAndAWrongPasswordIs1045() {
        loginOverTls(sha2);
        AuthExchange e = exchange(sha2, true, "app");
        assertMoreData(CachingSha2Password.PERFORM_FULL_AUTHENTICATION,
                e.start(CachingSha2Password.PLUGIN, CachingSha2Password.scramble(NONCE, "guess")));
        assertEquals(DENIED_YES, assertInstanceOf(AuthExchange.Done.class, e.next(nulTerminated("guess"))).outcome());
    }

    @Test
    void anUnknownUserGoesThroughFullAuthenticationAndIsDeniedLikeAWrongPassword() {
        AuthExchange e = exchange(sha2, true, "root");
        e.start(CachingSha2Password.PLUGIN, CachingSha2Password.scramble(NONCE, "x"));
        assertEquals(new Authenticator.Denied(1045, "28000", "Access denied for user 'root'@'10.0.0.1' (using password: YES)"),
                assertInstanceOf(AuthExchange.Done.class, e.next(nulTerminated("x"))).outcome());
    }

    @Test
    void anEmptyPasswordNeedsNoRoundTripAndIsRefusedToAUserWithAPassword() {
        assertEquals(new Authenticator.Accepted("guest", "shop"), assertInstanceOf(AuthExchange.Done.class,
                exchange(sha2, false, "guest").start(CachingSha2Password.PLUGIN, new byte[] {0})).outcome());
        AuthExchange.Done denied = assertInstanceOf(AuthExchange.Done.class,
                exchange(sha2, false, "app").start(CachingSha2Password.PLUGIN, new byte[0]));
        assertNull(denied.preface());
        assertEquals(new Authenticator.Denied(1045, "28000", "Access denied for user 'app'@'10.0.0.1' (using password: NO)"),
                denied.outcome());
    }

    @Test
    void aNativeClientIsSwitchedToTheCachingSha2Default() {
        AuthExchange e = exchange(sha2, true, "app");
        AuthExchange.SwitchTo s = assertInstanceOf(AuthExchange.SwitchTo.class,
                e.start(NativePassword.PLUGIN, NativePassword.scramble(NONCE, "secret")));
        assertEquals(AuthPlugin.CACHING_SHA2_PASSWORD, s.plugin());
        assertArrayEquals(Arrays.copyOf(NONCE, 21), s.data());
        assertMoreData(CachingSha2Password.PERFORM_FULL_AUTHENTICATION, e.next(CachingSha2Password.scramble(NONCE, "secret")));
        assertEquals(APP, assertInstanceOf(AuthExchange.Done.class, e.next(nulTerminated("secret"))).outcome());
    }

    @Test
    void aCachingSha2ClientIsSwitchedToTheNativeDefault() {
        AuthExchange e = exchange(nativeDefault, false, "app");
        AuthExchange.SwitchTo s = assertInstanceOf(AuthExchange.SwitchTo.class,
                e.start(CachingSha2Password.PLUGIN, CachingSha2Password.scramble(NONCE, "secret")));
        assertEquals(AuthPlugin.MYSQL_NATIVE_PASSWORD, s.plugin());
        assertEquals(APP, assertInstanceOf(AuthExchange.Done.class, e.next(NativePassword.scramble(NONCE, "secret"))).outcome());
    }

    @Test
    void aClientWithoutPluginAuthIsTakenAsNativeWhateverTheDefault() {
        assertEquals(APP, assertInstanceOf(AuthExchange.Done.class,
                exchange(sha2, false, "app").start(null, NativePassword.scramble(NONCE, "secret"))).outcome());
    }

    @Test
    void anUnknownSchemaIs1049AfterTheRightPassword() {
        Authenticator limited = new Authenticator(List.of(new UserConfig("app", "secret", List.of())), "shop",
                AuthPlugin.MYSQL_NATIVE_PASSWORD, RsaKeys.shared());
        AuthExchange e = new AuthExchange(limited, NONCE, false, "app", "h", "other");
        assertEquals(new Authenticator.Denied(1049, "42000", "Unknown database 'other'"),
                assertInstanceOf(AuthExchange.Done.class, e.start(NativePassword.PLUGIN, NativePassword.scramble(NONCE, "secret"))).outcome());
    }
}
