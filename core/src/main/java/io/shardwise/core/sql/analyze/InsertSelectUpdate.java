package io.shardwise.core.sql.analyze;

import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The ON DUPLICATE KEY UPDATE of an INSERT ... SELECT, as the session rewrites it after each
 * {@code INSERT ... VALUES} of the SELECT's rows. MySQL resolves a name on an assignment's right side
 * among the target's columns and (when the SELECT neither groups nor aggregates) the SELECT's tables;
 * a name of the SELECT's tables denotes the current source row's value, which a VALUES row no longer
 * has: the session selects it too and binds it in its place, one statement per row.
 */
public final class InsertSelectUpdate {
    /**
     * A part of the clause (of its text, from {@code start} to {@code end}) that may need a value per
     * statement: a client's {@code ?} ({@code column} null), or a name on an assignment's right side
     * outside {@code VALUES(...)} and function names ({@code qualifier} null when unqualified).
     */
    public record Piece(int start, int end, String qualifier, String column) {
        public boolean isParam() {
            return column == null;
        }
    }

    /** Words that stand where a column could and are none (so a derived table's columns are not guessed). */
    private static final Set<String> KEYWORDS = Set.of("null", "true", "false", "and", "or", "not", "xor", "is", "div", "mod", "like",
            "rlike", "regexp", "in", "between", "case", "when", "then", "else", "end", "interval", "binary", "collate", "escape",
            "unknown", "as", "using", "default", "current_timestamp", "current_date", "current_time", "current_user", "localtime",
            "localtimestamp", "utc_timestamp", "utc_date", "utc_time", "char", "signed", "unsigned", "integer", "decimal", "date",
            "datetime", "time", "double", "float", "json", "nchar", "year", "month", "day", "hour", "minute", "second", "microsecond",
            "week", "quarter", "distinct", "separator", "order", "by", "asc", "desc", "sounds", "member", "of");

    private InsertSelectUpdate() {}

