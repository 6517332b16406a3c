package io.shardwise.core.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Reads the {@code transaction} section: {@code local}, {@code xa}, or a mapping with {@code mode} and the XA settings. */
final class TransactionParser {
    static final Set<String> KEYS = Set.of("mode", "log", "instanceId", "recoveryInterval");

    private TransactionParser() {}

    static TransactionConfig parse(ConfigNode node) {
        TransactionConfig d = TransactionConfig.DEFAULT;
        if (node.isScalar()) {
            TransactionConfig.Mode mode = mode(node);
            return mode == null ? d : new TransactionConfig(mode, d.log(), null, d.recoveryInterval());
        }
        if (!node.isMapping()) {
            node.problem("expected local, xa, or a mapping with mode, log, instanceId, recoveryInterval");
            return d;
        }
        Map<String, ConfigNode> keys = node.entries(KEYS);
        TransactionConfig.Mode mode = keys.containsKey("mode") ? mode(keys.get("mode")) : d.mode();
        Path log = keys.containsKey("log") ? path(keys.get("log")) : d.log();
        String id = keys.containsKey("instanceId") ? instanceId(keys.get("instanceId")) : null;
        Duration interval = BackendsParser.duration(keys.get("recoveryInterval"), d.recoveryInterval(), Duration.ofMillis(100));
        if (mode == null || log == null || interval == null || keys.containsKey("instanceId") && id == null) {
            return d;
        }
        return new TransactionConfig(mode, log, id, interval);
    }

    private static TransactionConfig.Mode mode(ConfigNode node) {
        String text = node.name();
        if (text == null) {
            return null;
        }
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "local" -> TransactionConfig.Mode.LOCAL;
            case "xa" -> TransactionConfig.Mode.XA;
            default -> {
                node.problem("'" + text + "' is not a transaction mode; expected local (each backend commits on its own)"
                        + " or xa (two-phase commit over MySQL XA)");
                yield null;
            }
        };
    }

    private static String instanceId(ConfigNode node) {
        String text = node.name();
        if (text != null && !TransactionConfig.INSTANCE_ID.matcher(text).matches()) {
            node.problem("'" + text + "' is not an instance id; expected 1 to 24 letters, digits or underscores");
            return null;
        }
        return text;
    }

    private static Path path(ConfigNode node) {
        String text = node.name();
        if (text == null) {
            return null;
        }
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            node.problem("'" + text + "' is not a file path: " + e.getReason());
            return null;
        }
    }
}
