package io.shardwise.server.relay;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.BackendUrl;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Where the relay connects for one backend and how, from the backend's one parsed URL
 * ({@link BackendConfig#address()}). The relay speaks mysql_native_password or
 * caching_sha2_password (its full authentication only over TLS) and TLS as the URL asks
 * ({@link BackendTls}), so a URL asking for more than that cannot be relayed: several hosts, or any
 * property that changes what the backend does for the JDBC executor's connections (a session
 * variable, a collation) — then the relay would answer differently from the executor. Only
 * properties known to be harmless are accepted.
 *
 * @param tls how to speak TLS to the backend, or null for plain TCP ({@code sslMode=DISABLED})
 */
public record BackendAddress(String backend, String host, int port, String database, String user, String password,
                             BackendTls tls) {
    /** Properties that change nothing the backend does (client-side behaviour, timeouts, TLS). */
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
        return "BackendAddress[" + backend + " " + host + ":" + port + "/" + database + " user=" + user
                + " tls=" + (tls == null ? "DISABLED" : tls) + "]";
    }

    public static BackendAddress of(BackendConfig config) throws Unrelayable {
        String name = config.name();
        BackendUrl url = config.address();
        if (!url.scheme().equals("jdbc:mysql:") && !url.scheme().equals("jdbc:mariadb:")) {
            throw new Unrelayable(name, "not a jdbc:mysql:// URL");
        }
        if (url.hosts().size() != 1 || !url.hosts().get(0).readable()) {
            boolean badPort = url.hosts().size() == 1 && url.authority().matches("[^(@=,]+:[^:\\]]*");
            throw new Unrelayable(name, badPort ? "unreadable port in '" + url.authority() + "'"
                    : "the URL names no single host:port ('" + url.authority() + "')");
        }
        for (Map.Entry<String, String> p : url.properties().entrySet()) {
            checkProperty(name, p.getKey(), p.getValue().toLowerCase(Locale.ROOT));
        }
        BackendUrl.Host host = url.hosts().get(0);
        return new BackendAddress(name, host.host(), host.port(), url.database() == null ? "" : url.database(),
                config.user(), config.password(), BackendTls.of(name, url, host.host(), host.port()));
    }

    private static void checkProperty(String backend, String key, String value) throws Unrelayable {
        if (!HARMLESS.contains(key)) {
            throw new Unrelayable(backend, "URL property '" + key + "' (only client-side and TLS properties are relayed)");
        }
        if (key.equals("characterencoding") && !UTF8.contains(value)) {
            throw new Unrelayable(backend, "characterEncoding=" + value + " (the relay speaks utf8mb4)");
        }
    }
}
