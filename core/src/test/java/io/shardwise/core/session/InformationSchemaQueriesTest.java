package io.shardwise.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The information_schema rewrite on the sample rule (databases sw_0 and sw_1 on one server), without a backend. */
class InformationSchemaQueriesTest {
    private static final ShardingRule RULE = SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "sw"));
    private static final Function<String, List<String>> COLUMNS = table -> switch (table) {
        case "SCHEMATA" -> List.of("CATALOG_NAME", "SCHEMA_NAME", "DEFAULT_CHARACTER_SET_NAME");
        case "TABLES" -> List.of("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "TABLE_ROWS");
        default -> List.of("TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME");
    };

    private static String rewrite(String sql) {
        return new InformationSchemaQueries(RULE, new BackendCatalog(RULE)).rewrite(sql, "shop", COLUMNS);
    }

    @Test
    void aTableReferenceBecomesALogicalDerivedTableUnderItsOwnNameOrAlias() {
        String sql = rewrite("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY 1");
        assertTrue(sql.startsWith("SELECT TABLE_NAME FROM (SELECT `TABLE_CATALOG`, CASE WHEN `TABLE_SCHEMA` IN ('sw_0', 'sw_1') THEN 'shop'"
                + " ELSE `TABLE_SCHEMA` END AS `TABLE_SCHEMA`, CASE WHEN `TABLE_SCHEMA` = 'sw_0' AND `TABLE_NAME` = 'orders_0' THEN 'orders'"), sql);
        assertTrue(sql.endsWith(") AS `TABLES` WHERE TABLE_SCHEMA = 'shop' ORDER BY 1"), sql);
        assertTrue(sql.contains("`TABLE_SCHEMA` = 'sw_1' AND `TABLE_NAME` IN ('promotions')"), "promotions' only node is on ds1: " + sql);
        assertTrue(sql.contains("`TABLE_NAME` NOT IN ("), "the default backend's other shard tables are hidden: " + sql);
        assertTrue(sql.contains(", `TABLE_ROWS` FROM information_schema.`TABLES` WHERE"), sql);

        String aliased = rewrite("select c.column_name from `information_schema`.`columns` as c join information_schema.tables t"
                + " on t.table_name = c.table_name");
        assertTrue(aliased.contains(") as c join ("), aliased);
        assertTrue(aliased.endsWith(") t on t.table_name = c.table_name"), aliased);
    }

    @Test
    void threePartColumnReferencesReadTheDerivedTable() {
        String sql = rewrite("SELECT information_schema.TABLES.TABLE_NAME FROM information_schema.TABLES");
        assertTrue(sql.startsWith("SELECT TABLES.TABLE_NAME FROM (SELECT "), sql);
    }

    @Test
    void schemataShowsTheDefaultBackendsDatabaseAndInformationSchemaOnly() {
        String sql = rewrite("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA");
        assertTrue(sql.contains("WHERE `SCHEMA_NAME` IN ('information_schema', 'sw_0')"), sql);
    }

    @Test
    void serverWideTablesRunAsWrittenAndOthersAreRefusedNamingTheTable() {
        assertNull(rewrite("SELECT * FROM information_schema.COLLATIONS"), "nothing to rewrite: the statement runs as written");
        assertNull(rewrite("SELECT 'information_schema.TABLES'"));
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> rewrite("SELECT * FROM information_schema.VIEWS"));
        assertEquals(1235, e.errno());
        assertTrue(e.getMessage().contains("information_schema.VIEWS"), e.getMessage());
        assertEquals(1235, assertThrows(ShardwiseException.class,
                () -> rewrite("SELECT * FROM information_schema.PROCESSLIST")).errno());
        ShardwiseException write = assertThrows(ShardwiseException.class,
                () -> rewrite("INSERT INTO names SELECT TABLE_NAME FROM information_schema.TABLES"));
        assertTrue(write.getMessage().contains("information_schema in a statement other than SELECT"), write.getMessage());
    }

    @Test
    void mentionsIsACaseInsensitiveScan() {
        assertTrue(InformationSchemaQueries.mentions("select * from INFORMATION_SCHEMA.tables"));
        assertFalse(InformationSchemaQueries.mentions("SELECT c FROM sbtest1 WHERE id = 42"));
        assertFalse(InformationSchemaQueries.mentions("information_schem"));
    }
}
