package io.shardwise.core.sql.analyze;

import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A sharding key given as an expression in {@code INSERT ... VALUES} ({@code VALUES (1 + 1, ...)}, {@code (CONCAT('a', ?), ...)}):
 * the router needs its value before the row goes anywhere, so the session evaluates it once with a {@code SELECT} on a
 * backend (as MySQL evaluates each row's expressions once) and inserts the row with that value. Only an expression
 * whose value does not depend on where or when it is evaluated qualifies; {@link #refusal} names the others.
 */
public final class ComputedKeys {
    /** Functions whose value is the evaluating connection's (or changes it), the target row's, or a table's. */
    private static final Set<String> CONNECTION = Set.of("connection_id", "database", "schema", "user", "current_user", "session_user",
            "system_user", "current_role", "found_rows", "row_count", "values", "value", "default", "nextval", "lastval", "setval",
            "get_lock", "release_lock", "release_all_locks", "is_free_lock", "is_used_lock", "sleep", "benchmark", "load_file",
            "master_pos_wait", "master_gtid_wait", "last_value", "sys_guid", "set");
    /** Time functions: MySQL's value is the statement's start, shared by the row's other columns, evaluated on the target. */
    private static final Set<String> TIME = Set.of("now", "current_timestamp", "sysdate", "curdate", "current_date", "curtime", "current_time",
            "localtime", "localtimestamp", "unix_timestamp", "utc_timestamp", "utc_date", "utc_time");

    private ComputedKeys() {}

    /**
     * {@code INSERT ... SET a = x, b = y [ON DUPLICATE KEY UPDATE ...]} as its VALUES form, {@code INSERT ... (a, b) VALUES (x, y)
     * [ON DUPLICATE KEY UPDATE ...]}, which MySQL reads the same way (the values in the same order, so its {@code ?} too); null
     * when the text is not that shape.
     */
    public static String setAsValues(String insert) {
        List<Token> tokens = DigestScanner.scan(insert);
        int set = -1;
        for (int i = 0; i < tokens.size() && set < 0; i++) {
            set = tokens.get(i).depth() == 0 && tokens.get(i).is("set") ? i : -1;
        }
        if (set < 0) {
            return null;
        }
        StringBuilder columns = new StringBuilder();
        StringBuilder values = new StringBuilder();
        int end = insert.length();
        int i = set + 1;
        while (i < tokens.size()) {
            int name = i;
            while (i < tokens.size() && !(tokens.get(i).depth() == 0 && (tokens.get(i).text().equals("=") || tokens.get(i).text().equals(":=")))) {
                i++;
            }
            if (i >= tokens.size() || i == name) {
                return null;
            }
            columns.append(columns.isEmpty() ? "" : ", ").append(insert, tokens.get(name).start(), tokens.get(i - 1).end());
            int first = ++i;
            while (i < tokens.size() && !(tokens.get(i).depth() == 0 && (tokens.get(i).kind() == Kind.COMMA || tokens.get(i).is("on")
                    || tokens.get(i).is("returning") || tokens.get(i).kind() == Kind.SEMICOLON))) {
                i++;
            }
            if (i == first) {
                return null;
            }
            values.append(values.isEmpty() ? "" : ", ").append(insert, tokens.get(first).start(), tokens.get(i - 1).end());
            if (i < tokens.size() && tokens.get(i).kind() != Kind.COMMA) {
                end = tokens.get(i).start();
                break;
            }
            i++;
        }
        return insert.substring(0, tokens.get(set).start()) + "(" + columns + ") VALUES (" + values + ")"
                + (end < insert.length() ? " " + insert.substring(end) : "");
    }

    /** The spans (relative to {@code row}, the text of {@code (a, b, ...)}) of the row's values. */
    public static List<int[]> values(String row) {
        List<Token> tokens = DigestScanner.scan(row);
        List<int[]> out = new ArrayList<>();
        if (tokens.isEmpty() || tokens.get(0).kind() != Kind.OPEN) {
            return out;
        }
        int start = -1;
        int end = -1;
        for (int i = 1; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.depth() == 0 && t.kind() == Kind.CLOSE || t.depth() == 1 && t.kind() == Kind.COMMA) {
                out.add(new int[] {start, end});
                start = -1;
                if (t.kind() == Kind.CLOSE) {
                    break;
                }
                continue;
            }
            start = start < 0 ? t.start() : start;
            end = t.end();
        }
        return out;
    }

    /**
     * Why {@code expression} cannot be evaluated apart from its row, or null when it can: it names a column or
     * a variable, reads a table, or calls a function whose value depends on the connection, the row or the moment.
     * {@code LAST_INSERT_ID()} without argument is the session's value ({@link #withLastInsertId}).
     */
    public static String refusal(String expression) {
        List<Token> tokens = DigestScanner.scan(expression);
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            boolean call = t.kind() == Kind.WORD && i + 1 < tokens.size() && tokens.get(i + 1).kind() == Kind.OPEN;
            if (t.kind() == Kind.VARIABLE) {
                return "a variable (" + t.text() + ")";
            }
            if (t.kind() == Kind.QUOTED_ID) {
                return "a column (" + t.text() + ")";
            }
            if (t.kind() != Kind.WORD) {
                continue;
            }
            String word = t.lower();
            if (word.equals("select")) {
                return "a subquery";
            }
            if (TIME.contains(word)) {
                return word.toUpperCase(java.util.Locale.ROOT) + " (MySQL's value is the statement's moment, shared by the row's other columns)";
            }
            if (CONNECTION.contains(word) || word.equals("next") || word.equals("previous")) {
                return word.toUpperCase(java.util.Locale.ROOT) + " (its value depends on the connection or the row)";
            }
            if (word.equals("last_insert_id") && call && !(i + 2 < tokens.size() && tokens.get(i + 2).kind() == Kind.CLOSE)) {
                return "LAST_INSERT_ID(expr) (it sets the session's value)";
            }
            if (!call && !InsertSelectUpdate.isKeyword(word)) {
                return "a column (" + t.text() + ")";
            }
        }
        return null;
    }

    /** {@code expression} with each {@code LAST_INSERT_ID()} replaced by {@code id}: MySQL reads the value of the statement before. */
    public static String withLastInsertId(String expression, long id) {
        List<Token> tokens = DigestScanner.scan(expression);
        StringBuilder sb = new StringBuilder();
        int from = 0;
        for (int i = 0; i + 2 < tokens.size(); i++) {
            if (tokens.get(i).is("last_insert_id") && tokens.get(i + 1).kind() == Kind.OPEN && tokens.get(i + 2).kind() == Kind.CLOSE) {
                sb.append(expression, from, tokens.get(i).start()).append(Long.toUnsignedString(id));
                from = tokens.get(i + 2).end();
            }
        }
        return sb.append(expression.substring(from)).toString();
    }

    /** The offsets of the client's {@code ?} in {@code text}, in order. */
    public static List<Integer> params(String text) {
        List<Integer> out = new ArrayList<>();
        for (Token t : DigestScanner.scan(text)) {
            if (t.kind() == Kind.PARAM) {
                out.add(t.start());
            }
        }
        return out;
    }
}
