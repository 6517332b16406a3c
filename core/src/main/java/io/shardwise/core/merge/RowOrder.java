package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.route.SortKey;
import java.util.List;

/**
 * MySQL's ORDER BY over rows of one column list: each key compares its column's values by type, or
 * the bytes of its WEIGHT_STRING column when it has one; NULL is the least value, so it comes first
 * ascending and last descending. Built once per statement, allocation-free per comparison.
 */
final class RowOrder {
    private static final byte[] EMPTY = new byte[0];
    private final int[] valueColumns;
    private final int[] compareColumns;
    private final ValueOrder[] orders;
    private final boolean[] descending;

    RowOrder(List<SortKey> keys, List<Column> columns) {
        int n = keys.size();
        valueColumns = new int[n];
        compareColumns = new int[n];
        orders = new ValueOrder[n];
        descending = new boolean[n];
        for (int i = 0; i < n; i++) {
            SortKey key = keys.get(i);
            valueColumns[i] = key.column();
            compareColumns[i] = key.compareColumn();
            orders[i] = key.weightColumn() >= 0 ? ValueOrder.BYTES : ValueOrder.of(columns.get(key.column()));
            descending[i] = key.descending();
        }
    }

    int compare(Row a, Row b) {
        for (int i = 0; i < orders.length; i++) {
            int c = compareKey(i, a, b);
            if (c != 0) {
                return descending[i] ? -c : c;
            }
        }
        return 0;
    }

    /** As {@link #compare(Row, Row)} over kept rows, without a {@link Row} view of either. */
    int compare(byte[][] a, byte[][] b) {
        for (int i = 0; i < orders.length; i++) {
            int v = valueColumns[i];
            int w = compareColumns[i];
            int c = compareKey(i, a[v], b[v], a[w], b[w]);
            if (c != 0) {
                return descending[i] ? -c : c;
            }
        }
        return 0;
    }

    /** Whether the rows fall into the same group: every key equal (directions do not matter). */
    boolean sameKeys(Row a, Row b) {
        for (int i = 0; i < orders.length; i++) {
            if (compareKey(i, a, b) != 0) {
                return false;
            }
        }
        return true;
    }

    private int compareKey(int i, Row a, Row b) {
        byte[] va = a.get(valueColumns[i]);
        byte[] vb = b.get(valueColumns[i]);
        if (va == null || vb == null || compareColumns[i] == valueColumns[i]) {
            return compareKey(i, va, vb, va, vb);
        }
        return compareKey(i, va, vb, a.get(compareColumns[i]), b.get(compareColumns[i]));
    }

    /** Key {@code i} of two rows: their values {@code va}, {@code vb} and the cells of its compare column {@code wa}, {@code wb}. */
    private int compareKey(int i, byte[] va, byte[] vb, byte[] wa, byte[] wb) {
        if (va == null || vb == null) {
            return va == null ? (vb == null ? 0 : -1) : 1;
        }
        if (compareColumns[i] != valueColumns[i]) {
            return orders[i].compare(orEmpty(wa), orEmpty(wb));
        }
        return orders[i].compare(va, vb);
    }

    private static byte[] orEmpty(byte[] v) {
        return v == null ? EMPTY : v;
    }
}
