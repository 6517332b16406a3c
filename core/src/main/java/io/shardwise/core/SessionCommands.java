package io.shardwise.core;

import static io.shardwise.core.sql.normalize.StatementTokens.unquote;
import static io.shardwise.core.sql.normalize.StatementTokens.word;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.SessionState;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.sql.normalize.ClientCharset;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.SqlLexer;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.session.ValuesCursor;
import io.shardwise.core.execute.UnitResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The session statements the engine answers itself: SET (applied to the session's state, so every
 * backend connection it uses gets it), USE, savepoint names, PREVIEW rows. Reads the user's
 * original text, since values matter here.
 */
final class SessionCommands {
    private SessionCommands() {}

    /** {@code defaultBackend} evaluates values given as expressions ({@code sql_mode = CONCAT(@@sql_mode, ',X')}). */
    static void set(String sql, ExecutionSession execution, String defaultBackend) {
        List<Token> tokens = StatementTokens.of(sql, execution.state().lexicalMode());
        // tokens.get(0) is SET
        int i = 1;
        while (i < tokens.size()) {
            int end = i;
            int depth = 0;
            while (end < tokens.size()) {
                TokenKind k = tokens.get(end).kind();
                if (k == TokenKind.LEFT_PAREN) {
                    depth++;
                } else if (k == TokenKind.RIGHT_PAREN) {
                    depth--;
                } else if (k == TokenKind.COMMA && depth == 0 && !isTransactionList(sql, tokens, i)) {
                    break;
                }
                end++;
            }
            assignment(sql, tokens.subList(i, end), execution, defaultBackend);
            i = end + 1;
        }
    }

    private static boolean isTransactionList(String sql, List<Token> tokens, int from) {
        for (int j = from; j < Math.min(tokens.size(), from + 2); j++) {
            if (word(sql, tokens.get(j)).equals("transaction")) {
                return true;
            }
        }
        return false;
    }

    private static void assignment(String sql, List<Token> t, ExecutionSession execution, String defaultBackend) {
        if (t.isEmpty()) {
            throw new ShardwiseException(ErrorCode.PARSE_ERROR, "an empty assignment in SET");
        }
        SessionState state = execution.state();
        String first = word(sql, t.get(0));
        int at = 0;
        if (first.equals("global") || first.equals("persist") || first.equals("persist_only")) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "SET " + first.toUpperCase(Locale.ROOT)
                    + " through Shardwise (set it on each backend server)");
        }
        if (first.equals("session") || first.equals("local")) {
            at = 1;
        }
        String head = word(sql, t.get(at));
        switch (head) {
            case "names" -> {
                String charset = value(sql, t.get(at + 1));
                String collation = null;
                if (t.size() > at + 3 && word(sql, t.get(at + 2)).equals("collate")) {
                    collation = value(sql, t.get(at + 3));
                }
                String names = charset.equalsIgnoreCase("default") ? "utf8mb4" : charset;
                state.setNames(names, collation);
                setClientCharset(state, names);
                return;
            }
            case "character", "charset" -> {
                int v = head.equals("character") ? at + 2 : at + 1;
                state.setNames(value(sql, t.get(v)), null);
                setClientCharset(state, value(sql, t.get(v)));
                return;
            }
            case "transaction" -> {
                transaction(sql, t.subList(at + 1, t.size()), state, at == 1);
                return;
            }
            default -> { }
        }
        Token nameToken = t.get(at);
        String name;
        if (nameToken.kind() == TokenKind.USER_VARIABLE) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "user variables (" + nameToken.text(sql) + ") through Shardwise");
        } else if (nameToken.kind() == TokenKind.SYSTEM_VARIABLE) {
            name = nameToken.text(sql).substring(2).toLowerCase(Locale.ROOT);
            if (name.startsWith("global.") || name.startsWith("persist")) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "SET @@" + name + " through Shardwise (set it on each backend server)");
            }
            name = name.replaceFirst("^(session|local)\\.", "");
        } else {
            name = nameToken.text(sql).toLowerCase(Locale.ROOT).replace("`", "");
        }
        int eq = at + 1;
        if (eq >= t.size() || !(t.get(eq).text(sql).equals("=") || t.get(eq).text(sql).equals(":="))) {
            throw new ShardwiseException(ErrorCode.PARSE_ERROR, "near '" + sql.substring(t.get(at).start()) + "'");
        }
        String expression = sql.substring(t.get(eq + 1).start(), t.get(t.size() - 1).end()).strip();
        String plain = unquote(expression);
        switch (name) {
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
            case "transaction_isolation", "tx_isolation" -> state.setIsolation(isolation(plain));
            case "transaction_read_only", "tx_read_only" -> state.setReadOnly(truth(plain));
            default -> state.setVariable(name, expression);
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

    /** {@code session}: SET SESSION TRANSACTION; without a scope the access mode is the next transaction's only. */
    private static void transaction(String sql, List<Token> t, SessionState state, boolean session) {
        StringBuilder words = new StringBuilder();
        for (Token token : t) {
            words.append(token.text(sql).toLowerCase(Locale.ROOT)).append(' ');
        }
        String text = words.toString().replace(" ,", ",");
        for (String part : text.split(",")) {
            String p = part.strip();
            if (p.startsWith("isolation level ")) {
                state.setIsolation(isolation(p.substring("isolation level ".length()).strip()));
            } else if (p.equals("read only") || p.equals("read write")) {
                if (session) {
                    state.setReadOnly(p.equals("read only"));
                } else {
                    state.setNextReadOnly(p.equals("read only"));
                }
            } else {
                throw new ShardwiseException(ErrorCode.PARSE_ERROR, "near 'TRANSACTION " + p + "'");
            }
        }
    }

    private static SessionState.Isolation isolation(String text) {
        return switch (text.toLowerCase(Locale.ROOT).replace('-', ' ').strip()) {
            case "read uncommitted" -> SessionState.Isolation.READ_UNCOMMITTED;
            case "read committed" -> SessionState.Isolation.READ_COMMITTED;
            case "repeatable read" -> SessionState.Isolation.REPEATABLE_READ;
            case "serializable" -> SessionState.Isolation.SERIALIZABLE;
            default -> throw new ShardwiseException(ErrorCode.BACKEND_ERROR,
                    "Variable 'transaction_isolation' can't be set to the value of '" + text + "'");
        };
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

    private static String value(String sql, Token t) {
        return unquote(t.text(sql));
    }

}
