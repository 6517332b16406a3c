package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;

/**
 * Streaming GROUP BY over a source sorted by the group keys: adjacent rows with equal keys become one
 * merged row. Holds one open group and the source's current row (the first row of the next group),
 * whatever the result size. For a global aggregate (no keys) every row is one group, and an empty
 * source still yields its one row.
 */
final class SortedGroupCursor implements ResultCursor {
    private final ResultCursor source;
    private final Row sourceRow;
    private final RowOrder groupKeys;
    private final Aggregator aggregator;
    private final boolean global;
    private final List<Column> columns;
    private boolean started;
    private boolean sourceHasRow;
    private long groups;
    private byte[][] current;

    SortedGroupCursor(ResultCursor source, RowOrder groupKeys, Aggregator aggregator, boolean global, List<Column> columns) {
        this.source = source;
        this.sourceRow = source::get;
        this.groupKeys = groupKeys;
        this.aggregator = aggregator;
        this.global = global;
        this.columns = columns;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        if (!started) {
            started = true;
            sourceHasRow = source.next();
        }
        if (!sourceHasRow) {
            if (global && groups == 0) {
                groups++;
                current = aggregator.emptyGlobalRow();
                return true;
            }
            current = null;
            return false;
        }
        Aggregator.Group group = aggregator.open(sourceRow);
        Row first = group.first();
        while ((sourceHasRow = source.next()) && groupKeys.sameKeys(first, sourceRow)) {
            group.add(sourceRow);
        }
        current = group.finish();
        groups++;
        return true;
    }

    @Override
    public byte[] get(int index) {
        return current[index];
    }

    @Override
    public void close() {
        source.close();
    }
}
