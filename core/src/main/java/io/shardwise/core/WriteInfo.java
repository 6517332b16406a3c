package io.shardwise.core;

import io.shardwise.core.execute.UnitResult;
import java.util.List;

/**
 * The OK packet's info string of a write that ran as several units, as one MySQL server would have
 * written it. MySQL's strings are {@code Label: N} parts two spaces apart ({@code Rows matched: 3
 * Changed: 2  Warnings: 0} of an UPDATE, {@code Records: 4  Duplicates: 1  Warnings: 0} of a multi-row
 * INSERT); every shard ran the same statement over its part of the rows, so the whole's numbers are
 * the sums of the parts'.
 */
final class WriteInfo {
    private static final String SEPARATOR = "  ";

    private WriteInfo() {}

    /**
     * {@code copies}: every unit wrote the same rows (a broadcast table's copies), so one copy's info is
     * the statement's. "" when the units sent none, or strings of different shapes (never a made-up sum).
     */
    static String merge(List<UnitResult> results, boolean copies) {
        String first = ((UnitResult.Update) results.get(0)).info();
        if (copies || results.size() == 1 || first.isEmpty()) {
            return first;
        }
        String[] labels = labels(first);
        if (labels == null) {
            return "";
        }
        long[] sums = new long[labels.length];
        for (UnitResult r : results) {
            if (!add(((UnitResult.Update) r).info(), labels, sums)) {
                return "";
            }
        }
        return format(labels, sums);
    }

    /** An INSERT ... VALUES's row count, and whether it is INSERT IGNORE. */
    record Rows(int count, boolean ignore) {}

    /**
     * {@code Records: N  Duplicates: D  Warnings: W} of a multi-row INSERT whose rows went to several
     * shards. A shard given one row sends no info (MySQL writes it only for a multi-row VALUES), so its
     * duplicates come from its affected rows: none for 1 (a new row), the deleted rows for a REPLACE
     * or the updated row of ON DUPLICATE KEY UPDATE beyond 1, the skipped row for IGNORE at 0.
     */
    static String inserted(List<UnitResult> results, Rows rows, int warnings) {
        long duplicates = 0;
        for (UnitResult r : results) {
            UnitResult.Update u = (UnitResult.Update) r;
            long d = u.info().isEmpty() ? -1 : value(u.info(), "Duplicates");
            if (d < 0) {
                d = u.affectedRows() == 0 ? (rows.ignore() ? 1 : 0) : u.affectedRows() - 1;
            }
            duplicates += d;
        }
        return format(new String[] {"Records", "Duplicates", "Warnings"}, new long[] {rows.count(), duplicates, warnings});
    }

    /** Whether an INSERT or REPLACE is written with IGNORE among its modifiers (before INTO or the table). */
    static boolean ignores(io.shardwise.core.sql.normalize.NormalizedSql normalized) {
        String sql = normalized.sql();
        for (int t = 1; t < Math.min(normalized.tokenCount(), 5); t++) {
            String word = sql.substring(normalized.tokenStart(t), normalized.tokenEnd(t));
            if (word.equalsIgnoreCase("ignore")) {
                return true;
            }
            if (!word.equalsIgnoreCase("low_priority") && !word.equalsIgnoreCase("delayed") && !word.equalsIgnoreCase("high_priority")) {
                return false;
            }
        }
        return false;
    }

    /** {@code labels} with {@code values}, in MySQL's layout. */
    static String format(String[] labels, long[] values) {
        StringBuilder sb = new StringBuilder(48);
        for (int i = 0; i < labels.length; i++) {
            sb.append(i == 0 ? "" : SEPARATOR).append(labels[i]).append(": ").append(values[i]);
        }
        return sb.toString();
    }

    /** The labels of a well-formed info string, or null. */
    static String[] labels(String info) {
        String[] parts = info.split(SEPARATOR);
        String[] labels = new String[parts.length];
        for (int i = 0; i < parts.length; i++) {
            int colon = parts[i].indexOf(": ");
            if (colon <= 0) {
                return null;
            }
            labels[i] = parts[i].substring(0, colon);
        }
        return labels;
    }

    /** Adds {@code info}'s numbers to {@code sums}; false when its labels are not {@code labels}. */
    static boolean add(String info, String[] labels, long[] sums) {
        String[] parts = info.split(SEPARATOR);
        if (parts.length != labels.length) {
            return false;
        }
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            if (!p.startsWith(labels[i]) || !p.startsWith(": ", labels[i].length())) {
                return false;
            }
            try {
                sums[i] += Long.parseLong(p.substring(labels[i].length() + 2));
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return true;
    }

    /** The number after {@code label} in {@code info}, or -1 when it has none. */
    static long value(String info, String label) {
        String[] labels = labels(info);
        if (labels == null) {
            return -1;
        }
        long[] values = new long[labels.length];
        if (!add(info, labels, values)) {
            return -1;
        }
        for (int i = 0; i < labels.length; i++) {
            if (labels[i].equals(label)) {
                return values[i];
            }
        }
        return -1;
    }
}
