package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;
import java.util.function.Supplier;

/**
 * A stage that must read all its input before its first row (hashed grouping, ORDER BY over groups)
 * does that reading on the first {@link #next}, not when the merge is set up: unit errors then
 * surface from {@code next()} like every other row error, and nothing is read for a caller that only
 * looks at the columns.
 */
final class DeferredCursor implements ResultCursor {
    private final List<Column> columns;
    private final Supplier<ResultCursor> build;
    private final Inputs inputs;
    private ResultCursor built;

    DeferredCursor(List<Column> columns, Supplier<ResultCursor> build, Inputs inputs) {
        this.columns = columns;
        this.build = build;
        this.inputs = inputs;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        if (built == null) {
            built = build.get();
        }
        return built.next();
    }

    @Override
    public byte[] get(int index) {
        return built.get(index);
    }

    @Override
    public void close() {
        inputs.closeAll();
    }
}
