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
    record Update(long affectedRows, long lastInsertId, int warnings) implements UnitResult {}

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
