package io.shardwise.core.sample;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Puts sample tables on servers over plain JDBC: decides which physical table each row belongs to
 * (through the rule, exactly as the router will) and writes each physical table afresh with batched
 * inserts. Not a Shardwise code path: it talks to the backends directly, so the data it writes is an
 * independent reference for testing the engine.
 */
final class SampleLoader {
    /** Rows per executeBatch; rewriteBatchedStatements turns each into one multi-row INSERT. */
    private static final int BATCH_ROWS = 1000;
    private static final int CONNECT_TIMEOUT_MS = 10_000;
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)(password\\d?|pwd)=[^&]*");

    private SampleLoader() {}

    /** One physical table to write: where, with which definition, which rows. */
    record NodeLoad(DataNode node, SampleTable table, List<List<Object>> rows) {}

    /** How to reach one server; {@code label} names it in errors. */
    record Endpoint(String label, String url, String user, String password) {
        @Override
        public String toString() {
            return label + " at " + redact(url);
        }
    }

    /** Every physical table the rule gives the sample tables, with its rows, in table then node order. */
    static List<NodeLoad> place(ShardingRule rule, List<SampleTable> tables) {
        List<NodeLoad> loads = new ArrayList<>();
        for (SampleTable table : tables) {
            switch (rule.table(table.name())) {
                case TableRule.Sharded sharded -> loads.addAll(shard(sharded, table));
                case TableRule.Broadcast broadcast -> {
                    for (DataNode node : broadcast.nodes()) {
                        loads.add(new NodeLoad(node, table, table.rows()));
                    }
                }
                case TableRule.Single single -> loads.add(new NodeLoad(single.node(), table, table.rows()));
            }
        }
        return loads;
    }

    private static List<NodeLoad> shard(TableRule.Sharded rule, SampleTable table) {
        int key = table.columnIndex(rule.keyColumn());
        if (key < 0) {
            throw new IllegalArgumentException("the rule shards " + table.name() + " by column " + rule.keyColumn()
                    + ", which the sample table does not have; its columns: " + table.columns());
        }
        Map<DataNode, List<List<Object>>> byNode = new LinkedHashMap<>();
        for (DataNode node : rule.nodes()) {
            byNode.put(node, new ArrayList<>()); // every node is created, even one that gets no row
        }
        for (List<Object> row : table.rows()) {
            Object value = row.get(key);
            DataNode node = value == null ? null : rule.nodeFor(value);
            if (node == null) {
                throw new ShardwiseException(ErrorCode.NO_ROUTE, rule.keyColumn(), value, table.name());
            }
            byNode.get(node).add(row);
        }
        List<NodeLoad> loads = new ArrayList<>();
        byNode.forEach((node, rows) -> loads.add(new NodeLoad(node, table, rows)));
        return loads;
    }

    /** Writes each load to the backend its node names, one connection per backend. */
    static void loadSharded(ShardingRule rule, List<NodeLoad> loads) {
        Map<String, List<NodeLoad>> byBackend = new LinkedHashMap<>();
        for (NodeLoad load : loads) {
            byBackend.computeIfAbsent(load.node().backend(), b -> new ArrayList<>()).add(load);
        }
        byBackend.forEach((name, backendLoads) -> {
            BackendConfig backend = rule.config().backends().get(name);
            if (backend == null) {
                throw new IllegalArgumentException("node " + backendLoads.getFirst().node() + " names backend " + name
                        + ", which the configuration does not define; defined: " + rule.config().backends().keySet());
            }
            write(new Endpoint("backend " + name, backend.url(), backend.user(), backend.password()), backendLoads);
        });
    }

    /** Drops, creates and fills each load's physical table on one server. */
    static void write(Endpoint endpoint, List<NodeLoad> loads) {
        try (Connection c = connect(endpoint)) {
            for (NodeLoad load : loads) {
                writeTable(c, endpoint, load);
            }
        } catch (SQLException e) {
            // only close() gets here; statement failures are reported by writeTable
            throw new IllegalStateException("closing the connection to " + endpoint + " failed: " + e.getMessage(), e);
        }
    }

    private static void writeTable(Connection c, Endpoint endpoint, NodeLoad load) {
        String physical = load.node().table();
        try {
            try (Statement s = c.createStatement()) {
                s.execute(load.table().dropSql(physical));
                s.execute(load.table().createSql(physical));
            }
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement(load.table().insertSql(physical))) {
                int pending = 0;
                for (List<Object> row : load.rows()) {
                    for (int i = 0; i < row.size(); i++) {
                        insert.setObject(i + 1, row.get(i));
                    }
                    insert.addBatch();
                    if (++pending == BATCH_ROWS) {
                        insert.executeBatch();
                        pending = 0;
                    }
                }
                if (pending > 0) {
                    insert.executeBatch();
                }
            }
            c.commit();
            c.setAutoCommit(true);
        } catch (SQLException e) {
            throw new IllegalStateException("loading sample table " + load.table().name() + " into " + load.node() + " on "
                    + endpoint + " failed: " + e.getMessage() + " (errno " + e.getErrorCode() + ", SQLSTATE "
                    + e.getSQLState() + ")", e);
        }
    }

    static Connection connect(Endpoint endpoint) {
        // Properties rather than URL parameters: passwords may hold '&' or '=', and the URL is printed.
        Properties props = new Properties();
        props.setProperty("user", endpoint.user());
        props.setProperty("password", endpoint.password());
        props.setProperty("rewriteBatchedStatements", "true");
        props.setProperty("characterEncoding", "UTF-8");
        props.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_MS));
        try {
            return DriverManager.getConnection(endpoint.url(), props);
        } catch (SQLException e) {
            throw new ShardwiseException(e, ErrorCode.SHARD_UNAVAILABLE, endpoint, "cannot connect as user '"
                    + endpoint.user() + "': " + e.getMessage() + " (SQLSTATE " + e.getSQLState() + ")");
        }
    }

    /** The URL with any password parameter masked, for messages. */
    static String redact(String url) {
        return PASSWORD_PARAMETER.matcher(url).replaceAll("$1=***");
    }
}
