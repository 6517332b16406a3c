package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * MySQL's duplicate-key check among the rows a key move changes, when it assigns their primary key too. InnoDB checks
 * a unique key per row, in the order the statement updates its rows, not at the statement's end: {@code UPDATE users
 * SET user_id = user_id + 1} over users 1 and 2 fails with 1062 on row 1 (2 is still taken), and succeeds with {@code
 * ORDER BY user_id DESC}. A key move writes each node in place and then moves rows, so a row moving onto a key another
 * node's row gives up in the same statement would meet no duplicate; this replays MySQL's order over the chosen rows
 * (their old and new keys) before anything is written and fails as MySQL fails. A new key taken by a row the statement
 * does not change is found by the backends themselves (in place, or on the insert into its new node).
 *
 * <p>The order is the statement's ORDER BY (the rows as the choice returned them, merged in that order); without one,
 * the primary key's, as InnoDB updates a table it scans or a range of its primary key. Keys compare as MySQL compares
 * them: numbers by value, binary strings byte by byte, other strings by their column's collation (their {@code
 * WEIGHT_STRING}, asked of a backend through a {@link Weigher}: 'a' and 'A' differ under utf8mb4_bin, 'e' and 'é' are
 * one key under utf8mb4_general_ci, trailing spaces count only under a NO PAD collation).
 */
final class KeyShifts {
    private KeyShifts() {
    }

    /** The weights of string key values under their column's collation, as MySQL compares them in a unique key. */
    @FunctionalInterface
    interface Weigher {
        /**
         * {@code values}' weights ({@code WEIGHT_STRING}) under {@code column}'s collation, in their order; null when
         * the column compares its values byte by byte.
         */
        List<byte[]> weights(Column column, List<String> values);
    }

    /**
     * Fails with MySQL's 1062 when, replayed in MySQL's order, a chosen row's new key is held by another chosen row at
     * the time it is written.
     *
     * @param rows     the chosen rows, each once, in the statement's ORDER BY when {@code ordered}
     * @param oldCells the cells of each row's primary key before the write
     * @param newCells the cells of each row's primary key after it (its new values where the statement assigns them)
     * @param key      the key's columns in {@code columns}, which type the cells
     * @param weigher  the collation weights of the key's string values
     */
    static void check(List<byte[][]> rows, List<Integer> oldCells, List<Integer> newCells, List<Integer> key, List<Column> columns,
                      boolean ordered, Weigher weigher) {
        if (oldCells.equals(newCells) || rows.isEmpty()) {
            return; // no key column assigned: no row takes another's key
        }
        List<Map<String, Bytes>> weights = weights(rows, oldCells, newCells, key, columns, weigher);
        List<Key[]> shifts = new ArrayList<>(rows.size());
        for (byte[][] row : rows) {
            shifts.add(new Key[] {key(row, oldCells, key, columns, weights), key(row, newCells, key, columns, weights)});
        }
        if (!ordered) {
            shifts.sort(Comparator.comparing((Key[] s) -> s[0]));
        }
        Map<Key, Integer> holders = new HashMap<>();
        for (Key[] s : shifts) {
            holders.merge(s[0], 1, Integer::sum);
        }
        for (Key[] s : shifts) {
            if (s[0].equals(s[1])) {
                continue;
            }
            if (holders.getOrDefault(s[1], 0) > 0) {
                throw new ShardwiseException(ErrorCode.DUPLICATE_ENTRY, s[1].text, "PRIMARY");
            }
            holders.merge(s[0], -1, Integer::sum);
            holders.merge(s[1], 1, Integer::sum);
        }
    }

