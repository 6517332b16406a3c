package io.shardwise.core.execute;

import java.util.Locale;
import java.util.Objects;

/**
 * One row of a statement's diagnostics area, as {@code SHOW WARNINGS} lists it: level, MySQL error
 * code and message (with logical table and database names).
 */
public record Condition(Level level, int code, String message) {
    /** SHOW WARNINGS' {@code Level} column; {@code @@error_count} counts {@link #ERROR}s only. */
    public enum Level {
        NOTE("Note"), WARNING("Warning"), ERROR("Error");

        private final String label;

        Level(String label) {
            this.label = label;
        }

        /** The word MySQL prints. */
        public String label() {
            return label;
        }

        public static Level of(String label) {
            return switch (label.toLowerCase(Locale.ROOT)) {
                case "note" -> NOTE;
                case "error" -> ERROR;
                default -> WARNING;
            };
        }
    }

    public Condition {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(message, "message");
    }
}
