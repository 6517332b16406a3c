package io.shardwise.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/**
 * One client's authentication conversation, after its handshake response, as a state machine with
 * no I/O: each client packet in, the server's next {@link Step} out. The plugin is the server's
 * default; a client that proposed another is switched to it first (MySQL does the same with the
 * account's plugin). Not thread-safe: one connection, one event loop.
 */
public final class AuthExchange {
    public sealed interface Step permits SwitchTo, MoreData, Done {}

    /** Send an AuthSwitchRequest; the client answers with the plugin's first response. */
    public record SwitchTo(AuthPlugin plugin, byte[] data) implements Step {}

    /** Send AuthMoreData (0x01, then {@code data}) and wait for the client's next packet. */
    public record MoreData(byte[] data) implements Step {}

    /** The end: AuthMoreData of {@code preface} first when it is not null (fast_auth_success), then OK or ERR. */
    public record Done(byte[] preface, Authenticator.Outcome outcome) implements Step {}

    private enum State { STARTING, AWAITING_SWITCHED_RESPONSE, AWAITING_PASSWORD, AWAITING_ENCRYPTED_PASSWORD, DONE }

    private final Authenticator authenticator;
    private final byte[] nonce;
    private final boolean secure;
    private final String user;
    private final String host;
    private final String database;
    private State state = State.STARTING;

    /**
     * @param nonce the greeting's 20-byte seed
     * @param secure whether the connection is encrypted (TLS), so a cleartext password may cross it
     * @param database the schema named at connect, or null
     */
    public AuthExchange(Authenticator authenticator, byte[] nonce, boolean secure, String user, String host, String database) {
        this.authenticator = authenticator;
        this.nonce = nonce.clone();
        this.secure = secure;
        this.user = user;
        this.host = host;
        this.database = database;
    }

    /**
     * @param clientPlugin the plugin the client answered with, or null/empty from a client without
     *     CLIENT_PLUGIN_AUTH (which cannot switch, so it is taken as mysql_native_password)
     */
    public Step start(String clientPlugin, byte[] response) {
        expect(State.STARTING);
        AuthPlugin target = authenticator.defaultPlugin();
        if (clientPlugin == null || clientPlugin.isEmpty()) {
            return answer(AuthPlugin.MYSQL_NATIVE_PASSWORD, response);
        }
        if (!clientPlugin.equals(target.wireName())) {
            state = State.AWAITING_SWITCHED_RESPONSE;
            return new SwitchTo(target, Arrays.copyOf(nonce, nonce.length + 1)); // the nonce, NUL-terminated
        }
        return answer(target, response);
    }

    /** The client's next packet (its payload). */
    public Step next(byte[] packet) {
        return switch (state) {
            case AWAITING_SWITCHED_RESPONSE -> answer(authenticator.defaultPlugin(), packet);
            case AWAITING_PASSWORD -> {
                if (secure) {
                    yield fullAuthentication(CachingSha2Password.withoutNul(packet));
                }
                if (packet.length == 1 && packet[0] == CachingSha2Password.REQUEST_PUBLIC_KEY) {
                    state = State.AWAITING_ENCRYPTED_PASSWORD;
                    yield new MoreData(authenticator.keys().publicKeyPem().getBytes(StandardCharsets.US_ASCII));
                }
                yield decrypt(packet); // a client that already had the key (Connector/J serverRSAPublicKeyFile)
            }
            case AWAITING_ENCRYPTED_PASSWORD -> decrypt(packet);
            case STARTING, DONE -> throw new IllegalStateException("no client packet expected in state " + state);
        };
    }

    private Step answer(AuthPlugin plugin, byte[] response) {
        return switch (plugin) {
            case MYSQL_NATIVE_PASSWORD -> authenticator.nativeMatches(user, nonce, response)
                    ? done(null, authenticator.admit(user, host, database))
                    : done(null, Authenticator.denied(user, host, response.length > 0));
            case CACHING_SHA2_PASSWORD -> {
                if (response.length == 0 || (response.length == 1 && response[0] == 0)) { // the client has no password
                    yield done(null, authenticator.hasEmptyPassword(user) ? authenticator.admit(user, host, database)
                            : Authenticator.denied(user, host, false));
                }
                if (authenticator.fastAuthenticates(user, nonce, response)) {
                    yield done(new byte[] {CachingSha2Password.FAST_AUTH_SUCCESS}, authenticator.admit(user, host, database));
                }
                // not cached (first login since start) or a wrong scramble: MySQL asks for the password itself
                state = State.AWAITING_PASSWORD;
                yield new MoreData(new byte[] {CachingSha2Password.PERFORM_FULL_AUTHENTICATION});
            }
        };
    }

    private Step decrypt(byte[] encrypted) {
        byte[] password;
        try {
            password = CachingSha2Password.decryptPassword(authenticator.keys().privateKey(), nonce, encrypted);
        } catch (GeneralSecurityException e) {
            return done(null, Authenticator.denied(user, host, true)); // not encrypted with our key, or garbage
        }
        return fullAuthentication(password);
    }

    private Step fullAuthentication(byte[] password) {
        return authenticator.passwordMatches(user, password)
                ? done(null, authenticator.admit(user, host, database))
                : done(null, Authenticator.denied(user, host, true));
    }

    private Step done(byte[] preface, Authenticator.Outcome outcome) {
        state = State.DONE;
        return new Done(preface, outcome);
    }

    private void expect(State expected) {
        if (state != expected) {
            throw new IllegalStateException("the exchange is in state " + state + ", not " + expected);
        }
    }
}
