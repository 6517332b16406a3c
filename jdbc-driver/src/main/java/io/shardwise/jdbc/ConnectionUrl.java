package io.shardwise.jdbc;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import io.shardwise.core.config.ConfigOverrides;
import io.shardwise.core.config.Suggestions;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A parsed {@code jdbc:shardwise:<config location>[?name=value&...]} URL. The location is a file
 * path (absolute or relative to the working directory), a {@code file:} URI, or
 * {@code classpath:<resource>}. {@link #key()} names the configuration canonically, so that every
 * spelling of one file shares one engine.
 *
 * <p>A property whose name is a configuration path ({@code backends.ds0.pool.max}, {@code schema};
 * see {@link #isConfigurationPath}) overrides that value of the file; the others are the driver's
 * own ({@link #DRIVER_PROPERTIES}) or, as Connector/J does with names it does not know, ignored, so
 * that the Connector/J settings frameworks pass along ({@code cachePrepStmts}, {@code useSSL}) do no
 * harm. A name one typo away from one of ours is refused rather than ignored.
 *
 * @param location what follows {@code jdbc:shardwise:}, without the query
 * @param properties the query's properties overlaid by the caller's {@code Properties} (these win)
 */
record ConnectionUrl(String location, Properties properties) {
    static final String PREFIX = "jdbc:shardwise:";
    static final String CLASSPATH = "classpath:";
    /** Honoured by the driver itself; user and password are accepted and ignored. */
    static final List<String> DRIVER_PROPERTIES = List.of("useAffectedRows", "allowLoadLocalInfile", "user", "password");
    /** Configuration keys that are a property name on their own (the rest need a dotted path). */
    private static final List<String> TOP_LEVEL_KEYS = List.of("schema", "defaultBackend", "backends", "tables", "server");

    static boolean accepts(String url) {
        return url != null && url.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
    }

    static ConnectionUrl parse(String url, Properties info) throws SQLException {
        if (!accepts(url)) {
            throw new SQLException("not a Shardwise URL: '" + url + "' (expected " + PREFIX + "<config location>)", "08001");
        }
        String rest = url.substring(PREFIX.length());
        Properties props = new Properties();
        int q = rest.indexOf('?');
        if (q >= 0) {
            for (String pair : rest.substring(q + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = decode(eq < 0 ? pair : pair.substring(0, eq));
                props.setProperty(name, eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
            rest = rest.substring(0, q);
        }
        if (info != null) {
            // not stringPropertyNames(): HikariCP's addDataSourceProperty("backends.ds0.pool.max", 4) stores an Integer
            for (var e : info.entrySet()) {
                if (e.getKey() instanceof String name && e.getValue() != null) {
                    props.setProperty(name, String.valueOf(e.getValue()));
                }
            }
        }
        if (rest.isBlank()) {
            throw new SQLException("no configuration location in '" + url + "' (expected " + PREFIX
                    + "<file path | file:URI | classpath:resource>)", "08001");
        }
        ConnectionUrl parsed = new ConnectionUrl(rest, props);
        parsed.refuseNearMisses();
        return parsed;
    }

    /** Whether a property names a configuration value rather than a driver setting. */
    static boolean isConfigurationPath(String name) {
        return name.indexOf('.') >= 0 || name.indexOf('[') >= 0 || TOP_LEVEL_KEYS.contains(name);
    }

    /** The properties that override values of the configuration file. */
    ConfigOverrides overrides() {
        Map<String, String> values = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            if (isConfigurationPath(name)) {
                values.put(name, properties.getProperty(name));
            }
        }
        return ConfigOverrides.of(values);
    }

    /** What shares an engine: the same configuration with the same overrides. */
    EngineKey engineKey() {
        return new EngineKey(key(), overrides());
    }

    record EngineKey(String location, ConfigOverrides overrides) {}

    private void refuseNearMisses() throws SQLException {
        List<String> ours = new java.util.ArrayList<>(DRIVER_PROPERTIES);
        ours.addAll(TOP_LEVEL_KEYS);
        for (String name : properties.stringPropertyNames()) {
            if (isConfigurationPath(name) || DRIVER_PROPERTIES.contains(name)) {
                continue;
            }
            String close = Suggestions.closest(name, ours);
            if (close != null) {
                throw new SQLException("unknown property '" + name + "'. Did you mean '" + close + "'? Shardwise reads "
                        + String.join(", ", DRIVER_PROPERTIES) + " and configuration paths (" + String.join(", ", TOP_LEVEL_KEYS)
                        + ", backends.ds0.pool.max ...)", "01S00");
            }
        }
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    boolean isClasspath() {
        return location.regionMatches(true, 0, CLASSPATH, 0, CLASSPATH.length());
    }

    /** The classpath resource name, without a leading slash. */
    String resource() {
        String r = location.substring(CLASSPATH.length());
        return r.startsWith("/") ? r.substring(1) : r;
    }

    Path path() {
        if (location.regionMatches(true, 0, "file:", 0, 5)) {
            return Path.of(java.net.URI.create(location));
        }
        return Path.of(location);
    }

    /** One name per configuration: the classpath resource, or the file's absolute normalized path. */
    String key() {
        return isClasspath() ? CLASSPATH + resource() : "file:" + path().toAbsolutePath().normalize();
    }

    /**
     * Connector/J's {@code useAffectedRows}: false (the default) asks for matched rows
     * (CLIENT_FOUND_ROWS), true for changed rows.
     */
    boolean useAffectedRows() throws SQLException {
        return bool("useAffectedRows", false);
    }

    /** Connector/J's {@code allowLoadLocalInfile}: LOAD DATA LOCAL INFILE reads files of this process's host (off by default). */
    boolean allowLoadLocalInfile() throws SQLException {
        return bool("allowLoadLocalInfile", false);
    }

    private boolean bool(String name, boolean otherwise) throws SQLException {
        String v = properties.getProperty(name);
        if (v == null) {
            return otherwise;
        }
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1" -> true;
            case "false", "no", "0" -> false;
            default -> throw new SQLException("property " + name + "='" + v + "' is not a boolean (true or false)", "01S00");
        };
    }
}
