package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.SortKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GROUP BY k1, …, kn WITH ROLLUP over unsorted units (which grouped plainly): every unit row is folded
 * into its group and into the group of each prefix of its keys, so a super-aggregate merges the same
 * unit partials its groups do (AVG from sums and counts, DISTINCT from the values, not from finished
 * rows). A prefix group's row has the keys after the prefix (and their weights) NULL. Rows come out as
 * MySQL orders them: by the keys, each prefix's row after the groups under it, the grand total last; a
 * real NULL key is a group of its own and sorts first, its rollup row still after it. Memory: one
 * merged row per group and per prefix group.
 */
final class RollupGrouping {
    private RollupGrouping() {}

    static List<byte[][]> groups(ResultCursor source, List<SortKey> keys, Aggregator aggregator, List<Column> outColumns) {
        int n = keys.size();
        List<Map<HashGrouping.GroupKey, Aggregator.Group>> levels = new ArrayList<>(n + 1);
        for (int level = 0; level <= n; level++) {
            levels.add(new LinkedHashMap<>());
        }
        Row row = source::get;
        while (source.next()) {
            byte[][] key = new byte[n][];
            for (int i = 0; i < n; i++) {
                SortKey k = keys.get(i);
                byte[] compared = row.get(k.compareColumn());
                key[i] = row.get(k.column()) == null ? null : (compared == null ? new byte[0] : compared).clone();
            }
            for (int level = n; level >= 0; level--) {
                HashGrouping.GroupKey id = new HashGrouping.GroupKey(level == n ? key : Arrays.copyOf(key, level));
                Aggregator.Group group = levels.get(level).get(id);
                if (group == null) {
                    levels.get(level).put(id, aggregator.open(row));
                } else {
                    group.add(row);
                }
            }
        }
        List<Leveled> rows = new ArrayList<>();
        for (int level = 0; level <= n; level++) {
            for (Aggregator.Group g : levels.get(level).values()) {
                byte[][] cells = g.finish();
                for (int i = level; i < n; i++) {
                    SortKey k = keys.get(i);
                    cells[k.column()] = null;
                    if (k.weightColumn() >= 0) {
                        cells[k.weightColumn()] = null;
                    }
                }
                rows.add(new Leveled(level, cells));
            }
        }
        RowOrder[] byKey = new RowOrder[n];
        for (int i = 0; i < n; i++) {
            byKey[i] = new RowOrder(List.of(keys.get(i)), outColumns);
        }
        rows.sort((a, b) -> {
            for (int i = 0; i < n; i++) {
                boolean hasA = a.level > i;
                boolean hasB = b.level > i;
                if (hasA != hasB) {
                    return hasA ? -1 : 1; // the prefix row after every group under it
                }
                if (!hasA) {
                    return 0;
                }
                int c = byKey[i].compare(Row.of(a.cells), Row.of(b.cells));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        List<byte[][]> out = new ArrayList<>(rows.size());
        for (Leveled r : rows) {
            out.add(r.cells);
        }
        return out;
    }

    /** A finished row and how many leading keys it groups by (n for a group, fewer for a super-aggregate). */
    private record Leveled(int level, byte[][] cells) {}
}
