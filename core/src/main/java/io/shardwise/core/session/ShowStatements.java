package io.shardwise.core.session;

import static io.shardwise.core.rule.LogicalTables.like;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.rule.LogicalTables;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers SHOW and DESCRIBE over logical names. The logical tables are the configured ones plus the
 * default backend's tables that no configured node claims (single tables there), as the JDBC
 * driver's catalog lists them. A table is described by its first physical table, asked of its
 * backend with the client's own statement text (the logical name spliced out), so labels, column
 * order and types are exactly MySQL's; the answer is then renamed so no physical name leaks.
 *
 * <p>Hazard: statistics (SHOW INDEX's Cardinality, SHOW CREATE TABLE's AUTO_INCREMENT) are those of
 * the first physical table, not of the whole logical table. Each statement opens a short-lived
 * backend connection ({@link BackendCatalog}).
 */
final class ShowStatements {
    private static final String INFORMATION_SCHEMA = "information_schema";
    private static final Comparator<String> BY_NAME = LogicalTables.SHOW_ORDER;

    private final ShardingRule rule;
    private final LogicalTables tables;
    private final BackendCatalog catalog;
    private final InformationSchemaQueries informationSchema;
    private final Processlist processlist;
    private final SessionVariables.Client client;
    /** Whether the configuration marks the client's user an administrator (server.users[].admin). */
    private final boolean administrator;

    ShowStatements(ShardingRule rule, SessionHost host) {
        this.client = host.client();
        this.administrator = host.inProcess() || Administrators.isAdministrator(rule, client.user());
        this.rule = rule;
        this.tables = rule.logicalTables();
        this.catalog = new BackendCatalog(rule);
        this.informationSchema = new InformationSchemaQueries(rule, catalog);
        this.processlist = new Processlist(host);
    }

    /**
     * The answer to {@code sql}, or null when it is neither a SHOW/DESCRIBE statement nor a query of
     * information_schema ({@link InformationSchemaQueries}).
     *
     * @param schema the session's current schema, or null
     * @throws ShardwiseException with MySQL's code (1235 for a SHOW form not answered, 1046, 1049,
     *     1146) or a backend's own error
     */
    ResultCursor answer(String sql, LexicalMode mode, String schema, SessionVariables variables, boolean autocommit) {
        ShowStatement show = ShowStatement.parse(sql, mode);
        if (show == null) {
            return informationSchema.answer(sql, mode, schema);
        }
        if (SystemSchemas.isSystemSchema(show.database())) {
            // SHOW TABLES FROM mysql, DESCRIBE mysql.user ...: the default backend's, for an administrator only
            if (!administrator) {
                throw new ShardwiseException(ErrorCode.DATABASE_ACCESS_DENIED, client.user(), client.host(), show.database());
            }
            return passThrough(show);
        }
        return switch (show.kind()) {
            case DATABASES -> databases(show);
            case TABLES -> tables(show, schema);
            case COLUMNS, CREATE_TABLE, INDEX -> table(show, schema);
            case TABLE_STATUS -> tableStatus(show, schema);
            case PROCESSLIST -> processlist.answer(show.sql());
            case VARIABLES -> variables(show, variables, autocommit);
            case BACKEND -> passThrough(show);
            case GRANTS -> grants(show);
            case REPLICATION -> {
                if (!administrator) {
                    throw new ShardwiseException(ErrorCode.SPECIFIC_ACCESS_DENIED, "SUPER, REPLICATION CLIENT");
                }
                yield passThrough(show);
            }
            case DIAGNOSTICS -> throw ShowStatement.unsupported(show.sql()); // a form DiagnosticStatements does not read
        };
    }

    private ResultCursor databases(ShowStatement show) {
        BackendCatalog.Answer answer = catalog.query(rule.config().defaultBackend(), show.sql());
        Pattern like = like(show.like());
        List<byte[][]> rows = new ArrayList<>();
        for (String name : List.of(INFORMATION_SCHEMA, rule.schema())) {
            if (like.matcher(name).matches()) {
                rows.add(new byte[][] {bytes(name)});
            }
        }
        return cursor(answer.columns(), rows);
    }

    private ResultCursor tables(ShowStatement show, String schema) {
        String database = database(show, schema);
        if (database.equalsIgnoreCase(INFORMATION_SCHEMA)) {
            return passThrough(show);
        }
        String backend = rule.config().defaultBackend();
        BackendCatalog.Answer answer = catalog.query(backend, show.physical(""));
        List<Column> columns = new ArrayList<>();
        for (Column c : answer.columns()) {
            columns.add(new Column(c.schema(), c.table(), c.orgTable(), tablesIn(c.name(), answer.database()),
                    tablesIn(c.orgName(), answer.database()), c.collation(), c.length(), c.mysqlType(), c.flags(), c.decimals()));
        }
        // the backend applied the statement's LIKE or WHERE to its own tables; configured tables get the LIKE
        Map<String, byte[][]> physical = new HashMap<>();
        for (byte[][] row : answer.rows()) {
            physical.put(new String(row[0], StandardCharsets.UTF_8), row);
        }
        List<byte[][]> rows = new ArrayList<>();
        for (String name : tables.matching(show.like(), physical.keySet(), BY_NAME)) {
            byte[][] row = physical.get(name);
            if (row == null || rule.isConfigured(name)) {
                row = columns.size() == 1 ? new byte[][] {bytes(name)} : new byte[][] {bytes(name), bytes("BASE TABLE")};
            }
            rows.add(row);
        }
        return cursor(columns, rows);
    }