    /** The pieces of {@code clause} (the text from {@code ON DUPLICATE KEY UPDATE} on), in text order. */
    public static List<Piece> pieces(String clause) {
        List<Token> tokens = DigestScanner.scan(clause);
        List<Piece> out = new ArrayList<>();
        int i = 0;
        while (i < tokens.size() && !tokens.get(i).is("update")) {
            i++;
        }
        boolean right = false; // on an assignment's right side, after its '='
        for (i++; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind() == Kind.PARAM) {
                out.add(new Piece(t.start(), t.end(), null, null));
                continue;
            }
            if (t.depth() == 0 && t.kind() == Kind.COMMA) {
                right = false;
                continue;
            }
            if (!right) {
                right = t.depth() == 0 && t.text().equals("=");
                continue;
            }
            if ((t.is("values") || t.is("value")) && i + 1 < tokens.size() && tokens.get(i + 1).kind() == Kind.OPEN) {
                // VALUES(col): the value the row would have inserted, which the VALUES batch has too
                int depth = tokens.get(i + 1).depth();
                for (i += 2; i < tokens.size() && !(tokens.get(i).kind() == Kind.CLOSE && tokens.get(i).depth() == depth); i++) {
                    if (tokens.get(i).kind() == Kind.PARAM) {
                        out.add(new Piece(tokens.get(i).start(), tokens.get(i).end(), null, null));
                    }
                }
                continue;
            }
            if (!isName(t) || i > 0 && tokens.get(i - 1).text().equals(".")
                    || t.kind() == Kind.WORD && i + 1 < tokens.size() && tokens.get(i + 1).kind() == Kind.OPEN) {
                continue; // not a name, a later part of one, or a function
            }
            if (i + 2 < tokens.size() && tokens.get(i + 1).text().equals(".") && isName(tokens.get(i + 2))) {
                if (i + 3 < tokens.size() && tokens.get(i + 3).text().equals(".")) {
                    i += 4; // schema.table.column: as written
                    continue;
                }
                out.add(new Piece(t.start(), tokens.get(i + 2).end(), DigestScanner.identifier(t), DigestScanner.identifier(tokens.get(i + 2))));
                i += 2;
                continue;
            }
            if (t.kind() == Kind.QUOTED_ID || !KEYWORDS.contains(t.lower())) {
                out.add(new Piece(t.start(), t.end(), null, DigestScanner.identifier(t)));
            }
        }
        return out;
    }

    /**
     * {@code select} with {@code items} appended to its select list (before its top-level FROM), or
     * null when it has none there (a parenthesized SELECT, or one without FROM).
     */
    public static String withItems(String select, List<String> items) {
        for (Token t : DigestScanner.scan(select)) {
            if (t.depth() == 0 && t.is("from")) {
                String before = select.substring(0, t.start()).stripTrailing();
                return before + ", " + String.join(", ", items) + " " + select.substring(t.start());
            }
        }
        return null;
    }

    /** A derived table of a SELECT's top-level FROM: its alias and its text, from its {@code (} through its alias (and column list). */
    public record Derived(String alias, int start, int end) {}

    /** Words that end a top-level FROM. */
    private static final Set<String> AFTER_FROM = Set.of("where", "group", "having", "order", "limit", "window", "union", "except",
            "intersect", "for", "lock", "into", "procedure", "offset", "fetch");

    /**
     * A SELECT beginning with {@code WITH}: the names of its common table expressions and where its own query (the one
     * whose rows the INSERT writes) begins; null for any other SELECT.
     */
    public record With(List<String> names, int bodyStart) {}

    /** {@link With} of {@code select}, or null when it does not begin with WITH (or its WITH cannot be read). */
    public static With with(String select) {
        List<Token> tokens = DigestScanner.scan(select);
        int i = 0;
        while (i < tokens.size() && tokens.get(i).kind() == Kind.COMMENT) {
            i++;
        }
        if (i >= tokens.size() || !tokens.get(i).is("with")) {
            return null;
        }
        i++;
        if (i < tokens.size() && tokens.get(i).is("recursive")) {
            i++;
        }
        List<String> names = new ArrayList<>();
        while (i < tokens.size()) {
            if (!isName(tokens.get(i))) {
                return null;
            }
            names.add(DigestScanner.identifier(tokens.get(i)).toLowerCase(java.util.Locale.ROOT));
            i++;
            if (i < tokens.size() && tokens.get(i).kind() == Kind.OPEN) { // its column list
                i = closing(tokens, i);
                if (i < 0) {
                    return null;
                }
                i++;
            }
            if (i >= tokens.size() || !tokens.get(i).is("as") || i + 1 >= tokens.size() || tokens.get(i + 1).kind() != Kind.OPEN) {
                return null;
            }
            i = closing(tokens, i + 1);
            if (i < 0 || i + 1 >= tokens.size()) {
                return null;
            }
            i++;
            if (tokens.get(i).kind() == Kind.COMMA) {
                i++;
                continue;
            }
            return tokens.get(i).is("select") ? new With(names, tokens.get(i).start()) : null; // a parenthesized query: not read
        }
        return null;
    }

    /**
     * The derived tables of {@code select}'s top-level FROM, nested joins' included, in text order; null when its FROM holds a
     * parenthesis that is neither a derived table's query, a nested join nor a join condition's, where one could hide (a
     * table function: the SQL parser does not read JSON_TABLE, so no such SELECT comes here).
     */
    public static List<Derived> derivedTables(String select) {
        List<Token> tokens = DigestScanner.scan(select);
        List<Derived> out = new ArrayList<>();
        boolean from = false;
        boolean condition = false; // after ON or USING, until the next join
        int level = 0; // the depth of the FROM's tokens: nested joins' parentheses raise it
        List<Integer> nests = new ArrayList<>(); // the index of each open nested join's CLOSE
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (!nests.isEmpty() && i == nests.get(nests.size() - 1)) {
                nests.remove(nests.size() - 1);
                level--;
                condition = false;
                continue;
            }
            if (t.depth() != level || t.kind() == Kind.COMMENT) {
                continue;
            }
            if (!from) {
                from = t.is("from");
                continue;
            }
            if (level == 0 && (t.kind() == Kind.WORD && AFTER_FROM.contains(t.lower()) || t.kind() == Kind.SEMICOLON)) {
                break;
            }
            if (t.is("on") || t.is("using")) {
                condition = true;
            } else if (t.is("join") || t.kind() == Kind.COMMA) {
                condition = false;
            }
            if (t.kind() != Kind.OPEN) {
                continue;
            }
            int open = i;
            int close = closing(tokens, open);
            if (close < 0) {
                return null;
            }
            if (condition) {
                i = close;
                continue;
            }
            if (open + 1 < tokens.size() && (isName(tokens.get(open + 1)) && !tokens.get(open + 1).is("select")
                    && !tokens.get(open + 1).is("with") && !tokens.get(open + 1).is("values") && !tokens.get(open + 1).is("table")
                    || tokens.get(open + 1).kind() == Kind.OPEN && startsNestedJoin(tokens, open + 1))) {
                nests.add(close); // a nested join: its tables, derived tables and conditions are the FROM's
                level++;
                continue;
            }
            if ((open + 1 >= tokens.size() || !(tokens.get(open + 1).is("select") || tokens.get(open + 1).is("with")))) {
                return null;
            }
            int k = close + 1;
            if (k < tokens.size() && tokens.get(k).is("as")) {
                k++;
            }
            if (k >= tokens.size() || !isName(tokens.get(k)) || tokens.get(k).kind() == Kind.WORD && AFTER_FROM.contains(tokens.get(k).lower())) {
                return null;
            }
            String alias = DigestScanner.identifier(tokens.get(k));
            int end = tokens.get(k).end();
            if (k + 1 < tokens.size() && tokens.get(k + 1).kind() == Kind.OPEN) {
                k = closing(tokens, k + 1);
                if (k < 0) {
                    return null;
                }
                end = tokens.get(k).end();
            }
            out.add(new Derived(alias, t.start(), end));
            i = k;
        }
        return out;
    }

    /** Whether the parenthesis at {@code open} (itself inside one) begins a nested join rather than a query. */
    private static boolean startsNestedJoin(List<Token> tokens, int open) {
        int close = closing(tokens, open);
        if (close < 0 || close + 1 >= tokens.size()) {
            return false;
        }
        // "((SELECT ...) d JOIN ...)": a derived table, then more of the join; "((SELECT ...))": a query in parentheses
        return tokens.get(close + 1).kind() != Kind.CLOSE;
    }

    /** The index of the CLOSE matching the OPEN at {@code open}, or -1. */
    private static int closing(List<Token> tokens, int open) {
        int depth = tokens.get(open).depth();
        for (int i = open + 1; i < tokens.size(); i++) {
            if (tokens.get(i).kind() == Kind.CLOSE && tokens.get(i).depth() == depth) {
                return i;
            }
        }
        return -1;
    }

    /** How many client {@code ?} stand in {@code text} before {@code at}. */
    public static int paramsBefore(String text, int at) {
        int n = 0;
        for (Token t : DigestScanner.scan(text)) {
            n += t.kind() == Kind.PARAM && t.start() < at ? 1 : 0;
        }
        return n;
    }

    /** {@code select} without the parentheses that wrap all of it ({@code (SELECT ...)}, as MySQL accepts it after INSERT). */
    public static String unwrapped(String select) {
        String text = select.strip();
        while (text.startsWith("(") && text.endsWith(")")) {
            List<Token> tokens = DigestScanner.scan(text);
            Token first = tokens.get(0);
            Token last = tokens.get(tokens.size() - 1);
            for (Token t : tokens) {
                if (t != last && t.kind() == Kind.CLOSE && t.depth() == first.depth()) {
                    return text; // "(SELECT ...) UNION (SELECT ...)": the first parenthesis closes early
                }
            }
            text = text.substring(first.end(), last.start()).strip();
        }
        return text;
    }

    /** Whether {@code word} (lower case) is an SQL word that stands where a column could, and is none. */
    static boolean isKeyword(String word) {
        return KEYWORDS.contains(word);
    }

    private static boolean isName(Token t) {
        return t.kind() == Kind.WORD || t.kind() == Kind.QUOTED_ID;
    }
}
