package io.shardwise.core.session;

import io.shardwise.core.rule.ShardingRule;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The server Shardwise says it is: the default backend's own {@code @@version} and
 * {@code @@version_comment} (read once, {@link BackendVariables}), the version replaced by
 * {@code server.version} when configured. Clients sniff it to pick their SQL dialect (Connector/J,
 * PyMySQL, the mariadb tools choose MariaDB or MySQL 8 syntax by it), and it gates versioned
 * executable comments ({@link #executes}), so it must be the backend's family and version, never a
 * made-up one.
 *
 * <p>Hazard: while the default backend cannot be reached the {@link #FALLBACK} applies, and a
 * backend upgraded while Shardwise runs is seen only after a restart.
 */
public record ServerIdentity(String version, String comment) {
    /** What is announced when the default backend cannot be asked (nor a version configured). */
    public static final ServerIdentity FALLBACK = new ServerIdentity("8.0.36-shardwise", "Shardwise");

    private static final System.Logger LOG = System.getLogger(ServerIdentity.class.getName());

    /** The identity of {@code rule}'s default backend, with the configured version in place of its own. */
    public static ServerIdentity of(ShardingRule rule) {
        return of(BackendVariables.of(rule), rule.config().server().version());
    }

    /** @param variables a backend's session variables by lower-case name (empty when unknown) */
    static ServerIdentity of(Map<String, String> variables, String configured) {
        String version = variables.get("version");
        String comment = variables.get("version_comment");
        if (version == null) {
            return new ServerIdentity(configured != null ? configured : FALLBACK.version(), FALLBACK.comment());
        }
        return new ServerIdentity(configured != null ? configured : version, comment == null ? "" : comment);
    }

    /**
     * Reads every backend's version and logs when they differ: the default backend's identity is
     * announced, so a client may pick syntax another backend refuses. For server start, not sessions.
     */
    public static void warnIfBackendsDiffer(ShardingRule rule) {
        Map<String, String> versions = new LinkedHashMap<>();
        BackendCatalog catalog = new BackendCatalog(rule);
        for (String backend : rule.config().backends().keySet()) {
            try {
                byte[] v = catalog.query(backend, "SELECT VERSION()").rows().getFirst()[0];
                versions.put(backend, new String(v, StandardCharsets.UTF_8));
            } catch (RuntimeException unreachable) {
                versions.put(backend, "unreachable");
            }
        }
        if (versions.values().stream().distinct().count() > 1) {
            LOG.log(System.Logger.Level.WARNING, "backends run different server versions " + versions + "; announcing the default backend's ("
                    + rule.config().defaultBackend() + ")");
        }
    }

    /** Whether this is a MariaDB server (its version says so, as MariaDB's clients detect it). */
    public boolean mariaDb() {
        return version.toLowerCase(Locale.ROOT).contains("mariadb");
    }

    /** The version as one number, as executable comments write it: 11.4.5 is 110405, 8.0.36 is 80036. */
    public int versionId() {
        int[] parts = new int[3];
        int part = 0;
        for (int i = 0; i < version.length() && part < 3; i++) {
            char c = version.charAt(i);
            if (c >= '0' && c <= '9') {
                parts[part] = parts[part] * 10 + (c - '0');
            } else if (c == '.') {
                part++;
            } else {
                break;
            }
        }
        return parts[0] * 10000 + parts[1] * 100 + parts[2];
    }

    /**
     * The version string of the protocol handshake. MariaDB before 11 prefixes {@code 5.5.5-} there
     * (only there: {@code @@version} has no prefix), because clients of the MySQL 5 era compared the
     * major version against 5; MariaDB 11.4 sends its plain {@code @@version}, as a packet capture of
     * it shows, and clients recognise MariaDB by the {@code -MariaDB} suffix.
     */
    public String handshakeVersion() {
        return mariaDb() && versionId() < 110000 ? "5.5.5-" + version : version;
    }

    /**
     * Whether this server executes a versioned executable comment. MySQL: {@code /*!NNNNN} runs when
     * NNNNN is at most its version. MariaDB ({@code sql_lex.cc}) reads 5 or 6 digits and runs it when
     * at most its version, except that a MySQL-only comment ({@code /*!}, not {@code /*M!}) for
     * MySQL 5.7 to 9.99 (50700..99999) is skipped: those are MySQL features MariaDB need not have.
     *
     * @param mariaDbMarker the comment is MariaDB's {@code /*M!} form (MySQL does not execute those at all)
     */
    public boolean executes(int commentVersion, boolean mariaDbMarker) {
        if (!mariaDb()) {
            return !mariaDbMarker && commentVersion <= versionId();
        }
        return commentVersion <= versionId() && (commentVersion < 50700 || commentVersion > 99999 || mariaDbMarker);
    }
}
