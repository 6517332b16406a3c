package io.shardwise.core.sample;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The oracle a differential suite compares sharded results with must hold the very rows the shards
 * hold together: checked here as multisets, read back over JDBC from both sides.
 */
class SampleOracleTest {
    private static MysqlServer server;
    private static SampleTarget target;
    private static ShardingRule rule;
    private static String oracle;

    @BeforeAll
    static void load() {
        server = TestBackends.shared();
        target = SampleDb.target(server, TestBackends.uniqueSchemaName("sample_oracle"));
        oracle = target.databasePrefix() + "_all";
        rule = SampleData.rule(target);
        SampleData.loadSharded(rule);
        long start = System.nanoTime();
        SampleData.loadUnsharded(target, oracle);
        System.out.printf("[sample] loadUnsharded took %d ms%n", (System.nanoTime() - start) / 1_000_000);
    }

    @AfterAll
    static void drop() {
        if (rule != null) {
            SampleDb.dropDatabases(server, SampleDb.database(rule, "ds0"), SampleDb.database(rule, "ds1"), oracle);
        }
    }

    @Test
    void unionOfEachShardedTablesPhysicalTablesEqualsTheUnshardedTable() {
        for (SampleTable table : SampleData.tables()) {
            if (rule.table(table.name()) instanceof TableRule.Sharded sharded) {
                List<List<Object>> union = new ArrayList<>();
                for (DataNode node : sharded.nodes()) {
                    union.addAll(SampleDb.rows(server, SampleDb.database(rule, node.backend()), node.table(), table.columns()));
                }
                SampleDb.assertSameRows(unsharded(table), union, "union of the nodes of " + table.name());
            }
        }
    }

    @Test
    void everyCopyOfAnUnshardedTableEqualsTheOracle() {
        for (SampleTable table : SampleData.tables()) {
            if (!(rule.table(table.name()) instanceof TableRule.Sharded)) {
                for (DataNode node : rule.table(table.name()).nodes()) {
                    SampleDb.assertSameRows(unsharded(table),
                            SampleDb.rows(server, SampleDb.database(rule, node.backend()), node.table(), table.columns()),
                            table.name() + " on " + node);
                }
            }
        }
    }

    /** Both loaders could lose or mangle the same rows; the oracle must read back exactly as generated. */
    @Test
    void oracleReadsBackExactlyTheGeneratedRows() {
        for (SampleTable table : SampleData.tables()) {
            SampleDb.assertSameRows(table.rows(), unsharded(table), "oracle " + table.name());
        }
    }

    @Test
    void oracleHoldsOnlyTheLogicalTables() {
        List<String> names = SampleData.tables().stream().map(SampleTable::name).sorted().toList();
        org.junit.jupiter.api.Assertions.assertEquals(names, new ArrayList<>(SampleDb.tables(server, oracle)));
    }

    private static List<List<Object>> unsharded(SampleTable table) {
        return SampleDb.rows(server, oracle, table.name(), table.columns());
    }
}
