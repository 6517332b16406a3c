package io.shardwise.core;

import static io.shardwise.core.sql.normalize.StatementTokens.unquote;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.SessionState;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.sql.normalize.ClientCharset;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.session.Collations;
import io.shardwise.core.session.SetStatement;
import io.shardwise.core.session.UserVariables;
import io.shardwise.core.sql.normalize.TokenKind;
import java.util.function.Function;
import io.shardwise.core.session.ValuesCursor;
import io.shardwise.core.execute.UnitResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The session statements the engine answers itself: SET (its {@link SetStatement} applied to the session's
 * state, so every backend connection it uses gets it), USE, savepoint names, PREVIEW rows. Reads the user's
 * original text, since values matter here.
 */
final class SessionCommands {
    private SessionCommands() {}

    /**
     * Applies {@code set}'s assignments in order, every value read before any is assigned (as MariaDB
     * does: {@code SET @a = 1, @b = @a} gives @b the old @a), and returns them as applied (user variables read as literals), for
     * the session's variables to record.
     *
     * @param defaultBackend evaluates values given as expressions ({@code sql_mode = CONCAT(@@sql_mode, ',X')})
     * @param evaluate the value of {@code SELECT expression} as this session runs it (a user variable's new value)
     * @param collations checks character set and collation names as the backends know them
     */
    static SetStatement set(SetStatement set, ExecutionSession execution, String defaultBackend, UserVariables users,
                            LexicalMode mode, Function<String, UserVariables.Value> evaluate, Collations collations) {
        SessionState state = execution.state();
        // MariaDB evaluates every user variable's value before assigning any (SET @a = 1, @b = @a leaves @b as @a was)
        List<SetStatement.Assignment> applied = new ArrayList<>(set.assignments().size());
        java.util.Map<SetStatement.User, UserVariables.Value> values = new java.util.IdentityHashMap<>();
        for (SetStatement.Assignment assignment : set.assignments()) {
            if (assignment instanceof SetStatement.Transaction t && !t.session() && execution.inTransaction()) {
                throw new ShardwiseException(ErrorCode.TRANSACTION_CHARACTERISTICS_IN_PROGRESS);
            }
            if (assignment instanceof SetStatement.User u) {
                UserVariables.Value value = UserVariables.literal(u.expression(), mode);
                values.put(u, value != null ? value : evaluate.apply(select(users.expression(u.expression(), mode), mode)));
            }
            SetStatement.Assignment a = assignment instanceof SetStatement.Variable v ? readUsers(v, users, mode) : assignment;
            if (a instanceof SetStatement.Variable v && v.name().equals("completion_type")) {
                a = completionType(v, execution, defaultBackend, mode);
            }
            applied.add(a);
        }
        for (SetStatement.Assignment a : applied) {
            switch (a) {
                case SetStatement.User u -> users.set(u.name(), values.get(u));
                case SetStatement.Names n -> names(n, state, collations);
                case SetStatement.Transaction t -> {
                    if (t.isolation() != null && t.session()) {
                        state.setIsolation(t.isolation());
                    } else if (t.isolation() != null) {
                        state.setNextIsolation(t.isolation()); // without SESSION: the next transaction's only
                    }
                    if (t.readOnly() != null && t.session()) {
                        state.setReadOnly(t.readOnly());
                    } else if (t.readOnly() != null) {
                        state.setNextReadOnly(t.readOnly()); // without SESSION: the next transaction's only
                    }
                }
                case SetStatement.Variable v -> variable(v, execution, defaultBackend, collations);
            }
        }
        return new SetStatement(applied);
    }

    /**
     * completion_type's value read as MariaDB reads it ({@link SetStatement#COMPLETION_TYPES}'s name, quoted): a
     * literal (one read from user variables too) checked as SET reads it, an expression evaluated first. The
     * session keeps it ({@code SessionStatements#completionType}), no backend gets it: a pooled connection
     * whose own COMMIT chained a transaction or closed would outlive the client's transaction.
     */
    private static SetStatement.Variable completionType(SetStatement.Variable v, ExecutionSession execution, String defaultBackend,
                                                        LexicalMode mode) {
        if (!v.literal()) {
            return SetStatement.completionType(evaluate(v.expression(), execution, defaultBackend));
        }
        return (SetStatement.Variable) SetStatement.parse("SET completion_type = " + v.expression(), mode).assignments().get(0);
    }

