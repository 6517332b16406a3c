package io.shardwise.core;

import io.shardwise.core.execute.ResultCursor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a statement produced: rows (the caller closes the cursor), an update count, or several
 * results in order (a CALL).
 */
public sealed interface StatementResult permits StatementResult.Rows, StatementResult.Update, StatementResult.Results {
    record Rows(ResultCursor cursor) implements StatementResult {}

    /**
     * An update count as MySQL reports it (matched or changed rows, as the session asked), the last
     * insert id, the keys Shardwise's generators filled in (in row order), and the OK packet's human
     * readable {@code info} ({@code Records: 3  Duplicates: 0  Warnings: 0}; empty when none).
     */
    record Update(long affectedRows, long lastInsertId, List<Object> generatedKeys, int warnings, String info) implements StatementResult {
        public static final Update OK = new Update(0, 0, List.of(), 0);

        public Update {
            generatedKeys = Collections.unmodifiableList(new ArrayList<>(generatedKeys));
            info = info == null ? "" : info;
        }

        public Update(long affectedRows, long lastInsertId, List<Object> generatedKeys, int warnings) {
            this(affectedRows, lastInsertId, generatedKeys, warnings, "");
        }
    }

    /**
     * A CALL's results as MySQL sends them: each result set its procedure's statements produced
     * (read whole already), then the CALL's own update count, always last. A face sends them in
     * order, flagging more results after every one but the last; the caller closes the cursors.
     */
    /**
     * {@code outParameters}: for a CALL run with OUT parameters (JDBC's CallableStatement), one row of
     * their values, a column per OUT or INOUT marker in marker order; null otherwise.
     */
    record Results(List<StatementResult> results, ResultCursor outParameters) implements StatementResult {
        public Results(List<StatementResult> results) {
            this(results, null);
        }

        public Results {
            results = List.copyOf(results);
            if (results.isEmpty() || !(results.get(results.size() - 1) instanceof Update)) {
                throw new IllegalArgumentException("a CALL's results end with its update count");
            }
        }
    }
}
