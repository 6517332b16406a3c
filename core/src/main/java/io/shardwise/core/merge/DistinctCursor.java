package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * SELECT DISTINCT over the visible columns: the first row of each distinct value combination passes.
 * A column with a WEIGHT_STRING column (named by the plan's sort or group keys) is identified by its
 * weight, so 'apple' and 'Apple' are one value under a case-insensitive collation; other columns by
 * their bytes, which are canonical for one column's type in the text protocol. Memory: one key per
 * distinct row.
 */
final class DistinctCursor implements ResultCursor {
    private final ResultCursor source;
    private final int[] identityColumns;
    private final int[] valueColumns;
    private final Set<HashGrouping.GroupKey> seen = new HashSet<>();

    /** @param weightOf for each visible column, its weight column or -1 */
    DistinctCursor(ResultCursor source, int[] weightOf) {
        this.source = source;
        this.valueColumns = new int[weightOf.length];
        this.identityColumns = new int[weightOf.length];
        for (int i = 0; i < weightOf.length; i++) {
            valueColumns[i] = i;
            identityColumns[i] = weightOf[i] >= 0 ? weightOf[i] : i;
        }
    }

    @Override
    public List<Column> columns() {
        return source.columns();
    }

    @Override
    public boolean next() {
        while (source.next()) {
            byte[][] key = new byte[identityColumns.length][];
            for (int i = 0; i < key.length; i++) {
                byte[] value = source.get(valueColumns[i]);
                byte[] identity = value == null ? null : source.get(identityColumns[i]);
                key[i] = value == null ? null : (identity == null ? new byte[0] : identity.clone());
            }
            if (seen.add(new HashGrouping.GroupKey(key))) {
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
