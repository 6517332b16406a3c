package io.shardwise.server.auth;

import io.shardwise.core.config.UserConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a client's credentials and initial schema against the configured users. Thread-safe
 * (immutable). Answers with the MySQL error a client expects: 1045 for a wrong user or password
 * (never saying which), 1049 for a schema this server does not serve, 1044 for one the user may not use.
 */
public final class Authenticator {
    private final Map<String, UserConfig> users = new HashMap<>();
    private final String schema;

    public Authenticator(List<UserConfig> users, String schema) {
        for (UserConfig u : users) {
            this.users.put(u.name(), u);
        }
        this.schema = schema;
    }

    public sealed interface Outcome permits Accepted, Denied {}

    /** @param schema the logical schema the session starts in, or null for none */
    public record Accepted(String user, String schema) implements Outcome {}

    public record Denied(int errno, String sqlState, String message) implements Outcome {}

    /**
     * @param response the client's mysql_native_password scramble over {@code seed}
     * @param database the schema named at connect, or null
     */
    public Outcome authenticate(String user, String host, byte[] seed, byte[] response, String database) {
        UserConfig account = users.get(user);
        if (account == null || !NativePassword.matches(seed, account.password(), response)) {
            return new Denied(1045, "28000", "Access denied for user '" + user + "'@'" + host + "' (using password: "
                    + (response.length == 0 ? "NO" : "YES") + ")");
        }
        if (database == null) {
            return new Accepted(user, null);
        }
        if (!database.equalsIgnoreCase(schema)) {
            return new Denied(1049, "42000", "Unknown database '" + database + "'");
        }
        if (!account.schemas().isEmpty() && account.schemas().stream().noneMatch(database::equalsIgnoreCase)) {
            return new Denied(1044, "42000", "Access denied for user '" + user + "'@'" + host + "' to database '" + database + "'");
        }
        return new Accepted(user, schema);
    }
}
