package io.shardwise.core.execute;

/** What one execution unit (or a whole statement) produced. */
public sealed interface UnitResult permits UnitResult.Rows, UnitResult.Update {
    /** A result set; the consumer closes the cursor. */
    record Rows(ResultCursor cursor) implements UnitResult {}

    /**
     * An update count. {@code affectedRows} is what the backend reported under the session's
     * CLIENT_FOUND_ROWS choice (matched rows if set, changed rows otherwise); {@code lastInsertId}
     * is 0 when none was generated.
     */
    record Update(long affectedRows, long lastInsertId, int warnings) implements UnitResult {}
}
