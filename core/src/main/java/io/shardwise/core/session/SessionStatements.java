package io.shardwise.core.session;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements one session answers itself, with logical names and values, for both faces: SHOW
 * and DESCRIBE, diagnostics (SHOW WARNINGS ...), selects of server variables and session functions,
 * information_schema queries, KILL; and the session variables SET changes and clients read back.
 * The analyzer decides which statement is which (the {@code SessionCommand} kinds); this class only
 * answers. Not thread-safe: one per session, called on its thread.
 */
public final class SessionStatements {
    private static final Pattern KILL = Pattern.compile("(?is)\\s*kill\\s+(?:(connection|query)\\s+)?(\\d+)\\s*;?\\s*");

    private final SessionHost host;
    private final ShardingRule rule;
    private final SystemSchemas systemSchemas;
    /** The backend's character sets and collations, read on first use (asking the backend must not happen at open). */
    private Collations collations;
    private final SessionVariables variables;
    /** See {@link #completionType()}. */
    private int completionType;
    private final UserVariables users = new UserVariables();
    private final ShowStatements shows;
    /** Built on first use, on the session's thread, from the variables (asking the backend must not happen at open). */
    private ServerIdentity identity;

    /**
     * @param sqlMode the session's sql_mode as the engine keeps it (null while the default), for {@code @@sql_mode}
     * @param readOnly the engine session's access mode, for {@code @@transaction_read_only}
     * @param isolation the engine session's isolation level (null: the backend's), for {@code @@transaction_isolation}
     */
    public SessionStatements(ShardingRule rule, SessionHost host, java.util.function.Supplier<String> sqlMode,
            java.util.function.BooleanSupplier readOnly, java.util.function.Supplier<io.shardwise.core.execute.SessionState.Isolation> isolation) {
        this.host = host;
        String configured = host.announcesVersion() ? rule.config().server().version() : null;
        this.variables = new SessionVariables(host.client(), () -> announced(BackendVariables.of(rule), configured), sqlMode,
                readOnly, isolation, this::collations);
        this.rule = rule;
        this.systemSchemas = new SystemSchemas(rule, host.client(), host.inProcess());
        this.shows = new ShowStatements(rule, host);
        this.variables.users = users;
    }

    /** The session's user variables ({@code @x}). */
    public UserVariables users() {
        return users;
    }

    /**
     * Reads what sessions start from (the default backend's variables and collations) once, where
     * blocking is allowed (a server's start), so a session applies its handshake's character set
     * without asking a backend.
     */
    public static void warm(ShardingRule rule) {
        BackendVariables.of(rule);
        Collations.of(rule);
    }

    /** Whether applying a character set and reading variables back can happen without asking a backend (see {@link #warm}). */
    public boolean readyWithoutBackend() {
        return Collations.cached(rule) && BackendVariables.cached(rule);
    }

    /** The default backend's character sets and collations: what SET NAMES and a handshake's collation id are checked against. */
    public Collations collations() {
        Collations known = collations;
        if (known == null) {
            known = Collations.of(rule);
            if (known != Collations.UNKNOWN) {
                collations = known;
            }
        }
        return known;
    }

    /** {@code LAST_INSERT_ID()} as the session keeps it. */
    /** Whether the engine's session has a transaction open ({@code @@in_transaction}). */
    public void inTransaction(java.util.function.BooleanSupplier inTransaction) {
        variables.inTransaction(inTransaction);
    }

    public void lastInsertId(java.util.function.LongSupplier lastInsertId) {
        variables.lastInsertId(lastInsertId);
    }

    /** The backends' system schemas as this client meets them (1044/1142, or read-only for an administrator). */
    public SystemSchemas systemSchemas() {
        return systemSchemas;
    }

