package io.shardwise.core.session;

import static io.shardwise.core.sql.normalize.StatementTokens.unquote;
import static io.shardwise.core.sql.normalize.StatementTokens.word;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.execute.SessionState;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The server variables a client reads back ({@code SELECT @@version_comment}, Connector/J's
 * connect-time {@code SELECT @@session.auto_increment_increment AS ..., ...}) and the session
 * functions clients call ({@code DATABASE()}, {@code USER()}, {@code CONNECTION_ID()} ...), answered
 * in the session without a backend round trip (a backend would name its physical schema and
 * account). Starts from a table of defaults; successful {@code SET} statements update this
 * session's copy. A statement naming a variable not in the table, or with anything else (a FROM,
 * an expression), is not answered here and goes to the engine. Not thread-safe: one per session.
 *
 * <p>The defaults are the default backend's own session values ({@link BackendVariables}) where the
 * backend decides them (sql_mode, time_zone, isolation ...), so a client reads back what its statements
 * run under, and its identity ({@code version*}, as {@link ServerIdentity} announces it); the client's
 * character sets and the packet limit are the server's.
 */
public final class SessionVariables {
    /** The version announced when the default backend cannot be asked ({@link ServerIdentity#FALLBACK}). */
    public static final String SERVER_VERSION = ServerIdentity.FALLBACK.version();

    /**
     * Who is connected: for USER(), CURRENT_USER() and CONNECTION_ID().
     *
     * @param maxAllowedPacket the server's configured packet limit, which {@code @@max_allowed_packet} reports
     */
    public record Client(String user, String host, int connectionId, int maxAllowedPacket) {
        static final int DEFAULT_MAX_PACKET = 64 << 20;

        public Client(String user, String host, int connectionId) {
            this(user, host, connectionId, DEFAULT_MAX_PACKET);
        }
    }

    /**
     * @param unsigned a BIGINT UNSIGNED column, as MariaDB types {@code @@in_transaction}
     * @param decimals a string column's decimals: 31, or MariaDB 11.4's 39 for {@code @@completion_type} (checked by the oracle)
     */
    private record Value(String text, boolean numeric, boolean unsigned, int decimals) {
        Value(String text, boolean numeric) {
            this(text, numeric, false, 31);
        }

        Value(String text, boolean numeric, boolean unsigned) {
            this(text, numeric, unsigned, 31);
        }
    }

    /** The boolean variables answered here, which MariaDB describes as BIGINT(1). */
    private static final Set<String> BOOLEANS = Set.of("autocommit", "sql_auto_is_null", "transaction_read_only", "tx_read_only",
            "performance_schema", "session_track_schema");

    /** In {@link #changed}: set to an expression, so not answered here (compared by identity). */
    private static final Value REMOVED = new Value(null, false);

    /**
     * The defaults built from one backend map and packet limit, which every session of a server
     * shares: built once, not per connection (thousands of idle clients each held a copy).
     */
    private record Shared(Map<String, String> backend, int maxAllowedPacket, Map<String, Value> defaults) {}

    /** The last defaults built; another engine in this JVM (tests) replaces it. */
    private static volatile Shared shared;

    private static final String SQL_MODE = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,"
            + "ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION";
    private static final Map<String, Value> DEFAULTS = builtIn();

    /** What the server answers itself, whatever the backend says. */
    private static final java.util.Set<String> SERVER_OWNED = java.util.Set.of("character_set_client", "character_set_connection",
            "character_set_results", "collation_connection", "max_allowed_packet", "protocol_version", "session_track_schema",
            "init_connect");

