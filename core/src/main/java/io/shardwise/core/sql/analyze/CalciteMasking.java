package io.shardwise.core.sql.analyze;

import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The explicit rules that let Calcite's core parser read MySQL statements: each rule names a MySQL
 * construct and what Calcite sees instead. The replacement keeps the structure the analyzer reads
 * (tables, conditions, select items) and drops what only the backend needs (hints, locking,
 * modifiers), which stays in the text sent to backends.
 */
final class CalciteMasking {
    /** What masking found out on the way. */
    /**
     * @param deleteTarget the span of the name after DELETE in {@code DELETE x FROM t ...} (masked for
     *     Calcite), or null
     */
    record Result(MaskedText text, Set<Integer> nullSafeEqualities, int lockingTailStart, int dmlOrderLimitStart,
                  int onDuplicateStart, int[] deleteTarget) {}

    private static final Set<String> SELECT_MODIFIERS = Set.of("sql_calc_found_rows", "sql_no_cache", "sql_cache",
            "high_priority", "straight_join", "sql_small_result", "sql_big_result", "sql_buffer_result");
    private static final Set<String> DML_MODIFIERS = Set.of("ignore", "low_priority", "delayed", "high_priority", "quick");
    private static final Set<String> INTERVAL_UNITS = Set.of("microsecond", "second", "minute", "hour", "day", "week",
            "month", "quarter", "year", "second_microsecond", "minute_microsecond", "minute_second", "hour_microsecond",
            "hour_second", "hour_minute", "day_microsecond", "day_second", "day_minute", "day_hour", "year_month");

    /**
     * Words Calcite's parser reserves and MySQL does not, so MySQL statements use them as names (TPC-H's
     * Q11 aliases a sum {@code value}); Calcite reads them quoted. Not before "(": there they are calls.
     */
    private static final Set<String> CALCITE_ONLY_RESERVED = Set.of("value", "prev");

    /**
     * Set while a statement of a session in sql_mode PIPES_AS_CONCAT is analyzed ({@link Analyzer}):
     * {@code ||} then stays Calcite's concatenation instead of becoming OR. A thread-local because every
     * parse of one analysis (row choices, copies) must read alike; analysis runs on one thread.
     */
    static final ThreadLocal<Boolean> PIPES_AS_CONCAT = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private CalciteMasking() {}

    private static boolean isOperand(Token t) {
        return t != null && (t.kind() == Kind.WORD || t.kind() == Kind.QUOTED_ID || t.kind() == Kind.PARAM || t.kind() == Kind.OPEN
                || t.kind() == Kind.NUMBER);
    }

