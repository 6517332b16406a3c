package io.shardwise.core.sample;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The MySQL-compatible server the sample data goes to, and the prefix of its databases: the sample
 * backends are databases {@code <databasePrefix>_0} and {@code <databasePrefix>_1} there. The
 * password never prints.
 *
 * <p>The prefix is restricted to letters, digits and {@code _} because it is spliced into JDBC URLs
 * and database names unquoted; tests pass {@code TestBackends.uniqueSchemaName(..)} values.
 */
public record SampleTarget(String host, int port, String user, String password, String databasePrefix) {
    static final Pattern DATABASE_NAME = Pattern.compile("[A-Za-z0-9_]{1,62}");

    public SampleTarget {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(databasePrefix, "databasePrefix");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not 1..65535");
        }
        requireDatabaseName(databasePrefix, "databasePrefix");
    }

    /** The host as a JDBC URL writes it: IPv6 literals in brackets. */
    String urlHost() {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    String hostPort() {
        return urlHost() + ":" + port;
    }

    static String requireDatabaseName(String name, String what) {
        if (name == null || !DATABASE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " '" + name + "' must be 1 to 62 letters, digits or _"
                    + " (it becomes part of JDBC URLs and database names)");
        }
        return name;
    }

    @Override
    public String toString() {
        return "SampleTarget[host=" + host + ", port=" + port + ", user=" + user + ", password=***, databasePrefix="
                + databasePrefix + "]";
    }
}