    private final Supplier<Map<String, String>> backend;
    /** The engine's sql_mode of this session (null while the default): the engine owns it, SET evaluated. */
    private final Supplier<String> sqlMode;
    /** The collation results are described in (SET NAMES, character_set_results), for the values answered here. */
    private ResultsCharset results = ResultsCharset.DEFAULT;
    /** The engine's READ ONLY of this session (its SessionState owns it): {@code @@transaction_read_only} reads it there. */
    private final BooleanSupplier readOnly;
    private final Supplier<Collations> collations;
    private java.util.function.LongSupplier lastInsertId = () -> 0;
    /** Whether the engine's session has a transaction open, for {@code @@in_transaction}. */
    private BooleanSupplier inTransaction = () -> false;
    /** CLIENT_INTERACTIVE: wait_timeout starts as interactive_timeout. */
    private boolean interactive;
    /** The engine's session isolation (its SessionState owns it; null while the backend's default). */
    private final Supplier<SessionState.Isolation> isolation;
    private final Client client;
    /**
     * Shared by the sessions of one server (see {@link Shared}); taken on first use, on the session's
     * thread: asking the backend must not happen where the session is opened.
     */
    private Map<String, Value> defaults;
    /**
     * This session's values that differ from the defaults (SETs, the handshake's character set), or
     * {@link #REMOVED} for a variable only a backend knows now; null while there are none. An idle
     * session holds a few entries here, not a copy of every variable.
     */
    private Map<String, Value> changed;
    /** The session's user variables, which a select of variables reads too ({@code SELECT @x, @@y}). */
    UserVariables users = new UserVariables();

    SessionVariables(Client client) {
        this(client, Map::of);
    }

    /** @param backend the default backend's session variables by lower-case name (empty when unknown), asked on first use */
    SessionVariables(Client client, Supplier<Map<String, String>> backend) {
        this(client, backend, () -> null, () -> false);
    }

    /**
     * @param backend the default backend's variables, the version as announced ({@link ServerIdentity})
     * @param sqlMode the session's sql_mode as the engine keeps it, or null while it is the default
     * @param readOnly whether the engine's session is READ ONLY (SET SESSION TRANSACTION, transaction_read_only)
     */
    SessionVariables(Client client, Supplier<Map<String, String>> backend, Supplier<String> sqlMode, BooleanSupplier readOnly) {
        this(client, backend, sqlMode, readOnly, () -> null, () -> Collations.UNKNOWN);
    }

    /** @param collations the backend's character sets and collations, for the values SET NAMES gives */
    SessionVariables(Client client, Supplier<Map<String, String>> backend, Supplier<String> sqlMode, Supplier<Collations> collations) {
        this(client, backend, sqlMode, () -> false, () -> null, collations);
    }

    /**
     * @param isolation the engine's session isolation level (SET SESSION TRANSACTION, transaction_isolation),
     *     null while the default backend's own applies; a next-transaction level is not reported, as in MariaDB
     */
    SessionVariables(Client client, Supplier<Map<String, String>> backend, Supplier<String> sqlMode, BooleanSupplier readOnly,
            Supplier<SessionState.Isolation> isolation) {
        this(client, backend, sqlMode, readOnly, isolation, () -> Collations.UNKNOWN);
    }

    /** @param collations the backend's character sets and collations, for the values SET NAMES gives */
    SessionVariables(Client client, Supplier<Map<String, String>> backend, Supplier<String> sqlMode, BooleanSupplier readOnly,
            Supplier<SessionState.Isolation> isolation, Supplier<Collations> collations) {
        this.client = client;
        this.backend = backend;
        this.sqlMode = sqlMode;
        this.readOnly = readOnly;
        this.isolation = isolation;
        this.collations = collations;
    }

    /**
     * A variable's value: what the engine's session owns read there (sql_mode once a SET changed it,
     * the access mode), else this session's table.
     */
    private Value value(String name) {
        switch (name) {
            case "sql_mode" -> {
                String mode = sqlMode.get();
                if (mode != null) {
                    return new Value(mode, false);
                }
            }
            case "transaction_read_only", "tx_read_only" -> {
                return new Value(readOnly.getAsBoolean() ? "1" : "0", true);
            }
            case "transaction_isolation", "tx_isolation" -> {
                SessionState.Isolation level = isolation.get();
                if (level != null) {
                    return new Value(level.name().replace('_', '-'), false);
                }
            }
            case "completion_type" -> {
                Value v = lookup(name);
                return v == null ? null : new Value(v.text(), false, false, 39);
            }
            default -> { }
        }
        return lookup(name);
    }

