package io.shardwise.core.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the {@code backends} section. */
final class BackendsParser {
    static final Set<String> BACKEND_KEYS = Set.of("url", "user", "password", "pool");
    static final Set<String> POOL_KEYS = Set.of("max", "minIdle", "connectionTimeout", "idleTimeout", "maxLifetime");
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private BackendsParser() {}

    static Map<String, BackendConfig> parse(ConfigNode section) {
        Map<String, BackendConfig> backends = new LinkedHashMap<>();
        Map<String, ConfigNode> entries = section.entries();
        if (entries.isEmpty() && section.isMapping()) {
            section.problem("no backends; name at least one, e.g. ds0: { url: \"jdbc:mysql://host:3306/db\", user: app }");
        }
        entries.forEach((name, node) -> {
            if (!NAME.matcher(name).matches()) {
                node.problem("backend name '" + name + "' must be letters, digits and _ (it appears in node expressions)");
                return;
            }
            BackendConfig backend = backend(name, node);
            if (backend != null) {
                backends.put(name, backend);
            }
        });
        return backends;
    }

    private static BackendConfig backend(String name, ConfigNode node) {
        Map<String, ConfigNode> keys = node.entries(BACKEND_KEYS);
        if (!node.isMapping()) {
            return null;
        }
        String url = null;
        ConfigNode urlNode = keys.get("url");
        if (urlNode == null) {
            node.problem("missing key 'url'; e.g. url: \"jdbc:mysql://127.0.0.1:3306/" + name + "\"");
        } else {
            url = urlNode.string();
            if (url != null && !url.startsWith("jdbc:mysql://") && !url.startsWith("jdbc:mariadb://")) {
                urlNode.problem("'" + withoutCredentials(url) + "' is not a MySQL JDBC URL; expected jdbc:mysql://host:port/database"
                        + " (or jdbc:mariadb://...)");
                url = null;
            }
        }
        String user = "root";
        if (keys.containsKey("user")) {
            user = keys.get("user").name();
        }
        String password = "";
        if (keys.containsKey("password")) {
            ConfigNode p = keys.get("password");
            password = p.isNull() ? "" : p.secret();
        }
        PoolConfig pool = keys.containsKey("pool") ? pool(keys.get("pool")) : PoolConfig.DEFAULT;
        if (url == null || user == null || password == null || pool == null) {
            return null;
        }
        return new BackendConfig(name, url, user, password, pool);
    }

    private static PoolConfig pool(ConfigNode node) {
        Map<String, ConfigNode> keys = node.entries(POOL_KEYS);
        PoolConfig d = PoolConfig.DEFAULT;
        Integer max = keys.containsKey("max") ? keys.get("max").integer(1, 10_000) : Integer.valueOf(d.max());
        Integer minIdle = keys.containsKey("minIdle") ? keys.get("minIdle").integer(0, 10_000) : null;
        Duration connectionTimeout = duration(keys.get("connectionTimeout"), d.connectionTimeout(), Duration.ofMillis(250));
        Duration idleTimeout = duration(keys.get("idleTimeout"), d.idleTimeout(), Duration.ZERO);
        Duration maxLifetime = duration(keys.get("maxLifetime"), d.maxLifetime(), Duration.ZERO);
        if (max == null || connectionTimeout == null || idleTimeout == null || maxLifetime == null) {
            return null;
        }
        if (minIdle == null) {
            if (keys.containsKey("minIdle")) {
                return null;
            }
            minIdle = Math.min(d.minIdle(), max);
        } else if (minIdle > max) {
            keys.get("minIdle").problem("'" + minIdle + "' is more than max (" + max + "); expected 0 to " + max);
            return null;
        }
        return new PoolConfig(max, minIdle, connectionTimeout, idleTimeout, maxLifetime);
    }

    /** Integer milliseconds, or a number with unit ms, s, m or h. */
    static Duration duration(ConfigNode node, Duration fallback, Duration minimum) {
        if (node == null) {
            return fallback;
        }
        String text = node.string();
        if (text == null) {
            return null;
        }
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            node.problem("'" + text + "' is not a duration; expected milliseconds or a number with unit ms, s, m or h"
                    + " (e.g. 30s)");
            return null;
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        Duration d = switch (unit) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofMillis(amount);
        };
        if (d.compareTo(minimum) < 0) {
            node.problem("'" + text + "' is too short; expected at least " + minimum.toMillis() + "ms");
            return null;
        }
        return d;
    }

    private static final java.util.regex.Pattern USER_INFO = java.util.regex.Pattern.compile("//([^/@:]*):[^/@]*@");
    private static final java.util.regex.Pattern PASSWORD_PROPERTY =
            java.util.regex.Pattern.compile("(?i)((?:^|[?&;])[a-z]*password[a-z0-9]*=)[^&;]*");

    /** A URL as a message may quote it: a password in it (user:password@, password=...) shows as ***. */
    static String withoutCredentials(String url) {
        return PASSWORD_PROPERTY.matcher(USER_INFO.matcher(url).replaceAll("//$1:***@")).replaceAll("$1***");
    }
}
