package io.shardwise.core.session;

import static io.shardwise.core.sql.normalize.StatementTokens.unquote;
import static io.shardwise.core.sql.normalize.StatementTokens.word;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A session's user variables ({@code @x}), owned here rather than on any backend: a statement may
 * reach any shard, and each backend connection is shared between sessions. Values keep MySQL's
 * types (integer, decimal, double, string with its character set, NULL).
 *
 * <p>Reads are substituted before the statement is analyzed ({@link #substitute}): each {@code @x}
 * the statement reads becomes a literal of its type, so {@code WHERE user_id = @x} routes as a
 * literal key does, the plan cache still hits (the literal is one of the digest's values) and no
 * backend needs the variable. A top-level select item keeps its label ({@code 5 AS `@x`}). Left as
 * written: assignment targets ({@code SET @x =}, {@code INTO @x}), a SELECT of variables only, which
 * the session answers itself with MySQL's metadata ({@link #column}), and a statement assigning a
 * variable inside it ({@code @x :=}), which runs on one connection with the variables set there first
 * and read back after ({@link #named}).
 *
 * <p>Hazard: a substituted string reads in the connection's character set (utf8mb4) with a
 * coercible collation, as a literal does; a variable's own collation (implicit in MySQL) is not kept.
 * Not thread-safe: one per session.
 */
public final class UserVariables {
    /** What MySQL keeps for a variable. */
    public enum Type { INTEGER, DECIMAL, DOUBLE, STRING, NULL }

    /**
     * A variable's value.
     *
     * @param text the value as MySQL prints it; for a string its characters (bytes as ISO-8859-1 when binary)
     * @param binary a binary string (charset {@code binary}), rendered in hex
     */
    public record Value(Type type, String text, boolean binary) {
        public static final Value NULL = new Value(Type.NULL, null, false);

        /** A value from one column of a result row, typed as MySQL types an assignment from it. */
        public static Value of(Column column, byte[] bytes) {
            if (bytes == null) {
                // MariaDB keeps an expression's type for its NULL (SELECT @x after SET @x = NULL + 1 is a DOUBLE column)
                Value typed = of(column, new byte[] {'0'});
                return typed.type() == Type.STRING ? NULL : new Value(typed.type(), null, false);
            }
            return switch (column.mysqlType()) {
                case 1, 2, 3, 8, 9, 13 -> new Value(Type.INTEGER, ascii(bytes), false); // TINY SHORT LONG LONGLONG INT24 YEAR
                case 6 -> NULL; // MYSQL_TYPE_NULL: SET @x = NULL
                case 0, 246 -> new Value(Type.DECIMAL, ascii(bytes), false);
                case 4, 5 -> new Value(Type.DOUBLE, ascii(bytes), false);
                default -> column.hasBinaryCollation() && column.mysqlType() != 7 && column.mysqlType() != 10
                        && column.mysqlType() != 11 && column.mysqlType() != 12
                        ? new Value(Type.STRING, new String(bytes, StandardCharsets.ISO_8859_1), true)
                        : new Value(Type.STRING, new String(bytes, StandardCharsets.UTF_8), false);
            };
        }

        private static String ascii(byte[] bytes) {
            return new String(bytes, StandardCharsets.US_ASCII);
        }

        /** The bytes a result row carries (UTF-8 text, raw bytes when binary). */
        public byte[] bytes() {
            return text == null ? null : text.getBytes(binary ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
        }

        /**
         * An expression of this value's type, read in {@code mode}. A DECIMAL reads with scale 38, as
         * MariaDB reads a DECIMAL variable ({@code @m + 0} of 999.56 is 999.560...0, 38 places), where
         * the value fits DECIMAL(65,38); a literal's own scale otherwise.
         */
        String literal(LexicalMode mode) {
            return type == Type.DECIMAL && text != null && fitsScale38(text) ? "CAST(" + text + " AS DECIMAL(65,38))" : value(mode);
        }

        private static boolean fitsScale38(String decimal) {
            int dot = decimal.indexOf('.');
            int integerDigits = (dot < 0 ? decimal.length() : dot) - (decimal.startsWith("-") ? 1 : 0);
            return integerDigits <= 27 && (dot < 0 || decimal.length() - dot - 1 <= 38);
        }

        /** A literal of this value's type, as SET assigns it on a backend (a DECIMAL keeps its own scale there). */
        String value(LexicalMode mode) {
            if (text == null) {
                return "NULL";
            }
            return switch (type) {
                case NULL -> "NULL";
                case INTEGER, DECIMAL -> text;
                case DOUBLE -> text.indexOf('e') >= 0 || text.indexOf('E') >= 0 ? text : text + "e0";
                case STRING -> binary ? "X'" + HexFormat.of().formatHex(text.getBytes(StandardCharsets.ISO_8859_1)) + "'"
                        : quote(text, mode);
            };
        }

        private static String quote(String s, LexicalMode mode) {
            StringBuilder b = new StringBuilder(s.length() + 2).append('\'');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '\'') {
                    b.append("''");
                } else if (c == '\\' && !mode.noBackslashEscapes()) {
                    b.append("\\\\");
                } else {
                    b.append(c);
                }
            }
            return b.append('\'').toString();
        }
    }

    private final Map<String, Value> values = new HashMap<>();

    /** The value of {@code @name} (any case, without {@code @}); NULL when never set, as in MySQL. */
    public Value get(String name) {
        Value v = values.get(name.toLowerCase(Locale.ROOT));
        return v == null ? Value.NULL : v;
    }

    public void set(String name, Value value) {
        values.put(name.toLowerCase(Locale.ROOT), value);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** COM_RESET_CONNECTION: MySQL forgets the session's user variables. */
    public void clear() {
        values.clear();
    }

    /** A variable token's name: {@code @x}, {@code @`x`}, {@code @'x'} all name {@code x}. */
    public static String name(String token) {
        return unquote(token.substring(1));
    }

    /**
     * The column MariaDB describes {@code SELECT @x} with: BIGINT(20), DECIMAL(83,38) (MariaDB reports
     * the scale it can hold, whatever the value's), DOUBLE(23,31), and a LONGBLOB-typed text otherwise.
     */
    public static Column column(String label, Value value) {
        return switch (value.type()) {
            case INTEGER -> new Column("", "", "", label, "", Column.BINARY_COLLATION, 20, 8, Column.FLAG_BINARY, 0);
            case DECIMAL -> new Column("", "", "", label, "", Column.BINARY_COLLATION, 83, 246, Column.FLAG_BINARY, 38);
            case DOUBLE -> new Column("", "", "", label, "", Column.BINARY_COLLATION, 23, 5, Column.FLAG_BINARY, 31);
            case STRING -> value.binary()
                    ? new Column("", "", "", label, "", Column.BINARY_COLLATION, 16777215, 251, Column.FLAG_BINARY, 39)
                    : new Column("", "", "", label, "", 45, 67108860, 251, 0, 39);
            case NULL -> new Column("", "", "", label, "", Column.BINARY_COLLATION, 16777216, 251, Column.FLAG_BINARY, 39);
        };
    }

    /**
     * {@code sql} with every user variable it reads replaced by its value's literal, or {@code sql}
     * itself (the same instance) when it reads none, or when it assigns one inside it ({@code @x :=}):
     * that statement reads and assigns row by row on the one connection that runs it (the engine's
     * AssigningRunner sets the variables there first and reads them back after).
     */
    public String substitute(String sql, LexicalMode mode) {
        if (sql.indexOf('@') < 0) {
            return sql;
        }
        List<Token> t = StatementTokens.of(sql, mode);
        if (t.isEmpty() || !reads(sql, t)) {
            return sql;
        }
        String first = word(sql, t.get(0));
        if (first.equals("create") || first.equals("alter")) {
            return sql; // a routine's or trigger's body reads its variables when it runs, on its server
        }
        if (namesAccounts(sql, t, first)) {
            // 'u'@'h' and u@h name an account, not the variable @'h' (MySQL reads no user variable in these statements)
            return sql;
        }
        if (first.equals("load")) {
            return sql; // LOAD DATA's @variables are its rows' fields, assigned and read per row on the backends
        }
        if (first.equals("call")) {
            // an OUT or INOUT argument assigns the variable on the backend that runs the procedure: the session's values
            // are set on that connection first and read back after (CallRunner)
            return sql;
        }
        if (innerAssignment(sql, mode) != null) {
            // a variable it assigns is read and assigned row by row on the one connection that runs it
            // (see named); one it only reads is constant there, so read as a literal it routes
            java.util.Set<String> assigned = new java.util.HashSet<>();
            for (int i = 0; i + 1 < t.size(); i++) {
                if (t.get(i).kind() == TokenKind.USER_VARIABLE && t.get(i + 1).text(sql).equals(":=")) {
                    assigned.add(name(t.get(i).text(sql)).toLowerCase(Locale.ROOT));
                }
            }
            return replace(sql, t, mode, assigned);
        }
        if (first.equals("set") || isVariableSelect(sql, t)) {
            // SET reads its variables before it assigns any: SetStatement's caller substitutes each expression.
            // A SELECT of variables only the session answers itself (forSelect, when it cannot).
            return sql;
        }
        return replace(sql, t, mode, java.util.Set.of());
    }

    /**
     * GRANT, REVOKE, DROP / RENAME USER or ROLE, SHOW GRANTS and SHOW CREATE USER: statements whose {@code @} joins
     * an account's user and host ({@code 'app'@'%'}); CREATE / ALTER USER and SET PASSWORD / SET DEFAULT ROLE are
     * left alone with the other CREATE, ALTER and SET statements.
     */
    private static boolean namesAccounts(String sql, List<Token> t, String first) {
        String second = t.size() > 1 ? word(sql, t.get(1)) : "";
        return switch (first) {
            case "grant", "revoke" -> true;
            case "drop", "rename" -> second.equals("user") || second.equals("role");
            case "show" -> second.equals("grants") || second.equals("create") && t.size() > 2 && word(sql, t.get(2)).equals("user");
            default -> false;
        };
    }

    /**
     * A SELECT of variables the session could not answer (one names a system variable only a backend
     * knows) with its user variables read as literals, labels kept, for the backend that answers it.
     */
    public String forBackend(String sql, LexicalMode mode) {
        if (sql.indexOf('@') < 0) {
            return sql;
        }
        List<Token> t = StatementTokens.of(sql, mode);
        return t.isEmpty() ? sql : replace(sql, t, mode, java.util.Set.of());
    }

    /** {@code kept}: variables (lower case) left as written. */
    private String replace(String sql, List<Token> t, LexicalMode mode, java.util.Set<String> kept) {
        StringBuilder out = new StringBuilder(sql.length() + 32);
        int copied = 0;
        int depth = 0;
        boolean selectList = false;
        boolean into = false;
        int itemStart = -1; // the first token of the top-level select item being read, or -1
        boolean itemReads = false; // a variable read inside it, not the whole item: it must keep its label
        boolean itemAliased = false;
        for (int i = 0; i < t.size(); i++) {
            Token token = t.get(i);
            TokenKind kind = token.kind();
            if (kind != TokenKind.USER_VARIABLE && kind != TokenKind.COMMA) {
                into = false; // INTO's target list ends at the first token that is neither a variable nor a comma
            }
            boolean startsItem = false;
            switch (kind) {
                case LEFT_PAREN -> depth++;
                case RIGHT_PAREN -> depth--;
                case KEYWORD, IDENTIFIER -> {
                    String w = word(sql, token);
                    if (depth == 0 && w.equals("select")) {
                        selectList = true;
                        startsItem = true;
                    } else if (depth == 0 && isClause(w)) {
                        selectList = false;
                    } else if (depth == 0 && w.equals("as") && itemStart >= 0) {
                        itemAliased = true;
                    } else if (w.equals("distinct") && itemStart == i) {
                        startsItem = true;
                    }
                    into = w.equals("into");
                }
                case COMMA -> startsItem = depth == 0 && selectList;
                default -> { }
            }
            if (startsItem) {
                itemStart = i + 1;
                itemReads = false;
                itemAliased = false;
            }
            String next = i + 1 < t.size() ? t.get(i + 1).text(sql) : "";
            if (kind == TokenKind.USER_VARIABLE && !into && !next.equals(":=")
                    && (kept.isEmpty() || !kept.contains(name(token.text(sql)).toLowerCase(Locale.ROOT)))) {
                String previous = i > 0 ? word(sql, t.get(i - 1)) : "";
                Value value = get(name(token.text(sql)));
                boolean item = depth == 0 && selectList && (previous.equals("select") || previous.equals(",") || previous.equals("distinct"))
                        && (next.isEmpty() || next.equals(",") || isClause(next));
                // a lone item prints as SELECT @x does (a DECIMAL with its own scale); in an expression, as MariaDB reads it
                out.append(sql, copied, token.start()).append(item ? value.value(mode) : value.literal(mode));
                if (item) {
                    out.append(" AS `").append(token.text(sql).replace("`", "``")).append('`');
                } else {
                    itemReads |= selectList && itemStart >= 0;
                }
                copied = token.end();
            }
            boolean endsItem = selectList && depth == 0 && itemStart >= 0 && i >= itemStart
                    && (next.isEmpty() || next.equals(",") || next.equals(";") || isClause(next));
            if (endsItem) {
                if (itemReads && !itemAliased && !implicitAlias(t, itemStart, i)) {
                    // MySQL labels an expression item by its text as written, variables included
                    String label = sql.substring(t.get(itemStart).start(), token.end());
                    out.append(sql, copied, token.end()).append(" AS `").append(label.replace("`", "``")).append('`');
                    copied = token.end();
                }
                itemStart = -1;
            }
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    /** {@code expr alias}: an item of several tokens whose last is a name or string after an operand. */
    private static boolean implicitAlias(List<Token> t, int first, int last) {
        if (last == first) {
            return false;
        }
        TokenKind end = t.get(last).kind();
        TokenKind before = t.get(last - 1).kind();
        return (end == TokenKind.IDENTIFIER || end == TokenKind.QUOTED_IDENTIFIER || end == TokenKind.STRING)
                && before != TokenKind.OPERATOR && before != TokenKind.LEFT_PAREN && before != TokenKind.COMMA && before != TokenKind.DOT
                && before != TokenKind.KEYWORD;
    }

    /**
     * An expression (the value of a SET assignment) with every user variable replaced by its value's
     * literal, read at this point: SET evaluates its assignments in order.
     */
    public String expression(String expression, LexicalMode mode) {
        if (expression.indexOf('@') < 0) {
            return expression;
        }
        List<Token> t = StatementTokens.of(expression, mode);
        StringBuilder out = new StringBuilder(expression.length() + 16);
        int copied = 0;
        for (int i = 0; i < t.size(); i++) {
            Token token = t.get(i);
            if (token.kind() == TokenKind.USER_VARIABLE && !(i + 1 < t.size() && t.get(i + 1).text(expression).equals(":="))) {
                // as MariaDB's SET: a DECIMAL keeps its own scale (SET @e = @d + 1 of 1.50 is 2.50, where SELECT @d + 1 shows 38 places)
                out.append(expression, copied, token.start()).append(get(name(token.text(expression))).value(mode));
                copied = token.end();
            }
        }
        return out.append(expression, copied, expression.length()).toString();
    }

    /**
     * The value of a lone literal MySQL types without evaluating (a short integer, a decimal, NULL), or
     * null when the expression needs a server.
     */
    public static Value literal(String expression, LexicalMode mode) {
        List<Token> t = StatementTokens.of(expression, mode);
        if (t.size() != 1) {
            return null;
        }
        String text = t.get(0).text(expression);
        return switch (t.get(0).kind()) {
            case INTEGER -> text.length() <= 18 ? new Value(Type.INTEGER, text, false) : null;
            case KEYWORD, IDENTIFIER -> text.equalsIgnoreCase("null") ? Value.NULL : null;
            default -> null;
        };
    }

    private static boolean isClause(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "from", "limit", "into", "union", "order", "group", "having", "where", "for", "lock" -> true;
            default -> false;
        };
    }

    /**
     * {@code SELECT ... INTO @a, @b ...}: the SELECT without its INTO clause and the variables it
     * assigns, in order.
     */
    public record Into(String select, List<String> targets) {
        public Into {
            targets = List.copyOf(targets);
        }
    }

    /** The INTO of a SELECT that assigns user variables, or null for any other statement. */
    public static Into into(String sql, LexicalMode mode) {
        if (sql.indexOf('@') < 0) {
            return null;
        }
        List<Token> t = StatementTokens.of(sql, mode);
        if (t.isEmpty() || !word(sql, t.get(0)).equals("select")) {
            return null;
        }
        int depth = 0;
        for (int i = 0; i + 1 < t.size(); i++) {
            TokenKind kind = t.get(i).kind();
            depth += kind == TokenKind.LEFT_PAREN ? 1 : kind == TokenKind.RIGHT_PAREN ? -1 : 0;
            if (depth == 0 && word(sql, t.get(i)).equals("into") && t.get(i + 1).kind() == TokenKind.USER_VARIABLE) {
                List<String> targets = new java.util.ArrayList<>();
                int j = i + 1;
                while (j < t.size() && t.get(j).kind() == TokenKind.USER_VARIABLE) {
                    targets.add(name(t.get(j).text(sql)));
                    j += j + 1 < t.size() && t.get(j + 1).kind() == TokenKind.COMMA ? 2 : 1;
                }
                int end = j < t.size() ? t.get(j).start() : sql.length();
                String select = sql.substring(0, t.get(i).start()) + " " + sql.substring(end);
                return new Into(select.strip(), targets);
            }
        }
        return null;
    }

    /** Whether any user variable is named. */
    private static boolean reads(String sql, List<Token> t) {
        for (Token token : t) {
            if (token.kind() == TokenKind.USER_VARIABLE) {
                return true;
            }
        }
        return false;
    }

    /**
     * The first user variable a statement assigns inside it ({@code @x := expr}), or null (for a SET,
     * which the session evaluates itself, too): such a statement runs whole on one connection.
     */
    public static String innerAssignment(String sql, LexicalMode mode) {
        if (sql.indexOf(":=") < 0) {
            return null;
        }
        List<Token> t = StatementTokens.of(sql, mode);
        if (t.isEmpty() || word(sql, t.get(0)).equals("set") || word(sql, t.get(0)).equals("create")) {
            return null; // a routine's body assigns when it runs
        }
        for (int i = 0; i + 1 < t.size(); i++) {
            if (t.get(i).kind() == TokenKind.USER_VARIABLE && t.get(i + 1).text(sql).equals(":=")) {
                return t.get(i).text(sql);
            }
        }
        return null;
    }

    /**
     * {@code SELECT item [[AS] alias], ... [LIMIT n]} where each item is a user or system variable or
     * a call with no arguments: the grammar {@link SessionVariables} answers.
     */
    static boolean isVariableSelect(String sql, List<Token> t) {
        if (!word(sql, t.get(0)).equals("select")) {
            return false;
        }
        int i = 1;
        while (true) {
            if (i < t.size() && (t.get(i).kind() == TokenKind.USER_VARIABLE || t.get(i).kind() == TokenKind.SYSTEM_VARIABLE)) {
                i++;
            } else if (i + 2 < t.size() && t.get(i + 1).kind() == TokenKind.LEFT_PAREN && t.get(i + 2).kind() == TokenKind.RIGHT_PAREN) {
                i += 3;
            } else {
                return false;
            }
            if (i < t.size() && word(sql, t.get(i)).equals("as")) {
                i++;
            }
            if (i < t.size() && (t.get(i).kind() == TokenKind.IDENTIFIER || t.get(i).kind() == TokenKind.QUOTED_IDENTIFIER
                    || t.get(i).kind() == TokenKind.STRING)) {
                i++;
            }
            if (i < t.size() && t.get(i).kind() == TokenKind.COMMA) {
                i++;
            } else {
                break;
            }
        }
        if (i + 1 < t.size() && word(sql, t.get(i)).equals("limit") && t.get(i + 1).kind() == TokenKind.INTEGER) {
            i += 2;
        }
        return i == t.size();
    }

    /**
     * The user variables a statement names (read or assigned), lower case, each once, in order of
     * first mention: what a statement that assigns inside it ({@link #innerAssignment}) runs with
     * on its backend connection ({@link #assignAll}) and brings back ({@link #readAll}).
     */
    public static List<String> named(String sql, LexicalMode mode) {
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        for (Token token : StatementTokens.of(sql, mode)) {
            if (token.kind() == TokenKind.USER_VARIABLE) {
                names.add(name(token.text(sql)).toLowerCase(Locale.ROOT));
            }
        }
        return List.copyOf(names);
    }

    /** {@code SET @a = <value>, ...}: the session's current values of {@code names} on a backend connection (NULL if unset). */
    public String assignAll(List<String> names, LexicalMode mode) {
        StringBuilder b = new StringBuilder(16 + names.size() * 16).append("SET ");
        for (int i = 0; i < names.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(variable(names.get(i))).append(" = ").append(get(names.get(i)).value(mode));
        }
        return b.toString();
    }

    /** {@code SET @a = NULL, ...}: leaves no value on a pooled connection that other sessions borrow. */
    public static String clearAll(List<String> names) {
        StringBuilder b = new StringBuilder(16 + names.size() * 16).append("SET ");
        for (int i = 0; i < names.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(variable(names.get(i))).append(" = NULL");
        }
        return b.toString();
    }

    /** {@code SELECT @a, ...}: the values a backend connection holds, each typed by its column as MySQL types it. */
    public static String readAll(List<String> names) {
        StringBuilder b = new StringBuilder(16 + names.size() * 8).append("SELECT ");
        for (int i = 0; i < names.size(); i++) {
            b.append(i == 0 ? "" : ", ").append(variable(names.get(i)));
        }
        return b.toString();
    }

    /** The one row of {@link #readAll}{@code (names)} becomes the session's values of {@code names}. */
    public void readBack(List<String> names, ResultCursor cursor) {
        if (!cursor.next() || cursor.columns().size() != names.size()) {
            throw new ShardwiseException(ErrorCode.BUG, "reading back user variables " + names + " returned no row of theirs");
        }
        for (int i = 0; i < names.size(); i++) {
            set(names.get(i), Value.of(cursor.columns().get(i), cursor.get(i)));
        }
    }

    private static String variable(String name) {
        return "@`" + name.replace("`", "``") + "`";
    }

    /**
     * 1235 for {@code @x := expr} in a statement that cannot run whole on one connection (its value
     * would be computed per shard); {@code where} says what it spans.
     */
    public static ShardwiseException assignmentRefused(String variable, String where) {
        return new ShardwiseException(ErrorCode.UNSUPPORTED, "assigning the user variable " + variable
                + " with := inside " + where + " through Shardwise (use SET " + variable + " = ... or SELECT ... INTO " + variable + ")");
    }
}
