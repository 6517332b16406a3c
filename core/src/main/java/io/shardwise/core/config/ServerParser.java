package io.shardwise.core.config;

import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the {@code server} section (used by the server face only). */
final class ServerParser {
    static final Set<String> SERVER_KEYS = Set.of("bind", "port", "users", "maxConnections", "idleTimeout", "maxPacketSize",
            "tls", "auth", "relay", "version", "connectTimeout", "maxConnectErrors", "shutdownTimeout");
    static final Set<String> USER_KEYS = Set.of("name", "password", "schemas", "admin");
    static final Set<String> TLS_KEYS = Set.of("cert", "key", "required");
    static final Set<String> AUTH_KEYS = Set.of("defaultPlugin");
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kKmMgG])?");

    private ServerParser() {}

    static ServerConfig parse(ConfigNode node, String schema) {
        Map<String, ConfigNode> keys = node.entries(SERVER_KEYS);
        ServerConfig d = ServerConfig.DEFAULT;
        String bind = keys.containsKey("bind") ? keys.get("bind").name() : d.bind();
        Integer port = keys.containsKey("port") ? keys.get("port").integer(0, 65535) : Integer.valueOf(d.port());
        List<UserConfig> users = new ArrayList<>();
        if (keys.containsKey("users")) {
            Set<String> seen = new HashSet<>();
            for (ConfigNode item : keys.get("users").items()) {
                UserConfig user = user(item, schema);
                if (user != null && !seen.add(user.name())) {
                    item.problem("user '" + user.name() + "' is defined twice; each user name may appear once");
                } else if (user != null) {
                    users.add(user);
                }
            }
        }
        Integer maxConnections = keys.containsKey("maxConnections") ? keys.get("maxConnections").integer(1, 100_000)
                : Integer.valueOf(d.maxConnections());
        Duration idleTimeout = BackendsParser.duration(keys.get("idleTimeout"), d.idleTimeout(), Duration.ZERO);
        Integer maxPacketSize = keys.containsKey("maxPacketSize") ? size(keys.get("maxPacketSize")) : Integer.valueOf(d.maxPacketSize());
        TlsConfig tls = keys.containsKey("tls") ? tls(keys.get("tls")) : d.tls();
        String plugin = keys.containsKey("auth") ? authPlugin(keys.get("auth")) : d.defaultAuthPlugin();
        Boolean relay = keys.containsKey("relay") ? keys.get("relay").bool() : Boolean.valueOf(d.relay());
        String version = keys.containsKey("version") ? version(keys.get("version")) : null;
        // MySQL's connect_timeout has no "never": a deadline is the point
        Duration connectTimeout = BackendsParser.duration(keys.get("connectTimeout"), d.connectTimeout(), Duration.ofMillis(1));
        Integer maxConnectErrors = keys.containsKey("maxConnectErrors") ? keys.get("maxConnectErrors").integer(1, Integer.MAX_VALUE)
                : Integer.valueOf(d.maxConnectErrors());
        Duration shutdownTimeout = BackendsParser.duration(keys.get("shutdownTimeout"), d.shutdownTimeout(), Duration.ZERO);
        if (bind == null || port == null || maxConnections == null || idleTimeout == null || maxPacketSize == null
                || tls == null || plugin == null || relay == null || keys.containsKey("version") && version == null
                || connectTimeout == null || maxConnectErrors == null || shutdownTimeout == null) {
            return d;
        }
        return new ServerConfig(bind, port, users, maxConnections, idleTimeout, maxPacketSize, tls, plugin, relay, version,
                connectTimeout, maxConnectErrors, shutdownTimeout);
    }

    /** A server version to announce in place of the default backend's. */
    private static String version(ConfigNode node) {
        String text = node.string();
        if (text != null && !ServerConfig.VERSION.matcher(text).matches()) {
            node.problem("'" + text + "' is not a server version; expected major.minor.patch with an optional suffix,"
                    + " as the backend's @@version spells it (8.0.36, 10.11.6-MariaDB)");
            return null;
        }
        return text;
    }

    /** Bytes, or a whole number with K, M or G (powers of 1024), as MySQL's max_allowed_packet. */
    private static Integer size(ConfigNode node) {
        Long bytes = size(node, ServerConfig.MIN_PACKET_SIZE, ServerConfig.MAX_PACKET_SIZE, "1G", "64M");
        return bytes == null ? null : (int) (long) bytes;
    }

    /** A size from {@code min} to {@code max} bytes (a number, or with unit K, M or G), or null after reporting the problem. */
    static Long size(ConfigNode node, long min, long max, String maxText, String example) {
        String text = node.string();
        if (text == null) {
            return null;
        }
        Matcher m = SIZE.matcher(text.trim());
        String range = "; expected bytes from " + min + " to " + maxText + ", or a number with unit K, M or G (e.g. " + example + ")";
        if (!m.matches()) {
            node.problem("'" + text + "' is not a size" + range);
            return null;
        }
        int shift = m.group(2) == null ? 0 : switch (Character.toUpperCase(m.group(2).charAt(0))) {
            case 'K' -> 10;
            case 'M' -> 20;
            default -> 30;
        };
        long bytes;
        try {
            bytes = Math.multiplyExact(Long.parseLong(m.group(1)), 1L << shift);
        } catch (ArithmeticException | NumberFormatException e) {
            bytes = Long.MAX_VALUE;
        }
        if (bytes < min || bytes > max) {
            node.problem("'" + text + "' is out of range" + range);
            return null;
        }
        return bytes;
    }

    private static TlsConfig tls(ConfigNode node) {
        Map<String, ConfigNode> keys = node.entries(TLS_KEYS);
        if (!node.isMapping()) {
            return null;
        }
        Boolean required = keys.containsKey("required") ? keys.get("required").bool() : Boolean.FALSE;
        ConfigNode certNode = keys.get("cert");
        ConfigNode keyNode = keys.get("key");
        if (certNode == null && keyNode == null) {
            return required == null ? null : new TlsConfig(null, null, required);
        }
        if (certNode == null || keyNode == null) {
            node.problem("give both cert and key (PEM files), or neither to have a self-signed certificate generated at start");
            return null;
        }
        Path cert = path(certNode);
        Path key = path(keyNode);
        List<X509Certificate> chain = null;
        PrivateKey privateKey = null;
        try {
            chain = cert == null ? null : PemFiles.certificates(cert);
        } catch (IllegalArgumentException e) {
            certNode.problem(e.getMessage());
        }
        try {
            privateKey = key == null ? null : PemFiles.privateKey(key);
        } catch (IllegalArgumentException e) {
            keyNode.problem(e.getMessage());
        }
        if (chain == null || privateKey == null || required == null) {
            return null;
        }
        try {
            PemFiles.checkPair(chain.get(0), privateKey);
        } catch (IllegalArgumentException e) {
            keyNode.problem(key + ": " + e.getMessage() + " in " + cert);
            return null;
        }
        return new TlsConfig(cert, key, required);
    }

    private static Path path(ConfigNode node) {
        String text = node.name();
        if (text == null) {
            return null;
        }
        try {
            return Path.of(text);
        } catch (java.nio.file.InvalidPathException e) {
            node.problem("'" + text + "' is not a file path: " + e.getReason());
            return null;
        }
    }

    private static String authPlugin(ConfigNode node) {
        Map<String, ConfigNode> keys = node.entries(AUTH_KEYS);
        if (!node.isMapping()) {
            return null;
        }
        if (!keys.containsKey("defaultPlugin")) {
            return ServerConfig.DEFAULT.defaultAuthPlugin();
        }
        ConfigNode p = keys.get("defaultPlugin");
        String name = p.name();
        if (name != null && !ServerConfig.AUTH_PLUGINS.contains(name)) {
            p.problem("'" + name + "' is not an authentication plugin of this server."
                    + Suggestions.didYouMean(name, Set.copyOf(ServerConfig.AUTH_PLUGINS))
                    + " Supported: " + String.join(", ", ServerConfig.AUTH_PLUGINS));
            return null;
        }
        return name;
    }

    private static UserConfig user(ConfigNode node, String schema) {
        Map<String, ConfigNode> keys = node.entries(USER_KEYS);
        if (!node.isMapping()) {
            return null;
        }
        String name = null;
        if (keys.containsKey("name")) {
            name = keys.get("name").name();
        } else {
            node.problem("missing key 'name'; e.g. - { name: app, password: \"${env:APP_PASSWORD}\", schemas: [shop] }");
        }
        String password = "";
        if (keys.containsKey("password")) {
            ConfigNode p = keys.get("password");
            password = p.isNull() ? "" : p.secret();
        }
        List<String> schemas = new ArrayList<>();
        if (keys.containsKey("schemas")) {
            for (ConfigNode s : keys.get("schemas").items()) {
                String value = s.name();
                if (value != null && schema != null && !value.equals(schema)) {
                    s.problem("'" + value + "' is not a schema of this configuration." + Suggestions.didYouMean(value, Set.of(schema))
                            + " Defined: " + schema);
                } else if (value != null) {
                    schemas.add(value);
                }
            }
        } else if (schema != null) {
            schemas.add(schema);
        }
        Boolean admin = keys.containsKey("admin") ? keys.get("admin").bool() : Boolean.FALSE;
        return name == null || password == null || admin == null ? null : new UserConfig(name, password, schemas, admin);
    }
}
