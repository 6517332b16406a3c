package io.shardwise.it.oracle;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What one side of the oracle made of one statement, reduced to what MySQL's text protocol shows a
 * client: result labels, protocol type codes and cell bytes; an update's counts; or an error's
 * errno. Values are copied out of cursors and result sets, so an outcome outlives them.
 */
sealed interface Outcome {

    /** A result set; {@code rows} in the order the side returned them. */
    record Rows(List<String> labels, List<Integer> types, List<Row> rows) implements Outcome {
        public Rows {
            labels = List.copyOf(labels);
            types = List.copyOf(types);
            rows = List.copyOf(rows);
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
