package io.shardwise.jdbc;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;

/**
 * A parsed {@code jdbc:shardwise:<config location>[?name=value&...]} URL. The location is a file
 * path (absolute or relative to the working directory), a {@code file:} URI, or
 * {@code classpath:<resource>}. {@link #key()} names the configuration canonically, so that every
 * spelling of one file shares one engine.
 *
 * @param location what follows {@code jdbc:shardwise:}, without the query
 * @param properties the query's properties overlaid by the caller's {@code Properties} (these win)
 */
record ConnectionUrl(String location, Properties properties) {
    static final String PREFIX = "jdbc:shardwise:";
    static final String CLASSPATH = "classpath:";

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
            for (String name : info.stringPropertyNames()) {
                props.setProperty(name, info.getProperty(name));
            }
        }
        if (rest.isBlank()) {
            throw new SQLException("no configuration location in '" + url + "' (expected " + PREFIX
                    + "<file path | file:URI | classpath:resource>)", "08001");
        }
        return new ConnectionUrl(rest, props);
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
