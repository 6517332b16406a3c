package io.shardwise.it.oracle;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one side of the oracle made of one statement, reduced to what MySQL's text protocol shows a
 * client: result labels, protocol type codes, the rest of each column's description and cell bytes;
 * an update's counts; or an error's errno. Values are copied out of cursors and result sets, so an outcome outlives them.
 */
sealed interface Outcome {

    /**
     * A result set; {@code rows} in the order the side returned them. {@code meta} holds, per column,
     * the rest of its description at the level the face exposes it (see {@link Meta}); empty when the
     * side does not report it.
     */
    record Rows(List<String> labels, List<Integer> types, List<Row> rows, List<Map<String, Object>> meta) implements Outcome {
        public Rows {
            labels = List.copyOf(labels);
            types = List.copyOf(types);
            rows = List.copyOf(rows);
            meta = List.copyOf(meta);
        }

        Rows(List<String> labels, List<Integer> types, List<Row> rows) {
            this(labels, types, rows, List.of());
        }
    }

    /**
     * A column's description beyond label and type, as property name to value. A face reports the
     * properties it exposes and the comparator compares those both sides report: {@link #PACKET}'s
     * keys are the fields of MySQL's column-definition packet (as Connector/J decodes it, or as the
     * engine's {@code Column} holds it), {@link #JDBC}'s are what {@code ResultSetMetaData} answers.
     */
    final class Meta {
        static final String SCHEMA = "schema";
        static final String TABLE = "table";
        static final String ORG_TABLE = "orgTable";
        static final String ORG_NAME = "orgName";
        static final String COLLATION = "collation";
        static final String LENGTH = "length";
        static final String DECIMALS = "decimals";
        static final String FLAGS = "flags";
        static final String CATALOG = "jdbc.catalog";
        static final String TABLE_NAME = "jdbc.tableName";
        static final String COLUMN_NAME = "jdbc.columnName";
        static final String PRECISION = "jdbc.precision";
        static final String SCALE = "jdbc.scale";
        static final String DISPLAY_SIZE = "jdbc.displaySize";
        static final String NULLABLE = "jdbc.nullable";
        static final String SIGNED = "jdbc.signed";
        static final String TYPE_NAME = "jdbc.typeName";
        static final String AUTO_INCREMENT = "jdbc.autoIncrement";
        static final String CASE_SENSITIVE = "jdbc.caseSensitive";
        static final String CLASS_NAME = "jdbc.className";
        /**
         * A server-prepared statement's column as COM_STMT_PREPARE described it (name, character set id,
         * length, type, flags, decimals), before any value was bound; the server faces only.
         */
        static final String PREPARED = "prepare";

        private Meta() {}

        /** The column-definition packet's fields (flags as their low 16 bits, as the packet carries them). */
        static Map<String, Object> packet(String schema, String table, String orgTable, String orgName, int collation,
                                          long length, int decimals, int flags) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(SCHEMA, orEmpty(schema));
            m.put(TABLE, orEmpty(table));
            m.put(ORG_TABLE, orEmpty(orgTable));
            m.put(ORG_NAME, orEmpty(orgName));
            m.put(COLLATION, collation);
            m.put(LENGTH, length);
            m.put(DECIMALS, decimals);
            m.put(FLAGS, flags & 0xFFFF);
            return m;
        }

        /** Adds what JDBC's ResultSetMetaData answers for column {@code i} (1-based). */
        static Map<String, Object> jdbc(Map<String, Object> m, ResultSetMetaData md, int i) throws SQLException {
            m.put(CATALOG, orEmpty(md.getCatalogName(i)));
            m.put(TABLE_NAME, orEmpty(md.getTableName(i)));
            m.put(COLUMN_NAME, orEmpty(md.getColumnName(i)));
            m.put(PRECISION, md.getPrecision(i));
            m.put(SCALE, md.getScale(i));
            m.put(DISPLAY_SIZE, md.getColumnDisplaySize(i));
            m.put(NULLABLE, md.isNullable(i));
            m.put(SIGNED, md.isSigned(i));
            m.put(TYPE_NAME, md.getColumnTypeName(i));
            m.put(AUTO_INCREMENT, md.isAutoIncrement(i));
            m.put(CASE_SENSITIVE, md.isCaseSensitive(i));
            m.put(CLASS_NAME, md.getColumnClassName(i));
            return m;
        }

        private static String orEmpty(String s) {
            return s == null ? "" : s;
        }
    }

    /** An OK packet: affected rows (matched rows, CLIENT_FOUND_ROWS) and the last insert id. */
    record Update(long affectedRows, long lastInsertId) implements Outcome {}

    /** An error reported by the side; {@code message} is compared only by a comparator that knows the database names. */
    record Failure(int errno, String sqlState, String message) implements Outcome {}

    /**
     * Something the harness did not expect from a side (an exception other than the side's error
     * type, such as a NullPointerException escaping the engine): always counted as an error.
     */
    record Crash(Throwable cause) implements Outcome {}

    /** One row: the text-protocol bytes of each cell, null for SQL NULL. Compared by content. */
    final class Row {
        private final byte[][] cells;

        Row(byte[][] cells) {
            this.cells = cells.clone();
        }

        static Row of(String... texts) {
            byte[][] cells = new byte[texts.length][];
            for (int i = 0; i < texts.length; i++) {
                cells[i] = texts[i] == null ? null : texts[i].getBytes(StandardCharsets.UTF_8);
            }
            return new Row(cells);
        }

        int width() {
            return cells.length;
        }

        /** The cell's bytes as the side read them (a binary-protocol DOUBLE: its 8 IEEE bytes), null for NULL. */
        byte[] bytes(int i) {
            return cells[i];
        }

        /** The cell as UTF-8 text, null for NULL. */
        String text(int i) {
            return cells[i] == null ? null : new String(cells[i], StandardCharsets.UTF_8);
        }

        List<String> texts() {
            List<String> out = new ArrayList<>(cells.length);
            for (int i = 0; i < cells.length; i++) {
                out.add(text(i));
            }
            return out;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Row r && Arrays.deepEquals(cells, r.cells);
        }

        @Override
        public int hashCode() {
            return Arrays.deepHashCode(cells);
        }

        /** {@code (1, 'apple', NULL)}: strings quoted so '' and NULL and '1' and 1 stay apart. */
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("(");
            for (int i = 0; i < cells.length; i++) {
                sb.append(i == 0 ? "" : ", ");
                String t = text(i);
                sb.append(t == null ? "NULL" : "'" + t + "'");
            }
            return sb.append(')').toString();
        }
    }

    static String describe(Outcome o) {
        return switch (Objects.requireNonNull(o)) {
            case Rows r -> r.rows().size() + " rows, labels " + r.labels() + ", types " + r.types();
            case Update u -> "OK, " + u.affectedRows() + " affected, last insert id " + u.lastInsertId();
            case Failure f -> "ERROR " + f.errno() + " (" + f.sqlState() + "): " + f.message();
            case Crash c -> "CRASH " + c.cause();
        };
    }
}