    /**
     * SHOW TABLE STATUS: asked of every backend holding a first node (and the default backend, for
     * its single tables); each logical table keeps its first physical table's row, renamed.
     */
    private ResultCursor tableStatus(ShowStatement show, String schema) {
        if (database(show, schema).equalsIgnoreCase(INFORMATION_SCHEMA)) {
            return passThrough(show);
        }
        String defaultBackend = rule.config().defaultBackend();
        TreeMap<String, TreeMap<String, String>> wanted = new TreeMap<>(); // backend -> physical -> logical
        wanted.put(defaultBackend, new TreeMap<>(String.CASE_INSENSITIVE_ORDER));
        for (var firsts : tables.firstNodes().entrySet()) {
            wanted.computeIfAbsent(firsts.getKey(), b -> new TreeMap<>(String.CASE_INSENSITIVE_ORDER)).putAll(firsts.getValue());
        }
        Pattern like = like(show.like());
        List<Column> columns = null;
        TreeMap<String, byte[][]> rows = new TreeMap<>(BY_NAME);
        for (var backend : wanted.entrySet()) {
            BackendCatalog.Answer answer = catalog.query(backend.getKey(), "SHOW TABLE STATUS");
            if (columns == null) {
                columns = answer.columns();
            }
            for (byte[][] physical : answer.rows()) {
                String name = new String(physical[0], StandardCharsets.UTF_8);
                String logical = backend.getValue().get(name);
                if (logical == null && backend.getKey().equals(defaultBackend) && tables.isSingleOnDefault(name)) {
                    logical = name; // a single table of the default backend
                }
                if (logical != null && like.matcher(logical).matches()) {
                    byte[][] row = physical.clone();
                    row[0] = bytes(logical);
                    rows.put(logical, row);
                }
            }
        }
        return cursor(columns, List.copyOf(rows.values()));
    }

    /** SHOW COLUMNS / DESCRIBE, SHOW CREATE TABLE and SHOW INDEX of one logical table. */
    private ResultCursor table(ShowStatement show, String schema) {
        String database = database(show, schema);
        if (database.equalsIgnoreCase(INFORMATION_SCHEMA)) {
            return passThrough(show);
        }
        DataNode node = tables.describedBy(show.table());
        String logical = rule.table(show.table()).name();
        BackendCatalog.Answer answer = catalog.query(node.backend(),
                show.physical("`" + node.table().replace("`", "``") + "`"));
        List<byte[][]> rows = answer.rows();
        if (show.kind() != ShowStatement.Kind.COLUMNS) {
            int tableColumn = answer.index(show.kind() == ShowStatement.Kind.INDEX ? "Table" : answer.columns().getFirst().name());
            rows = new ArrayList<>(rows.size());
            for (byte[][] physical : answer.rows()) {
                byte[][] row = physical.clone();
                row[tableColumn] = bytes(logical);
                if (show.kind() == ShowStatement.Kind.CREATE_TABLE && row.length > 1 && row[1] != null) {
                    row[1] = bytes(Pattern.compile("`" + Pattern.quote(node.table()) + "`", Pattern.CASE_INSENSITIVE)
                            .matcher(new String(row[1], StandardCharsets.UTF_8))
                            .replaceFirst(Matcher.quoteReplacement("`" + logical.replace("`", "``") + "`")));
                }
                rows.add(row);
            }
        }
        return cursor(answer.rename(rule.schema(), node.table(), logical), rows);
    }

