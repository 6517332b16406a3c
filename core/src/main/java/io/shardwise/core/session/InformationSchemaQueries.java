package io.shardwise.core.session;

import static io.shardwise.core.sql.normalize.StatementTokens.isName;
import static io.shardwise.core.sql.normalize.StatementTokens.unquote;
import static io.shardwise.core.sql.normalize.StatementTokens.word;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.normalize.SqlLexer;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Queries over {@code information_schema} answered over logical names: each reference to a
 * per-database table ({@code information_schema.TABLES} ...) is spliced into a derived table of the
 * same name and columns that holds only the logical tables, each as its first physical table
 * renamed ({@link LogicalCatalog}), so the client's own WHERE, joins, ORDER BY and projections run
 * on the default backend as written. {@code DATABASE()} becomes the logical schema's name. Server-wide
 * tables (COLLATIONS ...) run as they are; any other information_schema table gets 1235 naming it.
 *
 * <p>Statistics of a sharded table in TABLES are its whole table's: TABLE_ROWS, DATA_LENGTH,
 * INDEX_LENGTH and DATA_FREE summed over its physical tables, AUTO_INCREMENT their largest (read from
 * each backend when a query names TABLES). Hazard: STATISTICS' CARDINALITY stays the first physical
 * table's, as with SHOW. The column lists of the backend's information_schema tables are
 * cached per backend URL for the life of the process.
 */
final class InformationSchemaQueries {
    /** How one per-database table names databases and tables; the first pair decides which rows are shown. */
    private record Mapped(List<String> schemaColumns, List<String[]> tableColumns) {}

    private static final Map<String, Mapped> MAPPED = Map.ofEntries(
            Map.entry("SCHEMATA", new Mapped(List.of("SCHEMA_NAME"), List.of())),
            // stored routines live on the default backend's database (where CREATE PROCEDURE through Shardwise puts them)
            Map.entry("ROUTINES", new Mapped(List.of("ROUTINE_SCHEMA"), List.of())),
            Map.entry("PARAMETERS", new Mapped(List.of("SPECIFIC_SCHEMA"), List.of())),
            Map.entry("TABLES", new Mapped(List.of("TABLE_SCHEMA"), List.<String[]>of(new String[] {"TABLE_SCHEMA", "TABLE_NAME"}))),
            Map.entry("COLUMNS", new Mapped(List.of("TABLE_SCHEMA"), List.<String[]>of(new String[] {"TABLE_SCHEMA", "TABLE_NAME"}))),
            Map.entry("STATISTICS", new Mapped(List.of("TABLE_SCHEMA", "INDEX_SCHEMA"),
                    List.<String[]>of(new String[] {"TABLE_SCHEMA", "TABLE_NAME"}))),
            Map.entry("KEY_COLUMN_USAGE", new Mapped(List.of("CONSTRAINT_SCHEMA", "TABLE_SCHEMA", "REFERENCED_TABLE_SCHEMA"),
                    List.of(new String[] {"TABLE_SCHEMA", "TABLE_NAME"},
                            new String[] {"REFERENCED_TABLE_SCHEMA", "REFERENCED_TABLE_NAME"}))),
            Map.entry("TABLE_CONSTRAINTS", new Mapped(List.of("CONSTRAINT_SCHEMA", "TABLE_SCHEMA"),
                    List.<String[]>of(new String[] {"TABLE_SCHEMA", "TABLE_NAME"}))),
            // what dumps read (mariadb-dump: triggers of each table, tablespaces of the database's partitions)
            Map.entry("TRIGGERS", new Mapped(List.of("EVENT_OBJECT_SCHEMA", "TRIGGER_SCHEMA"),
                    List.<String[]>of(new String[] {"EVENT_OBJECT_SCHEMA", "EVENT_OBJECT_TABLE"}))),
            Map.entry("PARTITIONS", new Mapped(List.of("TABLE_SCHEMA"), List.<String[]>of(new String[] {"TABLE_SCHEMA", "TABLE_NAME"}))),
            Map.entry("FILES", new Mapped(List.of("TABLE_SCHEMA"), List.<String[]>of(new String[] {"TABLE_SCHEMA", "TABLE_NAME"}))),
            Map.entry("REFERENTIAL_CONSTRAINTS", new Mapped(List.of("CONSTRAINT_SCHEMA", "UNIQUE_CONSTRAINT_SCHEMA"),
                    List.of(new String[] {"CONSTRAINT_SCHEMA", "TABLE_NAME"},
                            new String[] {"UNIQUE_CONSTRAINT_SCHEMA", "REFERENCED_TABLE_NAME"}))));

    /** Tables that describe the server, not a database: nothing in them names a physical table. */
    private static final Set<String> SERVER_WIDE = Set.of("CHARACTER_SETS", "COLLATIONS",
            "COLLATION_CHARACTER_SET_APPLICABILITY", "ENGINES", "KEYWORDS", "SQL_FUNCTIONS", "PLUGINS");

