package io.shardwise.server.relay;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.execute.BackendMessages;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * Where the relay connects for one backend, read from the backend's JDBC URL
 * ({@code jdbc:mysql://host:port/database?prop=value&...}) in this one place. The relay speaks
 * plain TCP with mysql_native_password or caching_sha2_password's fast path, so a URL asking for
 * more than that cannot be relayed: TLS required ({@code sslMode=REQUIRED}/{@code VERIFY_*},
 * {@code useSSL=true}), several hosts, or any property that changes what the backend does for the
 * JDBC executor's connections (a session variable, a collation) — then the relay would answer
 * differently from the executor. Only properties known to be harmless are accepted.
 */
public record BackendAddress(String backend, String host, int port, String database, String user, String password) {
    /** Properties that change nothing the backend does (client-side behaviour, timeouts, TLS only if preferred). */
    private static final Set<String> HARMLESS = Set.of("ssl", "sslmode", "usessl", "requiressl", "allowpublickeyretrieval",
            "characterencoding", "useunicode", "connecttimeout", "sockettimeout", "createdatabaseifnotexist", "servertimezone",
            "connectiontimezone", "forceconnectiontimezonetosession", "zerodatetimebehavior", "usejdbccomplianttruncation",
            "jdbccomplianttruncation", "cacheprepstmts", "prepstmtcachesize", "prepstmtcachesqllimit", "useserverprepstmts",
            "tcpkeepalive", "tcpnodelay", "autoreconnect", "maintaintimestats", "rewritebatchedstatements", "user", "password",
            "verifyservercertificate", "trustcertificatekeystoreurl", "trustcertificatekeystorepassword",
            "trustcertificatekeystoretype", "enabledtlsprotocols");
    private static final Set<String> UTF8 = Set.of("utf8", "utf-8", "utf8mb4");

    /** Not relayable: why, for the one log line. */
    public static final class Unrelayable extends Exception {
        Unrelayable(String backend, String reason) {
            super("backend " + backend + " is not relayed (its statements use the JDBC executor): " + reason, null, false, false);
        }
    }

    @Override
    public String toString() {
        return "BackendAddress[" + backend + " " + host + ":" + port + "/" + database + " user=" + user + "]";
    }

    public static BackendAddress of(BackendConfig config) throws Unrelayable {
        String url = config.url();
        String name = config.name();
        int hosts = url.indexOf("//");
        if (!url.startsWith("jdbc:mysql://") && !url.startsWith("jdbc:mariadb://") || hosts < 0) {
            throw new Unrelayable(name, "not a jdbc:mysql:// URL");
        }
        int query = url.indexOf('?', hosts);
        String authority = url.substring(hosts + 2, query < 0 ? url.length() : query);
        int slash = authority.indexOf('/');
        String physical = BackendMessages.database(url); // the one reading of a URL's database, as errors name it
        String database = physical == null ? "" : physical;
        String hostPort = slash < 0 ? authority : authority.substring(0, slash);
        if (hostPort.isEmpty() || hostPort.indexOf(',') >= 0 || hostPort.indexOf('(') >= 0 || hostPort.indexOf('@') >= 0) {
            throw new Unrelayable(name, "the URL names no single host:port ('" + hostPort + "')");
        }
        String host = hostPort;
        int port = 3306;
        int colon = hostPort.lastIndexOf(':');
        if (colon >= 0 && colon > hostPort.lastIndexOf(']')) {
            host = hostPort.substring(0, colon);
            try {
                port = Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new Unrelayable(name, "unreadable port in '" + hostPort + "'");
            }
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (query >= 0) {
            for (String pair : url.substring(query + 1).split("&")) {
                if (!pair.isEmpty()) {
                    checkProperty(name, pair);
                }
            }
        }
        return new BackendAddress(name, host, port, database, config.user(), config.password());
    }

    private static void checkProperty(String backend, String pair) throws Unrelayable {
        int eq = pair.indexOf('=');
        String key = (eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT);
        String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        if (!HARMLESS.contains(key)) {
            throw new Unrelayable(backend, "URL property '" + key + "' (only " + "client-side and TLS-preferred properties are relayed)");
        }
        boolean tlsRequired = switch (key) {
            case "sslmode" -> value.equals("required") || value.startsWith("verify");
            case "usessl", "requiressl", "ssl" -> value.equals("true");
            default -> false;
        };
        if (tlsRequired) {
            throw new Unrelayable(backend, "TLS is required (" + key + "=" + value + "); the relay speaks plain TCP");
        }
        if (key.equals("characterencoding") && !UTF8.contains(value)) {
            throw new Unrelayable(backend, "characterEncoding=" + value + " (the relay speaks utf8mb4)");
        }
    }
}