    /** This session's value: its own change, else (wait_timeout of an interactive client) interactive_timeout's default, else the default. */
    private Value lookup(String name) {
        if (changed != null) {
            Value v = changed.get(name);
            if (v != null) {
                return v == REMOVED ? null : v;
            }
        }
        if (interactive && name.equals("wait_timeout")) {
            Value v = defaults().get("interactive_timeout");
            if (v != null) {
                return v;
            }
        }
        return defaults().get(name);
    }

    private Map<String, Value> changed() {
        if (changed == null) {
            changed = new HashMap<>(8);
        }
        return changed;
    }

    private Map<String, Value> defaults() {
        if (defaults == null) {
            Map<String, String> own = backend.get();
            Shared known = shared;
            if (known == null || known.maxAllowedPacket() != client.maxAllowedPacket()
                    || (known.backend() != own && !known.backend().equals(own))) {
                known = new Shared(own, client.maxAllowedPacket(), defaults(own, client.maxAllowedPacket()));
                shared = known;
            }
            defaults = known.defaults();
        }
        return defaults;
    }

    private static Map<String, Value> defaults(Map<String, String> own, int maxAllowedPacket) {
        Map<String, Value> d = new HashMap<>(DEFAULTS);
        for (Map.Entry<String, Value> e : DEFAULTS.entrySet()) {
            String value = own.get(e.getKey());
            if (value != null && !SERVER_OWNED.contains(e.getKey())) {
                if (e.getValue().numeric()) {
                    value = value.equalsIgnoreCase("ON") ? "1" : value.equalsIgnoreCase("OFF") ? "0" : value; // SHOW's booleans; SELECT reads 1/0
                }
                d.put(e.getKey(), new Value(value, e.getValue().numeric()));
            }
        }
        d.put("max_allowed_packet", new Value(Integer.toString(maxAllowedPacket), true));
        return Map.copyOf(d);
    }

    private static Map<String, Value> builtIn() {
        Map<String, Value> d = new HashMap<>();
        for (String[] s : new String[][] {
                {"version", SERVER_VERSION}, {"version_comment", "Shardwise"},
                {"version_compile_os", "Linux"}, {"version_compile_machine", "x86_64"},
                {"character_set_client", "utf8mb4"}, {"character_set_connection", "utf8mb4"},
                {"character_set_results", "utf8mb4"}, {"character_set_server", "utf8mb4"},
                {"character_set_database", "utf8mb4"}, {"character_set_system", "utf8mb3"},
                {"collation_server", "utf8mb4_general_ci"}, {"collation_connection", "utf8mb4_general_ci"},
                {"collation_database", "utf8mb4_general_ci"}, {"init_connect", ""}, {"license", "GPL"},
                {"query_cache_type", "OFF"}, {"sql_mode", SQL_MODE}, {"system_time_zone", "UTC"}, {"time_zone", "SYSTEM"},
                {"transaction_isolation", "REPEATABLE-READ"}, {"tx_isolation", "REPEATABLE-READ"},
                {"default_storage_engine", "InnoDB"}, {"completion_type", "NO_CHAIN"}}) {
            d.put(s[0], new Value(s[1], false));
        }
        for (String[] n : new String[][] {
                {"auto_increment_increment", "1"}, {"auto_increment_offset", "1"}, {"interactive_timeout", "28800"},
                {"wait_timeout", "28800"}, {"lower_case_table_names", "0"}, {"max_allowed_packet", "67108864"},
                {"net_buffer_length", "16384"}, {"net_write_timeout", "60"}, {"performance_schema", "0"},
                {"query_cache_size", "0"}, {"transaction_read_only", "0"}, {"tx_read_only", "0"},
                {"protocol_version", "10"}, {"sql_auto_is_null", "0"}, {"max_execution_time", "0"},
                {"div_precision_increment", "4"}, {"session_track_schema", "1"}}) {
            d.put(n[0], new Value(n[1], true));
        }
        return Map.copyOf(d);
    }

