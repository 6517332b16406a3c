package io.shardwise.core;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.rewrite.SourceText;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The second half of a {@link io.shardwise.core.route.RouteKind#INSERT_SELECT}: the SELECT's rows as
 * INSERT ... VALUES statements of up to {@link #BATCH} rows, each with the user's head ({@code INSERT
 * IGNORE INTO t (a, b)}) and the values bound as parameters, so each batch is an ordinary INSERT:
 * routed row by row by the target's sharding key, its generated key filled, every copy of a broadcast
 * table written.
 *
 * <p>Values keep MySQL's meaning: integers and decimals as numbers, binary strings as bytes, every
 * other value as its text (MySQL converts a string to the column's type as it converts the SELECT's
 * value; strings are read as UTF-8, the backends' default character_set_results).
 */
final class InsertBatches {
    /** Rows per INSERT: large enough to amortize a round trip, small enough for max_allowed_packet. */
    static final int BATCH = 500;

    private InsertBatches() {}

    /** Every row of {@code rows}, as values to bind. */
    static List<Object[]> read(ResultCursor rows) {
        List<Column> columns = rows.columns();
        List<Object[]> out = new ArrayList<>();
        while (rows.next()) {
            Object[] row = new Object[columns.size()];
            for (int i = 0; i < row.length; i++) {
                row[i] = value(rows.get(i), columns.get(i));
            }
            out.add(row);
        }
        return out;
    }

    /**
     * The rows in statements of at most {@link #BATCH}, the last row alone in the last one: its
     * insert id is then that row's own (see {@link #insertId}).
     */
    static List<List<Object[]>> batches(List<Object[]> rows) {
        List<List<Object[]>> out = new ArrayList<>();
        int body = rows.size() - 1;
        for (int from = 0; from < body; from += BATCH) {
            out.add(rows.subList(from, Math.min(body, from + BATCH)));
        }
        if (!rows.isEmpty()) {
            out.add(rows.subList(body, rows.size()));
        }
        return out;
    }

    /**
     * MySQL's insert id of the whole statement: the first generated key when keys were generated
     * (Shardwise's generator, or the backend's AUTO_INCREMENT: {@code firstId}, the first batch's),
     * else, when rows give the AUTO_INCREMENT column explicit values, the last row's value
     * ({@code lastRowId}, its one-row statement's, recognised as a value of that row).
     */
    static long insertId(List<Object[]> rows, List<Object> keys, long firstId, long lastRowId) {
        if (!keys.isEmpty() && keys.get(0) instanceof Long first) {
            return first;
        }
        return given(rows, lastRowId) ? lastRowId : firstId;
    }

    /**
     * Whether {@code id}, the insert id of a statement inserting {@code rows}, is a value its last row gives (an explicit
     * AUTO_INCREMENT value, which MySQL reports when it generated none) rather than a generated one.
     */
    static boolean given(List<Object[]> rows, long id) {
        if (id != 0 && !rows.isEmpty()) {
            for (Object v : rows.get(rows.size() - 1)) {
                if (v instanceof Long l && l == id || v instanceof BigInteger b && b.equals(new BigInteger(Long.toUnsignedString(id)))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * MySQL's info of an INSERT ... SELECT: {@code Records} the rows selected, {@code Duplicates} the
     * rows that met an existing key (skipped by IGNORE: records - affected; replaced by REPLACE,
     * each counted twice in the affected rows: affected - records; otherwise none, or the statement
     * failed).
     */
    static String info(int records, long affected, int warnings, boolean replace, boolean ignore) {
        long duplicates = replace ? affected - records : ignore ? records - affected : 0;
        return "Records: " + records + "  Duplicates: " + Math.max(0, duplicates) + "  Warnings: " + warnings;
    }

    /** The user's statement up to its SELECT. */
    static String head(SourceText source, int selectStart) {
        return source.text().substring(0, source.at(selectStart)).stripTrailing();
    }

    /** {@code head VALUES (?, ..), ..} for {@code rows} rows of {@code width} values. */
    static String text(String head, int rows, int width) {
        StringBuilder sb = new StringBuilder(head.length() + rows * (width * 3 + 4) + 8).append(head).append(" VALUES ");
        for (int r = 0; r < rows; r++) {
            sb.append(r == 0 ? "(" : ", (");
            for (int c = 0; c < width; c++) {
                sb.append(c == 0 ? "?" : ", ?");
            }
            sb.append(')');
        }
        return sb.toString();
    }

    static List<Object> params(List<Object[]> rows) {
        List<Object> params = new ArrayList<>();
        for (Object[] row : rows) {
            params.addAll(Arrays.asList(row));
        }
        return params;
    }

    /** One cell as a value to bind (also the federation's shipped rows). */
    static Object value(byte[] bytes, Column c) {
        if (bytes == null) {
            return null;
        }
        String text = switch (c.mysqlType()) {
            case 1, 2, 3, 8, 9 -> new String(bytes, StandardCharsets.US_ASCII);
            default -> null;
        };
        if (text != null) {
            return text.length() < 19 ? (Object) Long.parseLong(text) : new BigInteger(text);
        }
        return switch (c.mysqlType()) {
            case 0, 246 -> new BigDecimal(new String(bytes, StandardCharsets.US_ASCII));
            // numbers as text keep their digits; temporal values are text MySQL reads back exactly
            case 4, 5, 7, 10, 11, 12, 13, 14 -> new String(bytes, StandardCharsets.US_ASCII);
            default -> c.hasBinaryCollation() ? bytes.clone() : new String(bytes, StandardCharsets.UTF_8);
        };
    }
}
