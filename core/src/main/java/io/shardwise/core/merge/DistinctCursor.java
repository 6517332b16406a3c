package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;

/**
 * SELECT DISTINCT over the visible columns: the first row of each distinct value combination passes.
 * A column with a WEIGHT_STRING column (named by the plan's sort or group keys) is identified by its
 * weight, so 'apple' and 'Apple' are one value under a case-insensitive collation; other columns by
 * their bytes, which are canonical for one column's type in the text protocol. Memory: one key per
 * distinct row.
 */
final class DistinctCursor implements ResultCursor {
    private final ResultCursor source;
    private final Row row;
    private final KeyTable seen;

    /** @param weightOf for each visible column, its weight column or -1 */
    DistinctCursor(ResultCursor source, int[] weightOf) {
        this.source = source;
        this.row = source::get;
        int[] valueColumns = new int[weightOf.length];
        int[] identityColumns = new int[weightOf.length];
        for (int i = 0; i < weightOf.length; i++) {
            valueColumns[i] = i;
            identityColumns[i] = weightOf[i] >= 0 ? weightOf[i] : i;
        }
        // a seen row is kept as its key cells only (KeyTable.keyOf): key i at column i, its own identity
        this.seen = new KeyTable(valueColumns, identityColumns, valueColumns, valueColumns, 64);
    }

    @Override
    public List<Column> columns() {
        return source.columns();
    }

    @Override
    public boolean next() {
        while (source.next()) {
            if (seen.find(row) < 0) {
                seen.add(seen.keyOf(row));
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
