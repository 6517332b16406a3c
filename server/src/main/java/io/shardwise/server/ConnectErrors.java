package io.shardwise.server;

import io.shardwise.server.session.LoginAttempt;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Failed connection attempts per client address, as MySQL's host cache counts them for
 * max_connect_errors: an address with {@code limit} failures in a row is blocked (ERR 1129 before
 * the greeting) until the server restarts; a successful login resets its count. Unlike MySQL, a
 * wrong password counts too, which is what stops a password guesser (MySQL leaves that to its
 * connection_control plugin).
 *
 * <p>Thread-safe. Bounded: at most {@link #MAX_ADDRESSES} addresses are tracked; when full, the
 * addresses not blocked are forgotten first, and a new address is not tracked while the blocked
 * ones alone fill the table (it still meets every other limit).
 */
final class ConnectErrors {
    static final int MAX_ADDRESSES = 10_000;

    private final int limit;
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();

    ConnectErrors(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
        this.limit = limit;
    }

    boolean blocked(String address) {
        Integer n = failures.get(address);
        return n != null && n >= limit;
    }

    /** FLUSH HOSTS: every address starts again from no failures (the blocked ones are unblocked). */
    void clear() {
        failures.clear();
    }

    /** The failures counted against {@code address} since its last success. */
    int failures(String address) {
        return failures.getOrDefault(address, 0);
    }

    /** The attempt of one connection from {@code address}; its first verdict is the one counted. */
    LoginAttempt attempt(String address) {
        return new LoginAttempt() {
            private boolean decided;

            @Override
            public void succeeded() {
                if (decide()) {
                    failures.remove(address);
                }
            }

            @Override
            public void failed() {
                if (decide()) {
                    fail(address);
                }
            }

            @Override
            public void excused() {
                decide();
            }

            private boolean decide() {
                boolean first = !decided;
                decided = true;
                return first;
            }
        };
    }

    private void fail(String address) {
        if (failures.size() >= MAX_ADDRESSES && !failures.containsKey(address)) {
            failures.values().removeIf(n -> n < limit);
            if (failures.size() >= MAX_ADDRESSES) {
                return;
            }
        }
        failures.merge(address, 1, Integer::sum);
    }
}