    /**
     * The SELECT whose one value an expression is: {@code (SELECT ...)} alone is that SELECT, so its
     * plan may merge shards (a scalar subquery across shards is refused inside a larger SELECT).
     */
    private static String select(String expression, LexicalMode mode) {
        List<Token> t = StatementTokens.of(expression, mode);
        if (t.size() > 3 && t.get(0).kind() == TokenKind.LEFT_PAREN && t.get(t.size() - 1).kind() == TokenKind.RIGHT_PAREN
                && StatementTokens.word(expression, t.get(1)).equals("select")) {
            int depth = 0;
            for (int i = 0; i < t.size() - 1; i++) {
                depth += t.get(i).kind() == TokenKind.LEFT_PAREN ? 1 : t.get(i).kind() == TokenKind.RIGHT_PAREN ? -1 : 0;
                if (depth == 0) {
                    return "SELECT " + expression; // (a) + (b): the parentheses close before the end
                }
            }
            return expression.substring(t.get(1).start(), t.get(t.size() - 1).start());
        }
        return "SELECT " + expression;
    }

    /** A system variable set from user variables ({@code SET SQL_MODE = @OLD_SQL_MODE}, as dumps do) is set from their values. */
    private static SetStatement.Variable readUsers(SetStatement.Variable v, UserVariables users, LexicalMode mode) {
        String expression = users.expression(v.expression(), mode);
        if (expression.equals(v.expression())) {
            return v;
        }
        List<Token> tokens = StatementTokens.of(expression, mode);
        boolean literal = tokens.size() == 1 && tokens.get(0).kind() != TokenKind.SYSTEM_VARIABLE;
        return new SetStatement.Variable(v.name(), expression, literal);
    }

    /**
     * SET NAMES / SET CHARACTER SET: names no backend knows fail here with MySQL's 1115, 1273 or 1253,
     * before anything changes; CHARACTER SET leaves the connection's character set the database's.
     */
    private static void names(SetStatement.Names n, SessionState state, Collations collations) {
        String charset = n.charset().equalsIgnoreCase("default") ? "utf8mb4" : n.charset();
        collations.charset(charset);
        if (n.collation() != null) {
            collations.collation(n.collation(), charset);
        }
        if (n.names()) {
            state.setNames(charset, n.collation());
        } else {
            state.setCharacterSet(charset);
        }
        setClientCharset(state, charset);
    }

    /** A character set or collation assigned as a literal name is checked as SET NAMES checks it. */
    private static void checkName(SetStatement.Variable v, Collations collations) {
        if (!v.literal() || v.isDefault() || v.plain().equalsIgnoreCase("null")) {
            return;
        }
        if (v.name().equals("collation_connection")) {
            collations.collation(v.plain(), null);
        } else {
            collations.charset(v.plain());
        }
    }

    private static void variable(SetStatement.Variable v, ExecutionSession execution, String defaultBackend, Collations collations) {
        SessionState state = execution.state();
        if (v.name().startsWith("character_set_") || v.name().equals("collation_connection")) {
            checkName(v, collations);
        }
        String expression = v.expression();
        String plain = v.plain();
        switch (v.name()) {
            case "autocommit" -> execution.setAutocommit(truth(v.name(), plain));
            case "character_set_results" -> state.setCharacterSetResults(plain.equalsIgnoreCase("null") ? null : plain);
            case "character_set_connection" -> state.setCharacterSetConnection(plain);
            case "collation_connection" -> state.setCollationConnection(plain);
            // the engine talks to backends in UTF-8 whatever the client sends; the faces convert
            case "character_set_client" -> setClientCharset(state, plain.equalsIgnoreCase("default") ? "utf8mb4" : plain);
            case "time_zone" -> state.setTimeZone(plain.equalsIgnoreCase("default") ? null : plain);
            case "sql_mode" -> sqlMode(plain.equalsIgnoreCase("default") ? null
                    : isExpression(expression) ? sqlModeValue(evaluate(expression, execution, defaultBackend)) : plain,
                    execution, defaultBackend);
            case "transaction_isolation", "tx_isolation" ->
                    state.setIsolation(v.isDefault() ? null : SetStatement.isolation(v.name(), plain));
            case "transaction_read_only", "tx_read_only" -> state.setReadOnly(!v.isDefault() && truth(v.name(), plain));
            case "completion_type" -> { } // the session's own (SessionStatements#completionType), never a backend's
            default -> state.setVariable(v.name(), expression);
        }
    }

    /** Other character sets keep the last known decoding (utf8mb4 at worst): still lossless, see ClientCharset. */
    private static void setClientCharset(SessionState state, String name) {
        ClientCharset charset = ClientCharset.forName(name);
        if (charset != null) {
            state.setClientCharset(charset);
        }
    }

