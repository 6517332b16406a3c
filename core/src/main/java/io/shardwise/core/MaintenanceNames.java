package io.shardwise.core;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.Passthrough;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * ANALYZE, CHECK, OPTIMIZE, REPAIR and CHECKSUM TABLE of single tables run on their backend, whose answer names
 * each table in its {@code Table} column as that backend knows it ({@code shop_1.promotions}); one MariaDB names
 * it {@code shop.promotions}: the rows come back with the logical schema and table name there. A name the
 * statement does not configure (another database's table) is left as the backend wrote it.
 */
final class MaintenanceNames {
    private static final Set<String> VERBS = Set.of("analyze", "check", "optimize", "repair", "checksum");

    private MaintenanceNames() {}

    /** {@code result} of {@code statement}, its Table column in logical names when it is a table-maintenance answer. */
    static StatementResult logical(StatementResult result, Passthrough statement, String sql, LexicalMode mode, ShardingRule rule) {
        if (!(result instanceof StatementResult.Rows rows) || statement.tables().isEmpty()) {
            return result;
        }
        List<Column> columns = rows.cursor().columns();
        if (columns.isEmpty() || !columns.get(0).name().equalsIgnoreCase("Table")) {
            return result;
        }
        List<Token> t = StatementTokens.of(sql, mode);
        if (t.isEmpty() || !VERBS.contains(StatementTokens.word(sql, t.get(0)))) {
            return result;
        }
        Map<String, byte[]> names = new HashMap<>();
        for (TableRef table : statement.tables()) {
            if (rule.table(table.name()) instanceof TableRule.Single single) {
                BackendConfig backend = rule.config().backends().get(single.node().backend());
                String database = backend == null ? null : backend.address().database();
                if (database != null) {
                    names.put((database + "." + single.node().table()).toLowerCase(Locale.ROOT),
                            (rule.schema() + "." + table.name()).getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        return names.isEmpty() ? result : new StatementResult.Rows(new Renamed(rows.cursor(), names));
    }

    /** Column 0 of each row through {@code names} (physical {@code db.table}, lower case, to the logical name). */
    private record Renamed(ResultCursor rows, Map<String, byte[]> names) implements ResultCursor {
        @Override
        public List<Column> columns() {
            return rows.columns();
        }

        @Override
        public boolean next() {
            return rows.next();
        }

        @Override
        public byte[] get(int index) {
            byte[] value = rows.get(index);
            if (index != 0 || value == null) {
                return value;
            }
            byte[] logical = names.get(new String(value, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT));
            return logical == null ? value : logical;
        }

        @Override
        public void close() {
            rows.close();
        }
    }
}
