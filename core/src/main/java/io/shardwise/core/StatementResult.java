package io.shardwise.core;

import io.shardwise.core.execute.ResultCursor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** What a statement produced: rows (the caller closes the cursor) or an update count. */
public sealed interface StatementResult permits StatementResult.Rows, StatementResult.Update {
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
}
