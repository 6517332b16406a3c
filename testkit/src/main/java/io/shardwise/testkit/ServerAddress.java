package io.shardwise.testkit;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of {@value #ENV}: {@code mysql://user[:password]@host[:port]}.
 *
 * <p>User and password are percent-decoded, so {@code @ : , %} in a password are written
 * {@code %40 %3A %2C %25}. The port defaults to 3306. Error messages never echo the password.
 */
record ServerAddress(String user, String password, String host, int port) {

    static final String ENV = "SHARDWISE_TEST_MYSQL";
    static final String FORMAT = "mysql://user[:password]@host[:port][,mysql://...]"
            + " (e.g. mysql://root@127.0.0.1:3306 or mysql://app:secret@db1:3306,mysql://app:secret@db2:3306;"
            + " percent-encode @ : , % in the password)";
    private static final String SCHEME = "mysql://";

    ServerAddress {
        if (user.isEmpty() || host.isEmpty() || port < 1 || port > 65535) {
            throw new IllegalArgumentException("incomplete server address " + user + "@" + host + ":" + port);
        }
    }

    /**
     * Parses the whole variable: a comma-separated list of at least one address.
     *
     * @throws IllegalArgumentException naming {@value #ENV}, the bad entry and the expected format
     */
    static List<ServerAddress> parseList(String value) {
        List<ServerAddress> out = new ArrayList<>();
        String[] entries = value.split(",", -1);
        for (int i = 0; i < entries.length; i++) {
            String entry = entries[i].strip();
            if (entry.isEmpty()) {
                throw malformed(i, entries.length, entry, "empty entry");
            }
            out.add(parse(entry, i, entries.length));
        }
        return List.copyOf(out);
    }

    private static ServerAddress parse(String entry, int index, int count) {
        if (!entry.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            throw malformed(index, count, entry, "must start with " + SCHEME);
        }
        String rest = entry.substring(SCHEME.length());
        int at = rest.lastIndexOf('@');
        if (at < 0) {
            throw malformed(index, count, entry, "no user@ before the host");
        }
        String userInfo = rest.substring(0, at);
        String hostPort = rest.substring(at + 1);
        int colon = userInfo.indexOf(':');
        String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon), index, count, entry);
        String password = colon < 0 ? "" : decode(userInfo.substring(colon + 1), index, count, entry);
        if (user.isEmpty()) {
            throw malformed(index, count, entry, "empty user");
        }
        String host;
        String portText;
        if (hostPort.startsWith("[")) { // IPv6 literal: [::1]:3306
            int close = hostPort.indexOf(']');
            if (close < 0) {
                throw malformed(index, count, entry, "unclosed '[' in IPv6 host");
            }
            host = hostPort.substring(1, close);
            String after = hostPort.substring(close + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                throw malformed(index, count, entry, "unexpected '" + after + "' after the host");
            }
            portText = after.isEmpty() ? null : after.substring(1);
        } else {
            int c = hostPort.indexOf(':');
            host = c < 0 ? hostPort : hostPort.substring(0, c);
            portText = c < 0 ? null : hostPort.substring(c + 1);
        }
        if (host.isEmpty()) {
            throw malformed(index, count, entry, "empty host");
        }
        if (host.contains("/") || (portText != null && portText.contains("/"))) {
            throw malformed(index, count, entry, "no path or schema allowed after host:port");
        }
        int port = 3306;
        if (portText != null) {
            try {
                port = Integer.parseInt(portText);
            } catch (NumberFormatException e) {
                throw malformed(index, count, entry, "port '" + portText + "' is not a number");
            }
            if (port < 1 || port > 65535) {
                throw malformed(index, count, entry, "port " + port + " is outside 1-65535");
            }
        }
        return new ServerAddress(user, password, host, port);
    }

    private static String decode(String s, int index, int count, String entry) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '%') {
                int value = i + 2 < s.length() ? hex(s.charAt(i + 1)) * 16 + hex(s.charAt(i + 2)) : -1;
                if (value < 0) {
                    throw malformed(index, count, entry, "bad percent escape in user or password");
                }
                bytes.write(value);
                i += 2;
            } else {
                bytes.writeBytes(String.valueOf(ch).getBytes(StandardCharsets.UTF_8));
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(char c) {
        int d = Character.digit(c, 16);
        return d < 0 ? -1000 : d;
    }

    private static IllegalArgumentException malformed(int index, int count, String entry, String reason) {
        String which = count == 1 ? "" : " entry " + (index + 1) + " of " + count;
        return new IllegalArgumentException(ENV + which + " '" + maskPassword(entry) + "' is malformed (" + reason
                + "); expected " + FORMAT);
    }

    /** {@code mysql://u:secret@h} becomes {@code mysql://u:***@h}; error text must not leak credentials. */
    static String maskPassword(String entry) {
        int schemeEnd = entry.indexOf("://");
        int start = schemeEnd < 0 ? 0 : schemeEnd + 3;
        int at = entry.lastIndexOf('@');
        int colon = entry.indexOf(':', start);
        if (at > start && colon > 0 && colon < at) {
            return entry.substring(0, colon + 1) + "***" + entry.substring(at);
        }
        return entry;
    }

    /** The address without the password, for logs and messages. */
    @Override
    public String toString() {
        return SCHEME + user + (password.isEmpty() ? "" : ":***") + "@" + Jdbc.hostPort(host, port);
    }
}