    private static final Map<String, List<String>> COLUMN_LISTS = new ConcurrentHashMap<>();
    private static final String INFORMATION_SCHEMA = "information_schema";

    private final ShardingRule rule;
    private final BackendCatalog catalog;
    /** Built on first use: a configuration it cannot describe fails the information_schema query, not the session. */
    private LogicalCatalog logical;

    InformationSchemaQueries(ShardingRule rule, BackendCatalog catalog) {
        this.rule = rule;
        this.catalog = catalog;
    }

    private LogicalCatalog logical() {
        if (logical == null) {
            logical = new LogicalCatalog(rule);
        }
        return logical;
    }

    /** Whether {@code sql} names information_schema at all; a scan without allocation, for every statement. */
    static boolean mentions(String sql) {
        int n = sql.length() - INFORMATION_SCHEMA.length();
        for (int i = 0; i <= n; i++) {
            char c = sql.charAt(i);
            if ((c == 'i' || c == 'I') && sql.regionMatches(true, i, INFORMATION_SCHEMA, 0, INFORMATION_SCHEMA.length())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The answer to a statement naming information_schema, or null when it names none.
     *
     * @param schema the session's current schema, or null
     * @throws ShardwiseException 1235 naming an information_schema table not answered over logical names
     */
    ResultCursor answer(String sql, LexicalMode mode, String schema) {
        if (!mentions(sql)) {
            return null;
        }
        statistics = null; // read anew for each statement: they change with the data
        String defaultBackend = rule.config().defaultBackend();
        String rewritten;
        // asking every backend costs a connection each: only for a statement that may read a figure
        wholeStatistics = STATISTIC_READ.matcher(sql).find();
        try {
            rewritten = rewrite(sql, mode, schema, table -> columnList(defaultBackend, table));
        } finally {
            wholeStatistics = false;
        }
        if (rewritten == null) {
            return null;
        }
        BackendCatalog.Answer answer = catalog.query(defaultBackend, rewritten);
        Map<String, String> spelled = selectListNames(sql, mode);
        List<Column> columns = new ArrayList<>(answer.columns().size());
        for (Column c : answer.columns()) {
            String db = logical().isPhysicalDatabase(c.schema()) ? logical().schema() : c.schema();
            // a derived table's columns are labelled as it names them; MySQL labels a column as the select list spells it
            String label = spelled.getOrDefault(c.name().toLowerCase(Locale.ROOT), c.name());
            columns.add(new Column(db, c.table(), c.orgTable(), label, c.orgName(), c.collation(), c.length(),
                    c.mysqlType(), c.flags(), c.decimals()));
        }
        return new ValuesCursor(columns, answer.rows());
    }

    /**
     * {@code sql} with each information_schema table it reads replaced by its logical view, or null
     * when it reads none (information_schema only in a string, say).
     *
     * @param columnsOf the backend's column names of an information_schema table (upper-case name)
     */
    String rewrite(String sql, String schema, Function<String, List<String>> columnsOf) {
        return rewrite(sql, LexicalMode.DEFAULT, schema, columnsOf);
    }

    /** @param mode the lexical mode the statement is read in (with ANSI_QUOTES, {@code "information_schema"} is a name) */
    String rewrite(String sql, LexicalMode mode, String schema, Function<String, List<String>> columnsOf) {
        List<Token> t = StatementTokens.of(sql, mode);
        StringBuilder out = new StringBuilder(sql.length() + 512);
        int copied = 0;
        boolean found = false;
        for (int i = 0; i < t.size(); i++) {
            Token token = t.get(i);
            if (isName(token) && unquote(token.text(sql)).equalsIgnoreCase(INFORMATION_SCHEMA)
                    && i + 2 < t.size() && t.get(i + 1).kind() == TokenKind.DOT && isName(t.get(i + 2))) {
                String table = unquote(t.get(i + 2).text(sql)).toUpperCase(Locale.ROOT);
                boolean columnReference = i + 3 < t.size() && t.get(i + 3).kind() == TokenKind.DOT;
                out.append(sql, copied, token.start());
                if (columnReference) {
                    out.append(sql, t.get(i + 2).start(), t.get(i + 2).end()); // information_schema.T.c reads the derived T
                } else if (SERVER_WIDE.contains(table)) {
                    out.append(sql, token.start(), t.get(i + 2).end());
                } else {
                    Mapped mapped = MAPPED.get(table);
                    if (mapped == null) {
                        throw unsupported(table);
                    }
                    out.append('(').append(view(table, mapped, columnsOf.apply(table))).append(')');
                    if (!hasAlias(sql, t, i + 3)) {
                        out.append(" AS `").append(table).append('`');
                    }
                    found = true;
                }
                copied = t.get(i + 2).end();
                i += 2;
            } else if (isName(token) && i + 2 < t.size() && t.get(i + 1).kind() == TokenKind.LEFT_PAREN
                    && t.get(i + 2).kind() == TokenKind.RIGHT_PAREN
                    && (word(sql, token).equals("database") || word(sql, token).equals("schema"))) {
                // on the backend DATABASE() is the physical database; the client means the logical one
                out.append(sql, copied, token.start()).append(schema == null ? "NULL" : LogicalCatalog.quote(schema));
                copied = t.get(i + 2).end();
                i += 2;
            }
        }
        if (!found) {
            return null;
        }
        String first = t.isEmpty() ? "" : word(sql, t.getFirst());
        if (!first.equals("select") && !first.equals("with") && !first.equals("(")) {
            // it would run outside the session's transaction and write physical rows or names somewhere
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "information_schema in a statement other than SELECT");
        }
        return out.append(sql, copied, sql.length()).toString();
    }

    /** The identifiers of the outermost select list by lower-case name, as the statement spells them. */
    private static Map<String, String> selectListNames(String sql, LexicalMode mode) {
        Map<String, String> names = new java.util.HashMap<>();
        int depth = 0;
        boolean started = false;
        for (Token t : StatementTokens.of(sql, mode)) {
            switch (t.kind()) {
                case LEFT_PAREN -> depth++;
                case RIGHT_PAREN -> depth--;
                case IDENTIFIER, QUOTED_IDENTIFIER, KEYWORD -> {
                    String word = word(sql, t);
                    if (depth == 0 && word.equals("select")) {
                        started = true;
                    } else if (depth == 0 && word.equals("from")) {
                        return names;
                    } else if (started) {
                        String name = unquote(t.text(sql));
                        names.putIfAbsent(name.toLowerCase(Locale.ROOT), name);
                    }
                }
                default -> { }
            }
        }
        return names;
    }

    /** The derived table for one information_schema table: its columns in order, names mapped, only logical rows. */
    private String view(String table, Mapped mapped, List<String> columns) {
        StringBuilder select = new StringBuilder(1024).append("SELECT ");
        for (int c = 0; c < columns.size(); c++) {
            String column = columns.get(c);
            if (c > 0) {
                select.append(", ");
            }
            String[] pair = pairFor(mapped, column);
            String whole = table.equals("TABLES") ? statistic(column) : null;
            if (whole != null) {
                select.append(whole);
            } else if (mapped.schemaColumns().stream().anyMatch(column::equalsIgnoreCase)) {
                select.append(logical().schemaExpression(ident(column)));
            } else if (pair != null) {
                select.append(logical().tableExpression(ident(pair[0]), ident(pair[1])));
            } else {
                select.append(ident(column));
                continue;
            }
            select.append(" AS ").append(ident(column));
        }
        select.append(" FROM information_schema.").append(ident(table)).append(" WHERE ");
        if (mapped.tableColumns().isEmpty()) {
            select.append(logical().schemaFilter(ident(mapped.schemaColumns().getFirst())));
        } else {
            String[] first = mapped.tableColumns().getFirst();
            select.append(logical().tableFilter(ident(first[0]), ident(first[1])));
        }
        return select.toString();
    }

    /** TABLES' statistics a sharded table has over all its physical tables: summed, or the largest. */
    private static final List<String> SUMMED = List.of("TABLE_ROWS", "DATA_LENGTH", "INDEX_LENGTH", "DATA_FREE");
    private static final String LARGEST = "AUTO_INCREMENT";
    private static final java.util.regex.Pattern STATISTIC_READ = java.util.regex.Pattern.compile(
            "(?i)\\*|TABLE_ROWS|DATA_LENGTH|INDEX_LENGTH|DATA_FREE|AUTO_INCREMENT");
    /** Per statement: column → CASE over each sharded table's first node, or none. */
    private Map<String, String> statistics;
    /** Set while {@link #answer} rewrites: only then are the backends asked for statistics. */
    private boolean wholeStatistics;

    /**
     * {@code column} of TABLES as the whole sharded tables' figure (a CASE naming each one's first
     * node), or null for any other column. Each backend is asked once for its nodes' figures; a
     * table with a node missing, or a figure the backend leaves NULL, keeps the first node's.
     */
    private String statistic(String column) {
        String upper = column.toUpperCase(Locale.ROOT);
        if (!wholeStatistics || !SUMMED.contains(upper) && !upper.equals(LARGEST)) {
            return null;
        }
        if (statistics == null) {
            statistics = wholeTableStatistics();
        }
        String expression = statistics.get(upper);
        return expression;
    }

    private Map<String, String> wholeTableStatistics() {
        List<TableRule.Sharded> sharded = new ArrayList<>();
        Map<String, Set<String>> byBackend = new java.util.LinkedHashMap<>();
        for (TableRule t : rule.tables()) {
            if (t instanceof TableRule.Sharded s) {
                sharded.add(s);
                for (DataNode n : s.nodes()) {
                    byBackend.computeIfAbsent(n.backend(), b -> new java.util.LinkedHashSet<>()).add(n.table());
                }
            }
        }
        List<String> figures = new ArrayList<>(SUMMED);
        figures.add(LARGEST);
        Map<String, java.math.BigInteger[]> read = new java.util.HashMap<>(); // backend + table (lower case) → figures
        byBackend.forEach((backend, tables) -> {
            StringBuilder in = new StringBuilder();
            for (String table : tables) {
                in.append(in.isEmpty() ? "" : ", ").append(LogicalCatalog.quote(table));
            }
            BackendCatalog.Answer answer = catalog.query(backend, "SELECT TABLE_NAME, " + String.join(", ", figures)
                    + " FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (" + in + ")");
            for (byte[][] row : answer.rows()) {
                java.math.BigInteger[] values = new java.math.BigInteger[figures.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = row[i + 1] == null ? null : new java.math.BigInteger(new String(row[i + 1], StandardCharsets.US_ASCII));
                }
                read.put(backend + "\u0000" + new String(row[0], StandardCharsets.UTF_8).toLowerCase(Locale.ROOT), values);
            }
        });
        Map<String, StringBuilder> cases = new java.util.HashMap<>();
        for (TableRule.Sharded s : sharded) {
            DataNode first = s.nodes().getFirst();
            for (int f = 0; f < figures.size(); f++) {
                java.math.BigInteger total = java.math.BigInteger.ZERO;
                for (DataNode n : s.nodes()) {
                    java.math.BigInteger[] values = read.get(n.backend() + "\u0000" + n.table().toLowerCase(Locale.ROOT));
                    java.math.BigInteger v = values == null ? null : values[f];
                    if (v == null) {
                        total = null;
                        break;
                    }
                    total = figures.get(f).equals(LARGEST) ? total.max(v) : total.add(v);
                }
                if (total != null) {
                    cases.computeIfAbsent(figures.get(f), k -> new StringBuilder("CASE")).append(" WHEN `TABLE_SCHEMA` = ")
                            .append(LogicalCatalog.quote(logical().database(first.backend()))).append(" AND `TABLE_NAME` = ")
                            .append(LogicalCatalog.quote(first.table())).append(" THEN ").append(total);
                }
            }
        }
        Map<String, String> out = new java.util.HashMap<>();
        cases.forEach((column, sql) -> out.put(column, sql.append(" ELSE ").append(ident(column)).append(" END").toString()));
        return out;
    }

    private static String[] pairFor(Mapped mapped, String column) {
        for (String[] pair : mapped.tableColumns()) {
            if (pair[1].equalsIgnoreCase(column)) {
                return pair;
            }
        }
        return null;
    }

    private List<String> columnList(String backend, String table) {
        return COLUMN_LISTS.computeIfAbsent(rule.config().backends().get(backend).url() + "|" + table, key -> {
            BackendCatalog.Answer answer = catalog.query(backend, "SELECT * FROM information_schema." + ident(table) + " LIMIT 0");
            List<String> names = new ArrayList<>();
            for (Column c : answer.columns()) {
                names.add(c.name());
            }
            return List.copyOf(names);
        });
    }

    private static ShardwiseException unsupported(String table) {
        if (table.equals("PROCESSLIST")) {
            // the backends' list would show Shardwise's pooled connections, not the clients
            return new ShardwiseException(ErrorCode.UNSUPPORTED, "information_schema.PROCESSLIST (SHOW [FULL] PROCESSLIST lists this"
                    + " server's client sessions; the backends' list holds Shardwise's own connections)");
        }
        if (table.equals("VIEWS")) {
            // a view's text names physical tables of one backend: a logical name there would be a guess
            return new ShardwiseException(ErrorCode.UNSUPPORTED, "information_schema.VIEWS (a view lives on one backend and reads"
                    + " its physical tables; Shardwise serves no views over logical tables)");
        }
        return new ShardwiseException(ErrorCode.UNSUPPORTED, "information_schema." + table + " over logical names (answered: "
                + String.join(", ", new java.util.TreeSet<>(MAPPED.keySet())) + ", and server-wide tables such as COLLATIONS)");
    }

    private static boolean hasAlias(String sql, List<Token> t, int at) {
        if (at >= t.size()) {
            return false;
        }
        Token next = t.get(at);
        return next.kind() == TokenKind.IDENTIFIER || next.kind() == TokenKind.QUOTED_IDENTIFIER || word(sql, next).equals("as");
    }

    private static String ident(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

}