    /**
     * The rows of a {@code SELECT @@a [AS x], DATABASE(), ... [LIMIT n]} statement, or null when it
     * is not one this session answers. One pass over the tokens of that small grammar (hence its length).
     *
     * @param schema the session's current schema, or null for none
     */
    ResultCursor answer(String sql, boolean autocommit, String schema) {
        return answer(sql, autocommit, schema, Diagnostics.empty());
    }

    /** @param diagnostics the previous statement's area, which {@code @@warning_count} and {@code @@error_count} report */
    ResultCursor answer(String sql, boolean autocommit, String schema, Diagnostics diagnostics) {
        return answer(sql, LexicalMode.DEFAULT, autocommit, schema, diagnostics);
    }

    /** @param mode the lexical mode the statement is read in (the session's sql_mode) */
    ResultCursor answer(String sql, LexicalMode mode, boolean autocommit, String schema, Diagnostics diagnostics) {
        Items items = items(sql, mode, autocommit, schema, diagnostics);
        if (items == null) {
            return null;
        }
        List<Column> columns = new ArrayList<>();
        List<byte[]> row = new ArrayList<>();
        for (Item item : items.list()) {
            if (item.value() == null) {
                return null;
            }
            if (item.user() != null) {
                columns.add(UserVariables.column(item.label(), item.user()));
                row.add(item.user().bytes());
            } else {
                columns.add(column(item.label(), item.value(), item.source()));
                row.add(item.value().text() == null ? null : item.value().text().getBytes(StandardCharsets.UTF_8));
            }
        }
        return new ValuesCursor(columns, items.limit() == 0 ? List.of() : List.<byte[][]>of(row.toArray(new byte[0][])));
    }

    /**
     * The statement for the default backend when this session knows some of its items but not all:
     * each item it knows becomes a literal of its value under the item's label; null when it knows
     * none (the statement goes as it is) or the statement is not a select of variables and functions.
     */
    String forBackend(String sql, LexicalMode mode, boolean autocommit, String schema) {
        Items items = items(sql, mode, autocommit, schema, Diagnostics.empty());
        if (items == null || items.list().stream().allMatch(i -> i.value() == null)) {
            return null;
        }
        StringBuilder out = new StringBuilder(sql.length() + 64);
        int at = 0;
        for (Item item : items.list()) {
            if (item.value() == null) {
                continue;
            }
            out.append(sql, at, item.start()).append(literal(item.value()));
            if (!item.aliased()) {
                out.append(" AS `").append(item.label().replace("`", "``")).append('`');
            }
            at = item.end();
        }
        return out.append(sql, at, sql.length()).toString();
    }

    /** A value as a literal any sql_mode reads the same: digits, NULL, or utf8mb4 text as hex. */
    private static String literal(Value value) {
        String text = value.text();
        if (text == null) {
            return "NULL";
        }
        if (value.numeric() && text.matches("-?[0-9]{1,18}")) {
            return text;
        }
        StringBuilder hex = new StringBuilder("_utf8mb4 X'");
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return hex.append('\'').toString();
    }

    /**
     * One select item: its text span, label, whether the user aliased it, and its value here (null:
     * unknown); {@code user} is the user variable's typed value when the item reads one.
     */
    /** @param source the variable's lower-case name, or the function's with "()" (null for a user variable) */
    private record Item(int start, int end, String label, boolean aliased, Value value, UserVariables.Value user, String source) {}

    private record Items(List<Item> list, long limit) {}

