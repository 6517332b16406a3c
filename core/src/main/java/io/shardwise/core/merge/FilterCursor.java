package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;
import java.util.function.Predicate;

/** The source's rows that pass a predicate (HAVING on streamed groups). */
final class FilterCursor implements ResultCursor {
    private final ResultCursor source;
    private final Predicate<Row> keep;
    private final Row row;

    FilterCursor(ResultCursor source, Predicate<Row> keep) {
        this.source = source;
        this.keep = keep;
        this.row = source::get;
    }

    @Override
    public List<Column> columns() {
        return source.columns();
    }

    @Override
    public boolean next() {
        while (source.next()) {
            if (keep.test(row)) {
                return true;
            }
        }
        return false;
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