    /**
     * {@code USE name} of a database that is not the logical schema, as MySQL answers a user whose only
     * database is the logical one: 1044 for a system schema (unless an administrator) or a database a
     * backend holds (its physical schemas included), 1049 only for one that exists nowhere.
     *
     * @throws ShardwiseException always
     */
    public void refuseUse(String name) {
        if (name.equalsIgnoreCase("information_schema")) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "USE information_schema (name its tables qualified)");
        }
        if (SystemSchemas.isSystemSchema(name)) {
            systemSchemas.use(name);
        }
        if (shows.existsOnABackend(name)) {
            SessionVariables.Client client = host.client();
            throw new ShardwiseException(ErrorCode.DATABASE_ACCESS_DENIED, client.user(), client.host(), name);
        }
        throw new ShardwiseException(ErrorCode.UNKNOWN_DATABASE, name);
    }

    /** The client announced CLIENT_INTERACTIVE: wait_timeout starts as interactive_timeout. */
    public void interactive() {
        variables.interactive();
    }

    /** The session's wait_timeout in seconds; 0 when its value is an expression only a backend knows. */
    public long waitTimeoutSeconds() {
        String value = variables.text("wait_timeout");
        try {
            return value == null ? 0 : Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * A select of variables and session functions this session knows only some of ({@code SELECT
     * @@version, @@max_connections, DATABASE()}), as the statement the default backend answers with
     * the session's own values spliced in as literals (so DATABASE() is the logical schema, not the
     * physical one); null when it is not such a select.
     */
    public String variablesForBackend(String sql, LexicalMode mode, boolean autocommit, String schema) {
        return variables.forBackend(sql, mode, autocommit, schema);
    }

    /** The backend's variables with the configured version in place of its own, for a face that announces one. */
    private static java.util.Map<String, String> announced(java.util.Map<String, String> backend, String configured) {
        if (configured == null) {
            return backend;
        }
        java.util.Map<String, String> out = new java.util.HashMap<>(backend);
        out.put("version", configured);
        return out;
    }

    /** The session's sql_mode: as set, else the default backend's. */
    public String sqlMode() {
        return variables.text("sql_mode");
    }

    /** The server this session's client sees ({@code @@version}, {@code @@version_comment}): what gates executable comments. */
    public ServerIdentity identity() {
        ServerIdentity known = identity;
        if (known == null) {
            String version = variables.text("version");
            String comment = variables.text("version_comment");
            known = new ServerIdentity(version == null ? ServerIdentity.FALLBACK.version() : version, comment == null ? "" : comment);
            identity = known;
        }
        return known;
    }

    /**
     * SHOW, DESCRIBE, {@code EXPLAIN table} and information_schema queries; null when {@code sql}
     * is none this session answers (EXPLAIN of a statement, an information_schema name it need not
     * map): the caller runs it as it is.
     *
     * @param mode the lexical mode the statement is read in: the session's sql_mode when it was normalized
     * @param schema the session's current schema, or null
     */
    public ResultCursor show(String sql, LexicalMode mode, String schema, boolean autocommit) {
        return shows.answer(sql, mode, schema, variables, autocommit);
    }

    /**
     * A select of variables and session functions; null when it names one this session does not
     * know (the caller asks the default backend).
     *
     * @param previous the previous statement's diagnostics, which {@code @@warning_count} reads
     */
    public ResultCursor variables(String sql, LexicalMode mode, boolean autocommit, String schema, Diagnostics previous) {
        return variables.answer(sql, mode, autocommit, schema, previous);
    }

    /** Whether a variables select reads the previous statement's diagnostics, so must not clear them. */
    public static boolean keepsDiagnostics(String sql) {
        return DiagnosticStatements.keepsDiagnostics(sql);
    }

    /** SHOW WARNINGS|ERRORS and SHOW COUNT(*) WARNINGS|ERRORS over {@code area}. */
    public ResultCursor diagnostics(String sql, LexicalMode mode, Diagnostics area) {
        ResultCursor answer = DiagnosticStatements.answer(sql, mode, area);
        if (answer == null) {
            throw ShowStatement.unsupported(sql);
        }
        return answer;
    }

    /**
     * {@code KILL [CONNECTION | QUERY] id}.
     *
     * @throws ShardwiseException 1094 for an unknown id, 1095 for another user's session, 1235 for another form
     */
    public void kill(String sql) {
        Matcher m = KILL.matcher(sql);
        if (!m.matches()) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "KILL statements through the engine");
        }
        long id = Long.parseLong(m.group(2));
        switch (host.kill(id, m.group(1) != null && m.group(1).equalsIgnoreCase("query"))) {
            case DONE -> { }
            case UNKNOWN -> throw new ShardwiseException(ErrorCode.UNKNOWN_THREAD, id);
            case NOT_OWNER -> throw new ShardwiseException(ErrorCode.NOT_THREAD_OWNER, id);
        }
    }

    /**
     * {@code FLUSH [LOCAL | NO_WRITE_TO_BINLOG] HOSTS}, what {@code mysqladmin flush-hosts} sends: an
     * administrator's (MySQL asks for the RELOAD privilege, 1227 without it). Every other FLUSH would act
     * on the backends and is refused with 1235 naming it.
     */
    public void flush(String sql, LexicalMode mode) {
        List<Token> tokens = StatementTokens.of(sql, mode);
        int i = 1;
        if (i < tokens.size() && List.of("local", "no_write_to_binlog").contains(StatementTokens.word(sql, tokens.get(i)))) {
            i++;
        }
        if (i == tokens.size() - 1 && StatementTokens.word(sql, tokens.get(i)).equals("hosts")) {
            if (!systemSchemas.administrator()) {
                throw new ShardwiseException(ErrorCode.SPECIFIC_ACCESS_DENIED, "RELOAD");
            }
            host.flushHosts();
            return;
        }
        String what = i < tokens.size() ? sql.substring(tokens.get(i).start()).strip() : "";
        throw new ShardwiseException(ErrorCode.UNSUPPORTED, "FLUSH " + what + " through Shardwise (only FLUSH HOSTS is answered;"
                + " flush each backend server directly)");
    }

    /**
     * What Shardwise answers itself ({@code @@x}, {@code @x}, SHOW, EXPLAIN, PREVIEW) described as the session's results
     * are: text columns in its {@code character_set_results} collation ({@link ResultsCharset}).
     */
    public ResultCursor described(ResultCursor answer) {
        return variables.results().follow(answer);
    }

    /** {@link #described(ResultCursor)} of prepare-time columns. */
    public List<Column> described(List<Column> columns) {
        return variables.results().describe(columns);
    }

    /** A successful SET: the values clients read back ({@code @@x}, SHOW VARIABLES) follow it. */
    public void recordSet(SetStatement set) {
        variables.record(set);
        for (SetStatement.Assignment a : set.assignments()) {
            if (a instanceof SetStatement.Variable v && v.name().equals("completion_type")) {
                // SET read it as a quoted name of COMPLETION_TYPES, or DEFAULT (the servers' default, NO_CHAIN)
                completionType = v.isDefault() ? 0 : SetStatement.COMPLETION_TYPES.indexOf(v.plain());
            }
        }
    }

    /** The backends' default isolation level (what a session that never set one runs at), on the session's thread. */
    public io.shardwise.core.execute.SessionState.Isolation defaultIsolation() {
        String text = variables.defaultText("transaction_isolation");
        return SetStatement.isolation("transaction_isolation", text == null ? "REPEATABLE-READ" : text);
    }

    /**
     * The session's completion_type (0 NO_CHAIN, 1 CHAIN, 2 RELEASE): how a plain COMMIT or ROLLBACK ends. A
     * field rather than a variable lookup, so that a face's event loop may read it (a lookup may ask a backend).
     */
    public int completionType() {
        return completionType;
    }

    /** Session variables back to their defaults (COM_RESET_CONNECTION). */
    public void resetVariables() {
        variables.reset();
        users.clear();
        completionType = 0;
    }

    /** COM_FIELD_LIST: the columns of a logical table of the current schema whose names match {@code wildcard}. */
    public List<Column> fieldList(String table, String wildcard, String schema) {
        return shows.fieldList(table, wildcard, schema);
    }

    /** Whether {@code sql} names information_schema at all; a scan without allocation. */
    public static boolean mentionsInformationSchema(String sql) {
        return InformationSchemaQueries.mentions(sql);
    }
}
