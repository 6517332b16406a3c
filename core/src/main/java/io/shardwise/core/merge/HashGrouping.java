package io.shardwise.core.merge;

import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.SortKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * GROUP BY over unsorted units: every row is read and folded into its group in a hash table ({@link KeyTable}). A group's
 * identity is its key columns' bytes, or their WEIGHT_STRING bytes where a key has one, so 'apple'
 * and 'Apple' meet under a case-insensitive collation. Memory: one merged row per group.
 */
final class HashGrouping {
    private HashGrouping() {}

    /** The finished group rows, in order of first appearance. */
    static List<byte[][]> groups(ResultCursor source, List<SortKey> keys, Aggregator aggregator) {
        int[] values = new int[keys.size()];
        int[] identities = new int[keys.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = keys.get(i).column();
            identities[i] = keys.get(i).compareColumn();
        }
        // a group's key is read from its first row, which the group keeps as copied
        KeyTable table = new KeyTable(values, identities, values, identities, 64);
        List<Aggregator.Group> groups = new ArrayList<>();
        Row row = source::get;
        while (source.next()) {
            int found = table.find(row);
            if (found < 0) {
                Aggregator.Group group = aggregator.open(row);
                table.add(group.cells());
                groups.add(group);
            } else {
                groups.get(found).add(row);
            }
        }
        List<byte[][]> out = new ArrayList<>(groups.size());
        for (Aggregator.Group g : groups) {
            out.add(g.finish());
        }
        return out;
    }

    /** Cells compared by content, NULL equal to NULL (as GROUP BY treats it): ROLLUP's levels. */
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
