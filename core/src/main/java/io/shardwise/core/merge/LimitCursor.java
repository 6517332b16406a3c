package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;

/**
 * OFFSET and LIMIT: skips {@code offset} rows, passes at most {@code limit} (-1: all), and closes
 * the units the moment the limit is reached, so the backends stop sending rows nobody reads.
 */
final class LimitCursor implements ResultCursor {
    private final ResultCursor source;
    private final Inputs inputs;
    private long toSkip;
    private final long limit;
    private long passed;

    LimitCursor(ResultCursor source, Inputs inputs, long offset, long limit) {
        this.source = source;
        this.inputs = inputs;
        this.toSkip = offset;
        this.limit = limit;
    }

    @Override
    public List<Column> columns() {
        return source.columns();
    }

    @Override
    public boolean next() {
        if (limit >= 0 && passed >= limit) {
            inputs.closeAll();
            return false;
        }
        while (toSkip > 0) {
            if (!source.next()) {
                return false;
            }
            toSkip--;
        }
        if (!source.next()) {
            return false;
        }
        passed++;
        return true;
    }

    @Override
    public byte[] get(int index) {
        return source.get(index);
    }

    @Override
    public void close() {
        source.close();
    }
}