    /**
     * The items of a {@code SELECT @@a [AS x], DATABASE(), ... [LIMIT n]} statement, or null when it
     * is not one. One pass over the tokens of that small grammar (hence its length).
     */
    private Items items(String sql, LexicalMode mode, boolean autocommit, String schema, Diagnostics diagnostics) {
        if (sql.indexOf('@') < 0 && sql.indexOf("()") < 0) {
            return null; // the common case, decided without lexing: data statements pay nothing here
        }
        List<Token> tokens = StatementTokens.of(sql, mode);
        if (tokens.size() < 2 || !word(sql, tokens.get(0)).equals("select")) {
            return null;
        }
        List<Item> items = new ArrayList<>();
        long limit = Long.MAX_VALUE;
        int i = 1;
        while (i < tokens.size()) {
            Token t = tokens.get(i);
            Value value;
            String label;
            int start = t.start();
            int end;
            UserVariables.Value user = null;
            String source = null;
            if (t.kind() == TokenKind.USER_VARIABLE) {
                user = users.get(UserVariables.name(t.text(sql)));
                value = new Value(user.text(), false);
                label = t.text(sql);
                end = t.end();
                i++;
            } else if (t.kind() == TokenKind.SYSTEM_VARIABLE) {
                String name = variableName(t.text(sql));
                source = name;
                value = switch (name) {
                    case "autocommit" -> new Value(autocommit ? "1" : "0", true);
                    // the session's transaction, not the default backend's connection (which may not be in it)
                    case "in_transaction" -> new Value(inTransaction.getAsBoolean() ? "1" : "0", true, true);
                    case "warning_count" -> new Value(Integer.toString(diagnostics.warningCount()), true);
                    case "error_count" -> new Value(Integer.toString(diagnostics.errorCount()), true);
                    default -> value(name);
                };
                label = t.text(sql);
                end = t.end();
                i++;
            } else if (i + 2 < tokens.size() && tokens.get(i + 1).kind() == TokenKind.LEFT_PAREN
                    && tokens.get(i + 2).kind() == TokenKind.RIGHT_PAREN) {
                source = word(sql, t) + "()";
                value = function(word(sql, t), schema);
                label = sql.substring(t.start(), tokens.get(i + 2).end());
                end = tokens.get(i + 2).end();
                i += 3;
            } else {
                return null;
            }
            boolean aliased = false;
            if (i < tokens.size() && word(sql, tokens.get(i)).equals("as")) {
                i++;
            }
            if (i < tokens.size() && isAlias(sql, tokens.get(i))) {
                label = unquote(tokens.get(i).text(sql));
                aliased = true;
                i++;
            }
            items.add(new Item(start, end, label, aliased, value, user, source));
            if (i < tokens.size() && tokens.get(i).kind() == TokenKind.COMMA) {
                i++;
            } else {
                break;
            }
        }
        if (i < tokens.size() && word(sql, tokens.get(i)).equals("limit") && i + 1 < tokens.size()
                && tokens.get(i + 1).kind() == TokenKind.INTEGER) {
            limit = Long.parseLong(tokens.get(i + 1).text(sql));
            i += 2;
        }
        if (i != tokens.size() || items.isEmpty()) {
            return null;
        }
        return new Items(items, limit);
    }

    private Value function(String name, String schema) {
        return switch (name) {
            case "database", "schema" -> new Value(schema, false);
            case "user", "session_user", "system_user" -> new Value(client.user() + "@" + client.host(), false);
            case "current_user" -> new Value(client.user() + "@%", false);
            case "connection_id" -> new Value(Integer.toString(client.connectionId()), true);
            case "last_insert_id" -> new Value(Long.toUnsignedString(lastInsertId.getAsLong()), true);
            case "version" -> lookup("version");
            default -> null;
        };
    }

    void inTransaction(BooleanSupplier inTransaction) {
        this.inTransaction = inTransaction;
    }

    void lastInsertId(java.util.function.LongSupplier lastInsertId) {
        this.lastInsertId = lastInsertId;
    }

