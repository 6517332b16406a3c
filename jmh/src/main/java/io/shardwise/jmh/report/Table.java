package io.shardwise.jmh.report;

import java.util.ArrayList;
import java.util.List;

/**
 * One results table of a report: what every benchmark writer (JMH here, the sysbench and mysqlslap
 * scripts later) hands to {@link Report}. Cells are already formatted text.
 *
 * @param title a heading for the table
 * @param note what the numbers are and how to read them (markdown), or ""
 */
public record Table(String title, String note, List<String> headers, List<List<String>> rows) {
    public Table {
        headers = List.copyOf(headers);
        List<List<String>> copied = new ArrayList<>();
        for (List<String> row : rows) {
            if (row.size() != headers.size()) {
                throw new IllegalArgumentException(title + ": row " + row + " has " + row.size() + " cells for " + headers.size() + " columns");
            }
            copied.add(List.copyOf(row));
        }
        rows = List.copyOf(copied);
    }

    public String markdown() {
        StringBuilder out = new StringBuilder("### ").append(title).append("\n\n");
        if (!note.isEmpty()) {
            out.append(note).append("\n\n");
        }
        line(out, headers);
        out.append('|');
        for (int i = 0; i < headers.size(); i++) {
            out.append(numeric(i) ? "---:|" : "---|");
        }
        out.append('\n');
        for (List<String> row : rows) {
            line(out, row);
        }
        return out.append('\n').toString();
    }

    /** Numbers align right: a column whose every cell starts with a digit (and that has cells). */
    private boolean numeric(int column) {
        if (rows.isEmpty()) {
            return false;
        }
        for (List<String> row : rows) {
            String cell = row.get(column);
            if (cell.isEmpty() || !Character.isDigit(cell.charAt(0))) {
                return false;
            }
        }
        return true;
    }

    private static void line(StringBuilder out, List<String> cells) {
        out.append('|');
        for (String cell : cells) {
            out.append(' ').append(cell.replace("|", "\\|")).append(" |");
        }
        out.append('\n');
    }
}
