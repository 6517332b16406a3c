package io.shardwise.core.merge;

import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.SortKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GROUP BY over unsorted units: every row is read and folded into its group in a hash map. A group's
 * identity is its key columns' bytes, or their WEIGHT_STRING bytes where a key has one, so 'apple'
 * and 'Apple' meet under a case-insensitive collation. Memory: one merged row per group.
 */
final class HashGrouping {
    private HashGrouping() {}

    /** The finished group rows, in order of first appearance. */
    static List<byte[][]> groups(ResultCursor source, List<SortKey> keys, Aggregator aggregator) {
        Map<GroupKey, Aggregator.Group> groups = new LinkedHashMap<>();
        Row row = source::get;
        while (source.next()) {
            byte[][] key = new byte[keys.size()][];
            for (int i = 0; i < key.length; i++) {
                SortKey k = keys.get(i);
                // NULL keys form one group of their own, even when the weight column is NULL too
                key[i] = row.get(k.column()) == null ? null : orEmpty(row.get(k.compareColumn())).clone();
            }
            GroupKey id = new GroupKey(key);
            Aggregator.Group group = groups.get(id);
            if (group == null) {
                groups.put(id, aggregator.open(row));
            } else {
                group.add(row);
            }
        }
        List<byte[][]> out = new ArrayList<>(groups.size());
        for (Aggregator.Group g : groups.values()) {
            out.add(g.finish());
        }
        return out;
    }

    private static byte[] orEmpty(byte[] v) {
        return v == null ? new byte[0] : v;
    }

    /** Cells compared by content, NULL equal to NULL (as GROUP BY and DISTINCT treat it). */
    record GroupKey(byte[][] cells) {
        @Override
        public boolean equals(Object o) {
            return o instanceof GroupKey k && Arrays.deepEquals(cells, k.cells);
        }

        @Override
        public int hashCode() {
            return Arrays.deepHashCode(cells);
        }
    }
}