    /** From now on wait_timeout starts as interactive_timeout (as it stands now, if this session already changed it). */
    void interactive() {
        interactive = true;
        if (changed != null && changed.containsKey("interactive_timeout") && !changed.containsKey("wait_timeout")) {
            Value interactiveTimeout = lookup("interactive_timeout");
            changed.put("wait_timeout", interactiveTimeout == null ? REMOVED : interactiveTimeout);
        }
    }

    /** This session's value of a variable it knows (lower-case name), or null (unknown, or NULL). */
    String text(String name) {
        Value v = value(name);
        return v == null ? null : v.text();
    }

    /** A variable's default (the default backend's own value where it decides it), or null when unknown. */
    String defaultText(String name) {
        Value v = defaults().get(name);
        return v == null ? null : v.text();
    }

    /** Variables this session holds a value of its own for (what an idle session costs beyond the shared defaults). */
    int ownValues() {
        return changed == null ? 0 : changed.size();
    }

    /** Whether two sessions read one table of defaults (sessions of one server must not each build a copy). */
    boolean sharesDefaultsWith(SessionVariables other) {
        return defaults() == other.defaults();
    }

    /** Back to the defaults (COM_RESET_CONNECTION). */
    void reset() {
        changed = null;
        results = ResultsCharset.DEFAULT;
    }

    /** The collation this session's results are described in, as its last SET NAMES or character_set_results left it. */
    ResultsCharset results() {
        return results;
    }

    /** {@code collation} (of {@code charset}) as results' description, or the current one when the table does not know it. */
    private ResultsCharset results(Collations table, Collations.Collation collation) {
        int id = collation == null ? -1 : table.id(collation);
        return id < 0 ? results : new ResultsCharset(id, ResultsCharset.maxBytes(collation.charset()));
    }

    /** Updates this session's values after {@code sql}, a SET statement read in the default mode, succeeded. */
    void recordSet(String sql) {
        record(SetStatement.parse(sql, LexicalMode.DEFAULT));
    }

    /** Updates this session's values after {@code set} succeeded. */
    void record(SetStatement set) {
        for (SetStatement.Assignment a : set.assignments()) {
            switch (a) {
                case SetStatement.Names n -> names(n);
                case SetStatement.Transaction t -> {
                    // isolation and access mode are the engine's session's (value(...) reads them there), not recorded here
                }
                case SetStatement.Variable v -> variable(v);
                case SetStatement.User u -> { } // the engine keeps user variables (UserVariables)
            }
        }
    }

    /**
     * NAMES sets the client's, connection's and results' character sets and the connection's collation
     * (the named one, else the character set's default); CHARACTER SET the client's and results', the
     * connection's being the database's.
     */
    private void names(SetStatement.Names n) {
        Collations table = collations.get();
        String charset = table.charsetName(n.charset().equalsIgnoreCase("default") ? "utf8mb4" : n.charset());
        put("character_set_client", charset);
        put("character_set_results", charset);
        if (n.names()) {
            put("character_set_connection", charset);
            Collations.Collation named = n.collation() != null ? table.collation(n.collation(), null) : table.charset(charset);
            results = results(table, named); // MySQL's results carry the collation NAMES named, not only its character set
            if (named != null) {
                put("collation_connection", named.name());
            } else if (n.collation() != null) {
                put("collation_connection", n.collation());
            }
        } else {
            put("character_set_connection", text("character_set_database"));
            put("collation_connection", text("collation_database"));
            results = results(table, table.charset(charset));
        }
    }