    /**
     * Sets sql_mode and reads back what the backend made of it: a bad mode fails here, as in MySQL
     * (and leaves the session as it was), and the session keeps MySQL's spelling (upper case,
     * combination modes such as ANSI expanded), which both {@code @@sql_mode} reads and the lexer use.
     */
    private static void sqlMode(String requested, ExecutionSession execution, String defaultBackend) {
        SessionState state = execution.state();
        String before = state.sqlMode();
        state.setSqlMode(requested);
        if (requested == null) {
            return;
        }
        try {
            String canonical = evaluate("@@SESSION.sql_mode", execution, defaultBackend);
            if (!canonical.equals(requested)) {
                state.setSqlMode(canonical);
            }
        } catch (RuntimeException e) {
            state.setSqlMode(before);
            throw e;
        }
    }

    /** A function call or variable reference rather than a literal value. */
    private static boolean isExpression(String expression) {
        return expression.indexOf('(') >= 0 || expression.startsWith("@");
    }

    /**
     * The value of {@code expression} on a connection with the session's state, so {@code @@sql_mode}
     * reads what the session set (MariaDB Connector/J appends STRICT_TRANS_TABLES this way at connect).
     */
    private static String evaluate(String expression, ExecutionSession execution, String defaultBackend) {
        UnitResult result = execution.execute(List.of(new ExecutionUnit(defaultBackend, "SELECT " + expression))).get(0);
        if (!(result instanceof UnitResult.Rows rows)) {
            throw new ShardwiseException(ErrorCode.BUG, "SELECT " + expression + " returned no rows");
        }
        try (ResultCursor cursor = rows.cursor()) {
            byte[] value = cursor.next() ? cursor.get(0) : null;
            return value == null ? "" : new String(value, StandardCharsets.UTF_8);
        }
    }

    /** MySQL drops empty and repeated modes of a sql_mode list ({@code ',A,A'} is {@code 'A'}). */
    private static String sqlModeValue(String modes) {
        Set<String> unique = new LinkedHashSet<>();
        for (String mode : modes.split(",")) {
            if (!mode.isBlank()) {
                unique.add(mode.strip().toUpperCase(Locale.ROOT));
            }
        }
        return String.join(",", unique);
    }

    /** A boolean variable's value as MySQL reads it; anything else is MySQL's 1231 naming the variable. */
    private static boolean truth(String variable, String v) {
        return SetStatement.truth(variable, v);
    }

    /** The database a client connects with: only the logical one exists (asking backends must not happen at open). */
    static void use(String schema, String logical) {
        String name = unquote(schema);
        if (!name.equalsIgnoreCase(logical)) {
            throw new ShardwiseException(ErrorCode.UNKNOWN_DATABASE, name);
        }
    }

    /** USE of another database than the logical one fails as MySQL fails it for this user ({@link SessionStatements#refuseUse}). */
    static void use(String schema, String logical, io.shardwise.core.session.SessionStatements local) {
        String name = unquote(schema);
        if (!name.equalsIgnoreCase(logical)) {
            local.refuseUse(name);
        }
    }

    /** The identifier after the first {@code skip} words (SAVEPOINT name). */
    static String savepointName(String sql, int skip, LexicalMode mode) {
        List<Token> t = StatementTokens.of(sql, mode);
        return unquote(t.get(skip).text(sql));
    }

    static String lastWord(String sql, LexicalMode mode) {
        List<Token> t = StatementTokens.of(sql, mode);
        return unquote(t.get(t.size() - 1).text(sql));
    }

    static String firstWord(String sql, LexicalMode mode) {
        List<Token> t = StatementTokens.of(sql, mode);
        return t.isEmpty() ? "" : t.get(0).text(sql).toUpperCase(Locale.ROOT);
    }

    static String afterFirstWord(String sql, LexicalMode mode) {
        List<Token> t = StatementTokens.of(sql, mode);
        return t.size() < 2 ? "" : sql.substring(t.get(1).start());
    }

    static final List<String> PREVIEW_LABELS = List.of("backend", "actual_sql", "params", "route", "merge");

    static ValuesCursor previewRows(RoutePlan plan) {
        List<String[]> rows = new ArrayList<>();
        for (ExecutionUnit u : plan.units()) {
            rows.add(new String[] {u.backend(), u.sql(), u.params().isEmpty() ? null : u.params().toString(),
                    plan.kind().name(), plan.merge().explain()});
        }
        return ValuesCursor.text(PREVIEW_LABELS, rows);
    }


}
