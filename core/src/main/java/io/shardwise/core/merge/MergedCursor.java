package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;

/**
 * The merger's face: shows only the visible columns, closes every unit when anything fails (the
 * exception itself passes through unchanged) and on close, which is idempotent and never throws.
 * After close or an error, {@link #next} returns false.
 */
final class MergedCursor implements ResultCursor {
    private final ResultCursor pipeline;
    private final Inputs inputs;
    private final List<Column> columns;
    private boolean done;

    MergedCursor(ResultCursor pipeline, Inputs inputs, int visibleColumns) {
        this.pipeline = pipeline;
        this.inputs = inputs;
        List<Column> all = pipeline.columns();
        this.columns = visibleColumns < 0 || visibleColumns >= all.size() ? List.copyOf(all)
                : List.copyOf(all.subList(0, visibleColumns));
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        if (done) {
            return false;
        }
        try {
            if (pipeline.next()) {
                return true;
            }
        } catch (RuntimeException | Error e) {
            done = true;
            inputs.closeAll();
            throw e;
        }
        done = true;
        inputs.closeAll(); // the result is complete: release the units now, not when the caller closes
        return false;
    }

    @Override
    public byte[] get(int index) {
        if (index < 0 || index >= columns.size()) {
            throw new IndexOutOfBoundsException("column " + index + " of " + columns.size());
        }
        return pipeline.get(index);
    }

    @Override
    public void close() {
        done = true;
        inputs.closeAll();
    }
}