    static Result mask(String sql, List<Token> tokens) {
        MaskedText m = new MaskedText(sql);
        Set<Integer> nullSafe = new HashSet<>();
        int lockingTail = -1;
        int dmlOrderLimit = -1;
        int onDuplicate = -1;
        int[] deleteTarget = null;
        String verb = tokens.isEmpty() ? "" : tokens.get(0).lower();
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            Token prev = i > 0 ? tokens.get(i - 1) : null;
            Token next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
            if (i == 1 && verb.equals("delete") && isSingleTableAliasDelete(tokens)) {
                // DELETE a FROM t a WHERE ...: MySQL's multi-table form naming one table (Hibernate
                // writes it); Calcite reads it as DELETE FROM t a WHERE ...
                m.remove(t.start(), t.end());
                deleteTarget = new int[] {t.start(), t.end()};
                continue;
            }
            switch (t.kind()) {
                case VARIABLE -> m.replace(t.start(), t.end(), "v".repeat(Math.max(1, t.end() - t.start())));
                case COMMENT -> m.remove(t.start(), t.end());
                case OPERATOR -> {
                    switch (t.text()) {
                        case "<=>" -> {
                            m.replace(t.start(), t.end(), "=");
                            nullSafe.add(t.start());
                        }
                        case "||" -> {
                            if (!PIPES_AS_CONCAT.get()) {
                                m.replace(t.start(), t.end(), "or");
                            }
                        }
                        case "&&" -> m.replace(t.start(), t.end(), "and");
                        case "!" -> m.replace(t.start(), t.end(), "not ");
                        case ":=" -> {
                            if (prev != null && prev.kind() == Kind.VARIABLE) {
                                // @x := expr (a user variable assigned inside a statement), unknown to Calcite:
                                // read as an operator over the same operands, so the item's span stays whole;
                                // the statement runs on one connection from the user's text (AssigningRunner)
                                m.replace(t.start(), t.end(), "+");
                            }
                        }
                        default -> { }
                    }
                }
                case WORD -> {
                    String w = t.lower();
                    if (CALCITE_ONLY_RESERVED.contains(w) && !(next != null && next.kind() == Kind.OPEN)) {
                        m.replace(t.start(), t.end(), "`" + t.text() + "`");
                    } else if (i == 0 && w.equals("replace")) {
                        m.replace(t.start(), t.end(), "insert");
                    } else if ((w.equals("regexp") || w.equals("rlike")) && prev != null) {
                        m.replace(t.start(), t.end(), "like");
                    } else if (w.equals("div") && prev != null && next != null) {
                        m.replace(t.start(), t.end(), "/");
                    } else if (w.equals("mod") && next != null && next.kind() != Kind.OPEN) {
                        m.replace(t.start(), t.end(), "%");
                    } else if (w.equals("xor")) {
                        m.replace(t.start(), t.end(), "<>");
                    } else if (w.equals("distinctrow")) {
                        m.replace(t.start(), t.end(), "distinct");
                    } else if (SELECT_MODIFIERS.contains(w) && prev != null && (prev.is("select") || prev.is("distinct")
                            || prev.is("all") || SELECT_MODIFIERS.contains(prev.lower()))) {
                        m.remove(t.start(), t.end());
                    } else if (w.equals("straight_join")) {
                        m.replace(t.start(), t.end(), "join");
                    } else if (DML_MODIFIERS.contains(w) && prev != null && t.depth() == 0
                            && (prev.is("insert") || prev.is("update") || prev.is("delete") || i == 1 && prev.is("replace")
                            || DML_MODIFIERS.contains(prev.lower()))) {
                        m.remove(t.start(), t.end());
                    } else if ((w.equals("use") || w.equals("force") || w.equals("ignore")) && next != null
                            && (next.is("index") || next.is("key")) && i > 0) {
                        int close = closingParen(tokens, i);
                        if (close > 0) {
                            m.remove(t.start(), tokens.get(close).end());
                            i = close;
                        }
                    } else if ((w.equals("signed") || w.equals("unsigned")) && prev != null && prev.is("as")) {
                        int end = next != null && (next.is("integer") || next.is("int")) ? next.end() : t.end();
                        m.replace(t.start(), end, "bigint");
                    } else if (w.equals("datetime") && prev != null && prev.is("as")) {
                        m.replace(t.start(), t.end(), "timestamp");
                    } else if (w.equals("binary") && prev != null && prev.is("as")) {
                        m.replace(t.start(), t.end(), "varbinary");
                    } else if (w.equals("binary") && isOperand(next) && !(prev != null && (prev.is("set") || prev.is("collate")
                            || prev.is("charset") || prev.is("using")))) {
                        // MySQL's BINARY operator (a cast to a binary string), unknown to Calcite: read as a
                        // unary operator over its operand; the shards compute it from the user's own text
                        m.replace(t.start(), t.end(), "+");
                    } else if (w.equals("interval") && next != null && i + 2 < tokens.size()
                            && INTERVAL_UNITS.contains(tokens.get(i + 2).lower())) {
                        m.replace(t.start(), tokens.get(i + 2).end(), "v".repeat(tokens.get(i + 2).end() - t.start()));
                        i += 2;
                    } else if (w.equals("with") && next != null && next.is("rollup") && t.depth() == 0) {
                        // GROUP BY ... WITH ROLLUP, unknown to Calcite: the grouping is what the analyzer reads
                        m.remove(t.start(), next.end());
                        i++;
                    } else if (w.equals("separator") && next != null) {
                        m.remove(t.start(), next.end());
                        i++;
                    } else if (w.equals("collate") && next != null) {
                        m.remove(t.start(), next.end());
                        i++;
                    } else if (t.depth() == 0 && lockingTail < 0 && isLockingTail(tokens, i)) {
                        lockingTail = t.start();
                        m.remove(t.start(), sql.length());
                        return new Result(m, nullSafe, lockingTail, dmlOrderLimit, onDuplicate, deleteTarget);
                    } else if (t.depth() == 0 && (verb.equals("update") || verb.equals("delete"))
                            && (w.equals("limit") || w.equals("order") && next != null && next.is("by"))) {
                        dmlOrderLimit = t.start();
                        m.remove(t.start(), sql.length());
                        return new Result(m, nullSafe, lockingTail, dmlOrderLimit, onDuplicate, deleteTarget);
                    } else if (t.depth() == 0 && w.equals("on") && next != null && next.is("duplicate")
                            && (verb.equals("insert") || verb.equals("replace"))) {
                        onDuplicate = t.start();
                        m.remove(t.start(), sql.length());
                        return new Result(m, nullSafe, lockingTail, dmlOrderLimit, onDuplicate, deleteTarget);
                    } else if (w.equals("as") && next != null && next.kind() == Kind.WORD) {
                        m.replace(next.start(), next.end(), "`" + next.text() + "`");
                        i++;
                    } else if (w.equals("as") && next != null && next.kind() == Kind.PARAM) {
                        // a string alias (AS 'label') was normalized to ?; Calcite wants a name
                        m.replace(next.start(), next.end(), "p" + next.start());
                        i++;
                    }
                }
                default -> { }
            }
        }
        return new Result(m, nullSafe, lockingTail, dmlOrderLimit, onDuplicate, deleteTarget);
    }

    /** DELETE x FROM t [AS] x ... with nothing else in FROM: x is t's alias (or t itself). */
    private static boolean isSingleTableAliasDelete(List<Token> tokens) {
        if (tokens.size() < 4 || tokens.get(1).kind() != Kind.WORD && tokens.get(1).kind() != Kind.QUOTED_ID
                || !tokens.get(2).is("from")) {
            return false;
        }
        String target = DigestScanner.identifier(tokens.get(1));
        int i = 3;
        String table = DigestScanner.identifier(tokens.get(i));
        i++;
        if (i + 1 < tokens.size() && tokens.get(i).text().equals(".")) {
            table = DigestScanner.identifier(tokens.get(i + 1));
            i += 2;
        }
        if (i < tokens.size() && tokens.get(i).is("as")) {
            i++;
        }
        String alias = i < tokens.size() && (tokens.get(i).kind() == Kind.WORD || tokens.get(i).kind() == Kind.QUOTED_ID)
                && !tokens.get(i).is("where") ? DigestScanner.identifier(tokens.get(i)) : null;
        int after = alias == null ? i : i + 1;
        boolean single = after >= tokens.size() || tokens.get(after).is("where") || tokens.get(after).kind() == Kind.SEMICOLON;
        return single && (target.equalsIgnoreCase(table) || alias != null && target.equalsIgnoreCase(alias));
    }

    private static boolean isLockingTail(List<Token> tokens, int i) {
        Token t = tokens.get(i);
        Token next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
        if (next == null) {
            return false;
        }
        return t.is("for") && (next.is("update") || next.is("share"))
                || t.is("lock") && next.is("in");
    }

    private static int closingParen(List<Token> tokens, int from) {
        for (int j = from; j < tokens.size(); j++) {
            if (tokens.get(j).kind() == Kind.OPEN) {
                int depth = tokens.get(j).depth();
                for (int k = j + 1; k < tokens.size(); k++) {
                    if (tokens.get(k).kind() == Kind.CLOSE && tokens.get(k).depth() == depth) {
                        return k;
                    }
                }
                return -1;
            }
        }
        return -1;
    }
}
