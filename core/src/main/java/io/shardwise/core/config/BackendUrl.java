package io.shardwise.core.config;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A backend's JDBC URL ({@code jdbc:mysql://host:port,host2/database?prop=value&...}) read once, the
 * way Connector/J reads it: the database and property values percent-decoded (a {@code +} stays a
 * plus sign, as in Connector/J), property names case-insensitive. Every reader of a backend URL (error
 * translation, the relay, information_schema) uses this one reading. Immutable.
 *
 * @param scheme what precedes {@code //}, e.g. {@code jdbc:mysql:} or {@code jdbc:mariadb:}
 * @param authority the host list as written, e.g. {@code db0:3306,db1:3306}
 * @param hosts the host list read; a host spec in a form other than {@code host[:port]} or
 *     {@code [v6]:port} (Connector/J's {@code address=(...)}, {@code user@host}) has port -1, as has
 *     an unreadable port
 * @param database the database the URL names, or null for none
 * @param properties the query's properties, names in lower case
 */
public record BackendUrl(String scheme, String authority, List<Host> hosts, String database, Map<String, String> properties) {
    public static final int DEFAULT_PORT = 3306;

    /** One host of the URL's host list. */
    public record Host(String host, int port) {
        /** Written as a plain {@code host[:port]} whose port could be read. */
        public boolean readable() {
            return port > 0;
        }
    }

    /**
     * What the URL asks of TLS toward the backend, in Connector/J's terms ({@code sslMode}, or the
     * older {@code useSSL}/{@code requireSSL}/{@code verifyServerCertificate}; MariaDB's
     * {@code disable}/{@code trust}/{@code verify-ca}/{@code verify-full} map to the same).
     */
    public enum Tls {
        /** Plain TCP. */
        DISABLED,
        /** TLS when the server offers it, without verifying its certificate; else plain. */
        PREFERRED,
        /** TLS or no connection; the certificate is not verified. */
        REQUIRED,
        /** TLS, the certificate chain verified against the trust store. */
        VERIFY_CA,
        /** As {@link #VERIFY_CA}, and the certificate names the host connected to. */
        VERIFY_IDENTITY;

        public boolean required() {
            return this != DISABLED && this != PREFERRED;
        }

        public boolean verifiesCertificate() {
            return this == VERIFY_CA || this == VERIFY_IDENTITY;
        }
    }

    public BackendUrl {
        hosts = List.copyOf(hosts);
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /** Reads {@code url}; a URL without {@code //} has no hosts and no database. */
    public static BackendUrl parse(String url) {
        int slashes = url.indexOf("//");
        if (slashes < 0) {
            return new BackendUrl(url, "", List.of(), null, Map.of());
        }
        int query = url.indexOf('?', slashes);
        String rest = url.substring(slashes + 2, query < 0 ? url.length() : query);
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String database = slash < 0 || slash == rest.length() - 1 ? null : decode(rest.substring(slash + 1));
        List<Host> hosts = new ArrayList<>();
        if (!authority.isEmpty()) {
            for (String spec : authority.split(",")) {
                hosts.add(host(spec));
            }
        }
        Map<String, String> properties = new LinkedHashMap<>();
        if (query >= 0) {
            for (String pair : url.substring(query + 1).split("&")) {
                if (!pair.isEmpty()) {
                    int eq = pair.indexOf('=');
                    String name = decode(eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT);
                    properties.put(name, eq < 0 ? "" : decode(pair.substring(eq + 1)));
                }
            }
        }
        return new BackendUrl(url.substring(0, slashes), authority, hosts, database, properties);
    }

    private static Host host(String spec) {
        if (spec.isEmpty() || spec.indexOf('(') >= 0 || spec.indexOf('@') >= 0 || spec.indexOf('=') >= 0) {
            return new Host(spec, -1);
        }
        String host = spec;
        int port = DEFAULT_PORT;
        int colon = spec.lastIndexOf(':');
        if (colon >= 0 && colon > spec.lastIndexOf(']')) {
            host = spec.substring(0, colon);
            try {
                port = Integer.parseInt(spec.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new Host(host, port);
    }

    /** Connector/J's decoding: percent escapes, but a {@code +} is a plus sign, not a space. */
    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** A property's decoded value, by case-insensitive name; null when absent. */
    public String property(String name) {
        return properties.get(name.toLowerCase(Locale.ROOT));
    }

    /** Whether this is a MariaDB Connector/J URL (whose TLS default is off) rather than a MySQL one. */
    public boolean mariadb() {
        return scheme.startsWith("jdbc:mariadb:");
    }

    /** The host list in lower case: backends with equal servers share one MySQL server. */
    public String server() {
        return authority.toLowerCase(Locale.ROOT);
    }

    /** The TLS the URL asks for; Connector/J's default is {@link Tls#PREFERRED}, MariaDB Connector/J's none. */
    public Tls tls() {
        String mode = property("sslMode");
        if (mode != null) {
            return switch (mode.toLowerCase(Locale.ROOT).replace('-', '_')) {
                case "disabled", "disable" -> Tls.DISABLED;
                case "preferred" -> Tls.PREFERRED;
                case "required", "trust" -> Tls.REQUIRED;
                case "verify_ca" -> Tls.VERIFY_CA;
                case "verify_identity", "verify_full" -> Tls.VERIFY_IDENTITY;
                default -> throw new IllegalArgumentException("sslMode=" + mode + " (valid: DISABLED, PREFERRED, REQUIRED,"
                        + " VERIFY_CA, VERIFY_IDENTITY)");
            };
        }
        String use = firstOf("useSSL", "ssl");
        boolean require = "true".equalsIgnoreCase(property("requireSSL"));
        if ("false".equalsIgnoreCase(use) && !require) {
            return Tls.DISABLED;
        }
        if ("true".equalsIgnoreCase(use) || require) {
            return "true".equalsIgnoreCase(property("verifyServerCertificate")) ? Tls.VERIFY_CA : Tls.REQUIRED;
        }
        return mariadb() ? Tls.DISABLED : Tls.PREFERRED;
    }

    private String firstOf(String... names) {
        for (String n : names) {
            String v = property(n);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return scheme + "//" + authority + (database == null ? "" : "/" + database);
    }
}
