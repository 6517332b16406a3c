package io.shardwise.core.config;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/** Reads the {@code timeouts} section. */
final class TimeoutsParser {
    static final Set<String> KEYS = Set.of("statement", "lockWait");

    private TimeoutsParser() {}

    static TimeoutsConfig parse(ConfigNode node) {
        TimeoutsConfig d = TimeoutsConfig.DEFAULT;
        Map<String, ConfigNode> keys = node.entries(KEYS);
        if (!node.isMapping()) {
            return d;
        }
        Duration statement = BackendsParser.duration(keys.get("statement"), d.statement(), Duration.ZERO);
        Duration lockWait = BackendsParser.duration(keys.get("lockWait"), d.lockWait(), TimeoutsConfig.MIN_LOCK_WAIT);
        if (lockWait != null && lockWait.compareTo(TimeoutsConfig.MAX_LOCK_WAIT) > 0) {
            keys.get("lockWait").problem("'" + keys.get("lockWait").string() + "' is too long; expected at most 365 days");
            return d;
        }
        return statement == null || lockWait == null ? d : new TimeoutsConfig(statement, lockWait);
    }
}
