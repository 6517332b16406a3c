package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.sql.analyze.RowChoice;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The second half of a {@link io.shardwise.core.route.RouteKind#KEYED_WRITE}: from the rows its
 * SELECT chose (the whole rows, so the primary key is found by the columns' PRI_KEY flags, as the
 * backend declares it), the user's UPDATE/DELETE without ORDER BY / LIMIT and with its WHERE and-ed
 * with those rows' keys — an ordinary statement, routed to the chosen rows' nodes by their sharding
 * keys. Its affected rows are then MySQL's: the same rows, matched or changed as the client asked.
 *
 * <p>Hazard: key values are written as literals from the text-protocol bytes, strings read as UTF-8
 * (the backends' default character_set_results); a key in another character set would not match.
 */
final class KeyedWrites {
    private static final int FLAG_PRI_KEY = 2;

    private KeyedWrites() {}

    /**
     * {@code shard IN (...) AND (pk, ...) IN ((...), ...)} for every row of {@code rows} (read to its
     * end), or {@code FALSE} when it has none: the write still runs, so MySQL's errors about the
     * statement itself (an unknown column in SET) still come.
     */
    static String predicate(ResultCursor rows, String table, String shardingColumn, LexicalMode mode) {
        return predicate(rows.columns(), rows.columns(), read(rows), table, shardingColumn, mode);
    }

    /**
     * As {@link #predicate(ResultCursor, String, String, LexicalMode)}, the key found by the flags of
     * {@code declared}: the table's own columns in the same order. A row chosen on the federated tier
     * comes from a temporary copy whose result MariaDB sends without key flags.
     */
    static String predicate(ResultCursor rows, List<Column> declared, String table, String shardingColumn, LexicalMode mode) {
        return predicate(rows.columns(), declared, read(rows), table, shardingColumn, mode);
    }

    /** The cells of every row of {@code rows} (read to its end). */
    static List<byte[][]> read(ResultCursor rows) {
        int width = rows.columns().size();
        List<byte[][]> out = new ArrayList<>();
        while (rows.next()) {
            byte[][] row = new byte[width][];
            for (int i = 0; i < width; i++) {
                byte[] v = rows.get(i);
                row[i] = v == null ? null : v.clone();
            }
            out.add(row);
        }
        return out;
    }

    /**
     * {@link #predicate(ResultCursor, List, String, String, LexicalMode)} of rows already read
     * ({@code columns} their first cells', {@code declared} the flags of those).
     */
    static String predicate(List<Column> columns, List<Column> declared, List<byte[][]> rows, String table, String shardingColumn,
                            LexicalMode mode) {
        List<Integer> key = primaryKey(declared.size() > columns.size() ? declared.subList(0, columns.size()) : declared);
        int shard = -1;
        for (int i = 0; i < columns.size(); i++) {
            if (name(columns.get(i)).equalsIgnoreCase(shardingColumn)) {
                shard = i;
            }
        }
        if (key.isEmpty()) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "ORDER BY or LIMIT in a write spanning shards to table '" + table
                    + "', which has no primary key to write the chosen rows by");
        }
        Set<String> shardValues = new LinkedHashSet<>();
        List<String> tuples = new ArrayList<>();
        for (byte[][] row : rows) {
            if (shard >= 0) {
                shardValues.add(literal(row[shard], columns.get(shard), mode));
            }
            tuples.add(tuple(row, key, key, columns, mode));
        }
        if (tuples.isEmpty()) {
            return "FALSE";
        }
        StringBuilder sb = new StringBuilder();
        if (shard >= 0 && !(key.size() == 1 && key.get(0) == shard)) {
            sb.append(quoted(name(columns.get(shard)))).append(" IN (").append(String.join(", ", shardValues)).append(") AND ");
        }
        return sb.append(keyColumns(columns, key)).append(" IN (").append(String.join(", ", tuples)).append(')').toString();
    }

    /** The indexes of the columns the backend flags as its primary key's. */
    static List<Integer> primaryKey(List<Column> columns) {
        List<Integer> key = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if ((columns.get(i).flags() & FLAG_PRI_KEY) != 0) {
                key.add(i);
            }
        }
        return key;
    }

    /** {@code `a`} or {@code (`a`, `b`)}: the key's columns, as the left side of an IN. */
    static String keyColumns(List<Column> columns, List<Integer> key) {
        if (key.size() == 1) {
            return quoted(name(columns.get(key.get(0))));
        }
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < key.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(quoted(name(columns.get(key.get(i)))));
        }
        return sb.append(')').toString();
    }

    /** One row's key as the right side's member: the cells at {@code cells}, typed as the key's columns at {@code key}. */
    static String tuple(byte[][] row, List<Integer> cells, List<Integer> key, List<Column> columns, LexicalMode mode) {
        StringBuilder tuple = new StringBuilder();
        for (int k = 0; k < key.size(); k++) {
            tuple.append(k == 0 ? "" : ", ").append(literal(row[cells.get(k)], columns.get(key.get(k)), mode));
        }
        return key.size() == 1 ? tuple.toString() : "(" + tuple + ")";
    }

    /** The user's statement up to its ORDER BY / LIMIT, its WHERE (if any) and-ed with {@code predicate}. */
    static String text(SourceText source, RowChoice choice, String predicate) {
        String text = source.text();
        int orderLimit = source.at(choice.orderLimitStart());
        if (choice.whereStart() < 0) {
            return text.substring(0, orderLimit).stripTrailing() + " WHERE " + predicate;
        }
        int start = source.at(choice.whereStart());
        int end = source.at(choice.whereEnd());
        return text.substring(0, start) + "(" + text.substring(start, end) + ") AND " + predicate;
    }

    static String name(Column c) {
        return c.orgName().isEmpty() ? c.name() : c.orgName();
    }

    static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** A key value as SQL: numbers as they are, dates and strings quoted, binary strings in hex. */
    private static String literal(byte[] value, Column c, LexicalMode mode) {
        if (value == null) {
            return "NULL";
        }
        return switch (c.mysqlType()) {
            case 0, 1, 2, 3, 4, 5, 8, 9, 13, 246 -> new String(value, StandardCharsets.US_ASCII);
            case 7, 10, 11, 12, 14 -> "'" + new String(value, StandardCharsets.US_ASCII) + "'";
            default -> c.hasBinaryCollation() ? "X'" + HexFormat.of().formatHex(value) + "'"
                    : mode.quote(new String(value, StandardCharsets.UTF_8));
        };
    }
}