    /** Whether any backend holds a database of that name (a cold path: USE of a database that is not the logical one). */
    boolean existsOnABackend(String name) {
        StringBuilder hex = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hex.append(String.format("%02x", b & 0xFF));
        }
        for (String backend : rule.config().backends().keySet()) {
            try {
                if (!catalog.query(backend, "SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = _utf8mb4 X'" + hex + "'")
                        .rows().isEmpty()) {
                    return true;
                }
            } catch (RuntimeException unreachable) {
                // a backend that cannot answer holds nothing we can show
            }
        }
        return false;
    }

    /** COM_FIELD_LIST: the columns of a logical table of the current schema whose names match {@code wildcard}. */
    List<Column> fieldList(String name, String wildcard, String schema) {
        if (schema == null) {
            throw new ShardwiseException(ErrorCode.NO_DATABASE_SELECTED);
        }
        DataNode node = tables.describedBy(name);
        TableRule table = rule.table(name);
        BackendCatalog.Answer answer = catalog.query(node.backend(),
                "SELECT * FROM `" + node.table().replace("`", "``") + "` LIMIT 0");
        Pattern like = like(wildcard == null || wildcard.isEmpty() ? null : wildcard);
        List<Column> columns = new ArrayList<>();
        for (Column c : answer.rename(rule.schema(), node.table(), table.name())) {
            if (like.matcher(c.name()).matches()) {
                columns.add(c);
            }
        }
        return columns;
    }

    private ResultCursor variables(ShowStatement show, SessionVariables variables, boolean autocommit) {
        BackendCatalog.Answer answer = catalog.query(rule.config().defaultBackend(), show.sql());
        List<byte[][]> rows = new ArrayList<>(answer.rows().size());
        for (byte[][] physical : answer.rows()) {
            byte[][] row = physical.clone();
            String name = new String(row[0], StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
            String own = name.equals("autocommit") ? (autocommit ? "ON" : "OFF") : variables.text(name);
            if (own != null) {
                row[1] = bytes(spelledAsShown(own, row[1]));
            }
            rows.add(row);
        }
        return cursor(answer.columns(), rows);
    }

    /**
     * SHOW GRANTS for the client's own account: what the configuration gives it, as MySQL words a grant
     * (the backend's account, which Shardwise logs in with, is not the client's and never shows). Another
     * account's grants are read from the {@code mysql} schema, which a non-administrator may not read: 1044.
     */
    private ResultCursor grants(ShowStatement show) {
        String user = client.user();
        String account = show.table();
        if (account != null) {
            String named = unquoteAccount(account);
            if (!named.equalsIgnoreCase("current_user") && !named.equalsIgnoreCase("current_user()") && !named.equals(user)
                    && !named.equals(user + "@%")) {
                throw new ShardwiseException(ErrorCode.DATABASE_ACCESS_DENIED, user, client.host(), "mysql");
            }
        }
        String to = " TO `" + user.replace("`", "``") + "`@`%`";
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"GRANT USAGE ON *.*" + to});
        rows.add(new String[] {"GRANT ALL PRIVILEGES ON `" + rule.schema().replace("`", "``") + "`.*" + to});
        if (administrator) {
            for (String system : Administrators.SYSTEM_SCHEMAS) {
                rows.add(new String[] {"GRANT SELECT ON `" + system + "`.*" + to});
            }
        }
        return ValuesCursor.text(List.of("Grants for " + user + "@%"), rows);
    }

    /** {@code 'app'@'%'}, {@code `app`@`%`} or {@code app} as {@code app@%} / {@code app}. */
    private static String unquoteAccount(String account) {
        return account.replace("'", "").replace("`", "").replace("\"", "").replace(" ", "");
    }

    /**
     * SHOW VARIABLES spells a boolean as the server does ({@code ON}/{@code OFF}), where a SELECT of it
     * reads {@code 1}/{@code 0}: the session's value in the spelling of the backend's row.
     */
    static String spelledAsShown(String own, byte[] shown) {
        String backend = shown == null ? "" : new String(shown, StandardCharsets.UTF_8);
        if (backend.equalsIgnoreCase("ON") || backend.equalsIgnoreCase("OFF")) {
            if (own.equals("1")) {
                return "ON";
            }
            if (own.equals("0")) {
                return "OFF";
            }
        }
        return own;
    }

    private ResultCursor passThrough(ShowStatement show) {
        BackendCatalog.Answer answer = catalog.query(rule.config().defaultBackend(), show.sql());
        return cursor(answer.columns(), answer.rows());
    }

    /** The database a statement lists: the one it names, else the current one; only the logical schema and information_schema exist. */
    private String database(ShowStatement show, String schema) {
        String database = show.database() != null ? show.database() : schema;
        if (database == null) {
            throw new ShardwiseException(ErrorCode.NO_DATABASE_SELECTED);
        }
        if (!database.equalsIgnoreCase(rule.schema()) && !database.equalsIgnoreCase(INFORMATION_SCHEMA)) {
            throw new ShardwiseException(ErrorCode.UNKNOWN_DATABASE, database);
        }
        return database;
    }

    /** {@code Tables_in_shop_0 (pattern)} becomes {@code Tables_in_shop (pattern)}. */
    private String tablesIn(String label, String physicalDatabase) {
        String prefix = "Tables_in_" + physicalDatabase;
        return label.regionMatches(true, 0, prefix, 0, prefix.length())
                ? "Tables_in_" + rule.schema() + label.substring(prefix.length()) : label;
    }

    private static ResultCursor cursor(List<Column> columns, List<byte[][]> rows) {
        return new ValuesCursor(columns, rows);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
