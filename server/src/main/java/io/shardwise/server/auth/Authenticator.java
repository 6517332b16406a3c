package io.shardwise.server.auth;

import io.shardwise.core.config.UserConfig;
import io.shardwise.core.error.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks credentials and the initial schema against the configured users, for one server. Answers
 * with the MySQL error a client expects: 1045 for a wrong user or password (never saying which),
 * 1049 for a schema this server does not serve, 1044 for one the user may not use.
 *
 * <p>Thread-safe: the users are immutable; the caching_sha2_password cache (user →
 * SHA256(SHA256(password)), filled by each successful full authentication, as MySQL's) is a
 * concurrent map. It lives as long as the server: a restart empties it, so every user's first
 * caching_sha2 login after a start is a full authentication.
 */
public final class Authenticator {
    private final Map<String, UserConfig> users = new HashMap<>();
    private final String schema;
    private final AuthPlugin defaultPlugin;
    private final RsaKeys keys;
    private final Map<String, byte[]> sha2Cache = new ConcurrentHashMap<>();

    /** Users of mysql_native_password. */
    public Authenticator(List<UserConfig> users, String schema) {
        this(users, schema, AuthPlugin.MYSQL_NATIVE_PASSWORD, null);
    }

    /**
     * @param defaultPlugin the plugin clients are switched to when they propose another
     * @param keys for caching_sha2_password's full authentication without TLS; null when the
     *     default is mysql_native_password (every client is switched to it, so none asks for a key)
     */
    public Authenticator(List<UserConfig> users, String schema, AuthPlugin defaultPlugin, RsaKeys keys) {
        if (defaultPlugin == AuthPlugin.CACHING_SHA2_PASSWORD && keys == null) {
            throw new IllegalArgumentException("caching_sha2_password needs an RSA key pair");
        }
        for (UserConfig u : users) {
            this.users.put(u.name(), u);
        }
        this.schema = schema;
        this.defaultPlugin = defaultPlugin;
        this.keys = keys;
    }

    public sealed interface Outcome permits Accepted, Denied {}

    /** @param schema the logical schema the session starts in, or null for none */
    public record Accepted(String user, String schema) implements Outcome {}

    public record Denied(int errno, String sqlState, String message) implements Outcome {
        static Denied of(ErrorCode code, Object... args) {
            return new Denied(code.errno(), code.sqlState(), code.message(args));
        }
    }

    public AuthPlugin defaultPlugin() {
        return defaultPlugin;
    }

    RsaKeys keys() {
        return keys;
    }

    boolean nativeMatches(String user, byte[] seed, byte[] response) {
        UserConfig account = users.get(user);
        return account != null && NativePassword.matches(seed, account.password(), response);
    }

    boolean hasEmptyPassword(String user) {
        UserConfig account = users.get(user);
        return account != null && account.password().isEmpty();
    }

    /** The fast path: only a user in the cache can pass it (MySQL answers the rest with full authentication). */
    boolean fastAuthenticates(String user, byte[] nonce, byte[] scramble) {
        byte[] cached = sha2Cache.get(user);
        return cached != null && CachingSha2Password.matches(nonce, cached, scramble);
    }

    /** Full authentication: the cleartext password; a match puts the user in the cache. */
    boolean passwordMatches(String user, byte[] password) {
        UserConfig account = users.get(user);
        if (account == null || !MessageDigest.isEqual(account.password().getBytes(StandardCharsets.UTF_8), password)) {
            return false;
        }
        sha2Cache.put(user, CachingSha2Password.cacheEntry(account.password()));
        return true;
    }

    /** Whether a caching_sha2 login of {@code user} would take the fast path now. */
    public boolean isCached(String user) {
        return sha2Cache.containsKey(user);
    }

    /** After the password: may {@code user} start in {@code database} (null for none)? */
    Outcome admit(String user, String host, String database) {
        UserConfig account = users.get(user);
        if (database == null) {
            return new Accepted(user, null);
        }
        if (!database.equalsIgnoreCase(schema)) {
            return Denied.of(ErrorCode.UNKNOWN_DATABASE, database);
        }
        if (!account.schemas().isEmpty() && account.schemas().stream().noneMatch(database::equalsIgnoreCase)) {
            return Denied.of(ErrorCode.DATABASE_ACCESS_DENIED, user, host, database);
        }
        return new Accepted(user, schema);
    }

    static Denied denied(String user, String host, boolean usingPassword) {
        return Denied.of(ErrorCode.ACCESS_DENIED, user, host, usingPassword ? "YES" : "NO");
    }
}