    private void variable(SetStatement.Variable v) {
        String name = v.name();
        switch (name) {
            case "transaction_isolation", "tx_isolation", "transaction_read_only", "tx_read_only" -> {
                return; // the engine's session owns them (value(...) reads them there): no copy here to drift
            }
            default -> { }
        }
        if (name.equals("character_set_results") && v.literal()) {
            // NULL: no conversion, each column as its value is; DEFAULT: the server's
            results = v.isDefault() ? ResultsCharset.DEFAULT : v.plain().equalsIgnoreCase("null") ? ResultsCharset.UNCONVERTED
                    : results(collations.get(), collations.get().charset(collations.get().charsetName(v.plain())));
        }
        if (v.literal() && !v.isDefault() && name.startsWith("character_set_") && !v.plain().equalsIgnoreCase("null")) {
            String charset = collations.get().charsetName(v.plain());
            put(name, charset);
            if (name.equals("character_set_connection")) {
                Collations.Collation c = collations.get().charset(charset);
                if (c != null) {
                    put("collation_connection", c.name()); // as MySQL: the connection's collation follows its character set
                }
            }
            return;
        }
        if (!v.literal()) {
            // an expression (CONCAT(@@sql_mode, ',X')): only a backend with the session's state knows its value
            changed().put(name, REMOVED);
            return;
        }
        String value = v.plain();
        if (v.isDefault()) {
            Value initial = defaults().get(name);
            value = initial == null ? null : initial.text();
        }
        put(name, value == null || value.equalsIgnoreCase("null") ? null : value);
    }

    private void put(String name, String text) {
        Value old = lookup(name);
        changed().put(name, new Value(text, old != null && old.numeric()));
    }

    /**
     * As MariaDB 11.4 describes the value: a boolean variable as BIGINT(1), another integer one as BIGINT(21) UNSIGNED
     * (the integer variables answered here are all unsigned), LAST_INSERT_ID() as a NOT NULL BIGINT(21) UNSIGNED and
     * CONNECTION_ID() as a NOT NULL INT(10) UNSIGNED (checked by WireFidelityServerTest); those are the wire's lengths,
     * the JDBC face keeps Connector/J's (20 for BIGINT UNSIGNED, as before).
     */
    private static Column column(String label, Value value, String source) {
        int unsignedBinary = Column.FLAG_BINARY | Column.FLAG_UNSIGNED;
        if (value.numeric() && source != null) {
            switch (source) {
                case "connection_id()" -> {
                    return new Column("", "", "", label, "", Column.BINARY_COLLATION, 10, 3, unsignedBinary | Column.FLAG_NOT_NULL, 0,
                            10);
                }
                case "last_insert_id()" -> {
                    return new Column("", "", "", label, "", Column.BINARY_COLLATION, 20, 8, unsignedBinary | Column.FLAG_NOT_NULL, 0,
                            21);
                }
                default -> {
                    return BOOLEANS.contains(source)
                            ? new Column("", "", "", label, "", Column.BINARY_COLLATION, 21, 8, Column.FLAG_BINARY, 0, 1)
                            : new Column("", "", "", label, "", Column.BINARY_COLLATION, 20, 8, unsignedBinary, 0, 21);
                }
            }
        }
        return value.unsigned()
                ? new Column("", "", "", label, "", Column.BINARY_COLLATION, 20, 8, unsignedBinary, 0)
                : value.numeric()
                ? new Column("", "", "", label, "", Column.BINARY_COLLATION, 21, 8, Column.FLAG_BINARY, 0)
                : new Column("", "", "", label, "", 45, 4 * Math.max(value.text() == null ? 0 : value.text().length(), 1), 253, 0,
                        value.decimals());
    }

    private static boolean isAlias(String sql, Token t) {
        return switch (t.kind()) {
            case IDENTIFIER, QUOTED_IDENTIFIER, STRING -> true;
            case KEYWORD -> !word(sql, t).equals("limit") && !word(sql, t).equals("from");
            default -> false;
        };
    }

    private static String variableName(String text) {
        String name = text.substring(2).toLowerCase(Locale.ROOT).replace("`", "");
        for (String scope : new String[] {"session.", "local.", "global."}) {
            if (name.startsWith(scope)) {
                return name.substring(scope.length());
            }
        }
        return name;
    }

}
