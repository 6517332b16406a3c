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
import io.shardwise.core.session.SetStatement;
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

    /** {@code defaultBackend} evaluates values given as expressions ({@code sql_mode = CONCAT(@@sql_mode, ',X')}). */
    static void set(SetStatement set, ExecutionSession execution, String defaultBackend) {
        SessionState state = execution.state();
        for (SetStatement.Assignment a : set.assignments()) {
            switch (a) {
                case SetStatement.Names n -> {
                    String charset = n.names() && n.charset().equalsIgnoreCase("default") ? "utf8mb4" : n.charset();
                    state.setNames(charset, n.names() ? n.collation() : null);
                    setClientCharset(state, charset);
                }
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
                case SetStatement.Variable v -> variable(v, execution, defaultBackend);
            }
        }
    }

    private static void variable(SetStatement.Variable v, ExecutionSession execution, String defaultBackend) {
        SessionState state = execution.state();
        String expression = v.expression();
        String plain = v.plain();
        switch (v.name()) {
            case "autocommit" -> execution.setAutocommit(truth(plain));
            case "character_set_results" -> state.setCharacterSetResults(plain.equalsIgnoreCase("null") ? null : plain);
            case "character_set_connection" -> state.setCharacterSetConnection(plain);
            case "collation_connection" -> state.setCollationConnection(plain);
            // the engine talks to backends in UTF-8 whatever the client sends; the faces convert
            case "character_set_client" -> setClientCharset(state, plain.equalsIgnoreCase("default") ? "utf8mb4" : plain);
            case "time_zone" -> state.setTimeZone(plain.equalsIgnoreCase("default") ? null : plain);
            case "sql_mode" -> sqlMode(plain.equalsIgnoreCase("default") ? null
                    : isExpression(expression) ? sqlModeValue(evaluate(expression, execution, defaultBackend)) : plain,
                    execution, defaultBackend);
            case "transaction_isolation", "tx_isolation" -> state.setIsolation(SetStatement.isolation(plain));
            case "transaction_read_only", "tx_read_only" -> state.setReadOnly(truth(plain));
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

    private static boolean truth(String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "1", "on", "true" -> true;
            case "0", "off", "false" -> false;
            default -> throw new ShardwiseException(ErrorCode.BACKEND_ERROR, "Variable can't be set to the value of '" + v + "'");
        };
    }

    static void use(String schema, String logical) {
        String name = unquote(schema);
        if (!name.equalsIgnoreCase(logical)) {
            throw new ShardwiseException(ErrorCode.UNKNOWN_DATABASE, name);
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