    /**
     * The chosen rows once each (a multi-table UPDATE meets a target row once per join row), or a refusal when one
     * row's new key differs between them: MySQL gives it the value of the join row it meets first, in a join order
     * it does not define. Strings compare by their bytes here: one row's old key is the same bytes each time, and two
     * new keys equal under the collation ('a', 'A') would still store different values.
     */
    static List<byte[][]> distinct(List<byte[][]> rows, List<Integer> oldCells, List<Integer> newCells, List<Integer> key,
                                   List<Column> columns, String what) {
        Map<Key, Key> seen = new HashMap<>();
        List<byte[][]> once = new ArrayList<>();
        for (byte[][] row : rows) {
            Key after = key(row, newCells, key, columns, null);
            Key before = seen.putIfAbsent(key(row, oldCells, key, columns, null), after);
            if (before == null) {
                once.add(row);
            } else if (!before.equals(after)) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, what + " whose new primary key differs between the join rows"
                        + " that meet one target row (" + before.text + ", " + after.text + "): MySQL writes the value of the join"
                        + " row it meets first, in a join order it does not define");
            }
        }
        return once;
    }

    /**
     * Per key column, the weight of each of its string values (old and new) under the column's collation; null for a
     * column compared by value or by bytes. One {@link Weigher} call per collated key column.
     */
    private static List<Map<String, Bytes>> weights(List<byte[][]> rows, List<Integer> oldCells, List<Integer> newCells,
                                                    List<Integer> key, List<Column> columns, Weigher weigher) {
        List<Map<String, Bytes>> weights = new ArrayList<>(key.size());
        for (int k = 0; k < key.size(); k++) {
            Column c = columns.get(key.get(k));
            if (!collated(c)) {
                weights.add(null);
                continue;
            }
            LinkedHashSet<String> values = new LinkedHashSet<>();
            for (byte[][] row : rows) {
                for (int cell : new int[] {oldCells.get(k), newCells.get(k)}) {
                    if (row[cell] != null) {
                        values.add(new String(row[cell], StandardCharsets.UTF_8));
                    }
                }
            }
            List<String> ordered = List.copyOf(values);
            List<byte[]> weighed = weigher.weights(c, ordered);
            if (weighed == null) {
                weights.add(null);
                continue;
            }
            if (weighed.size() != ordered.size()) {
                throw new ShardwiseException(ErrorCode.BUG, "weights of " + ordered.size() + " key values: " + weighed.size());
            }
            Map<String, Bytes> byValue = new HashMap<>();
            for (int i = 0; i < ordered.size(); i++) {
                byValue.put(ordered.get(i), new Bytes(weighed.get(i)));
            }
            weights.add(byValue);
        }
        return weights;
    }

    /** Whether a column's values compare by a collation other than their bytes (the merger's rule, {@code Weights}). */
    private static boolean collated(Column c) {
        boolean text = switch (c.mysqlType()) {
            case 15, 247, 248, 249, 250, 251, 252, 253, 254 -> true; // VARCHAR, ENUM, SET, TEXT/BLOB, VAR_STRING, STRING
            default -> false;
        };
        return text && !c.hasBinaryCollation();
    }

    /** {@code weights} null: strings by their bytes. */
    private static Key key(byte[][] row, List<Integer> cells, List<Integer> key, List<Column> columns, List<Map<String, Bytes>> weights) {
        Object[] values = new Object[cells.size()];
        StringBuilder text = new StringBuilder();
        for (int k = 0; k < cells.size(); k++) {
            byte[] cell = row[cells.get(k)];
            Column c = columns.get(key.get(k));
            text.append(k == 0 ? "" : "-").append(cell == null ? "NULL" : new String(cell, StandardCharsets.UTF_8));
            Map<String, Bytes> weight = weights == null ? null : weights.get(k);
            values[k] = cell != null && weight != null ? weight.get(new String(cell, StandardCharsets.UTF_8)) : value(cell, c);
        }
        return new Key(List.of(values), text.toString());
    }

    /** A cell as MySQL compares it without a collation: a number by value, anything else by its bytes. */
    private static Object value(byte[] cell, Column c) {
        if (cell == null) {
            return "\0NULL"; // a key column is NOT NULL; a NULL new value fails in place (1048) before it matters
        }
        return switch (c.mysqlType()) {
            case 0, 1, 2, 3, 4, 5, 8, 9, 13, 246 -> {
                try {
                    BigDecimal n = new BigDecimal(new String(cell, StandardCharsets.US_ASCII).strip());
                    yield n.signum() == 0 ? BigDecimal.ZERO : n.stripTrailingZeros();
                } catch (NumberFormatException e) {
                    yield new Bytes(cell);
                }
            }
            default -> new Bytes(cell);
        };
    }

    /** Bytes compared as MySQL compares weights and binary strings: unsigned, left to right, the shorter first on a tie. */
    private record Bytes(byte[] bytes) implements Comparable<Bytes> {
        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes b && Arrays.equals(bytes, b.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public int compareTo(Bytes o) {
            return Arrays.compareUnsigned(bytes, o.bytes);
        }

        @Override
        public String toString() {
            return HexFormat.of().formatHex(bytes);
        }
    }

    /** A key as compared ({@code values}, each a BigDecimal, Bytes or the NULL marker) and as MySQL's 1062 prints it ({@code text}). */
    private record Key(List<Object> values, String text) implements Comparable<Key> {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && values.equals(k.values);
        }

        @Override
        public int hashCode() {
            return values.hashCode();
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public int compareTo(Key o) {
            for (int i = 0; i < values.size(); i++) {
                Object a = values.get(i);
                Object b = o.values.get(i);
                int c = a.getClass() == b.getClass() ? ((Comparable) a).compareTo(b) : a.toString().compareTo(b.toString());
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        }
    }
}
