package io.shardwise.core.execute;

/** What one execution unit (or a whole statement) produced. */
public sealed interface UnitResult permits UnitResult.Rows, UnitResult.Update, UnitResult.Results {
    /** A result set; the consumer closes the cursor. */
    record Rows(ResultCursor cursor) implements UnitResult {}

    /**
     * An update count. {@code affectedRows} is what the backend reported under the session's
     * CLIENT_FOUND_ROWS choice (matched rows if set, changed rows otherwise); {@code lastInsertId}
     * is 0 when none was generated.
     */
    /** @param info the OK packet's human-readable info ({@code Records: 3  Deleted: 0  Skipped: 0  Warnings: 0}), or "" */
    record Update(long affectedRows, long lastInsertId, int warnings, String info) implements UnitResult {
        public Update(long affectedRows, long lastInsertId, int warnings) {
            this(affectedRows, lastInsertId, warnings, "");
        }
    }

    /**
     * Every result of one statement that returns several (CALL): the result sets its procedure's
     * statements produced, each read whole, then the CALL's own update count last.
     */
    record Results(java.util.List<UnitResult> results) implements UnitResult {
        public Results {
            results = java.util.List.copyOf(results);
        }
    }
}
