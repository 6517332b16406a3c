package io.shardwise.core.execute;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import org.junit.jupiter.api.Test;

class BackendMessagesTest {
    // physical databases shop_x_0 (ds0) and shop_x_1 (ds1); logical schema shop
    private static final ShardingRule RULE = SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop_x"));
    private static final BackendMessages MESSAGES = BackendMessages.of(RULE);

    private static String ds0(int errno, String message) {
        return MESSAGES.logical("ds0", errno, message);
    }

    @Test
    void missingTablesAndColumnsNameTheLogicalSchemaAndTable() {
        assertEquals("Table 'shop.no_such_table' doesn't exist", ds0(1146, "Table 'shop_x_0.no_such_table' doesn't exist"));
        assertEquals("Table 'shop.orders' doesn't exist", ds0(1146, "Table 'shop_x_0.orders_1' doesn't exist"));
        assertEquals("Unknown column 'nope' in 'field list'", ds0(1054, "Unknown column 'nope' in 'field list'"));
        assertEquals("Unknown column 'orders.nope' in 'where clause'", ds0(1054, "Unknown column 'orders_0.nope' in 'where clause'"));
        assertEquals("Table 'orders' already exists", ds0(1050, "Table 'orders_0' already exists"));
        assertEquals("Unknown table 'shop.orders'", ds0(1051, "Unknown table 'shop_x_0.orders_0'"));
        assertEquals("Unknown database 'shop'", ds0(1049, "Unknown database 'shop_x_0'"));
    }

    @Test
    void foreignKeyAndDuplicateKeyErrorsNameLogicalTablesButKeepTheUsersValues() {
        assertEquals("Cannot add or update a child row: a foreign key constraint fails (`shop`.`order_items`, CONSTRAINT `fk`"
                        + " FOREIGN KEY (`order_id`) REFERENCES `orders` (`order_id`))",
                ds0(1452, "Cannot add or update a child row: a foreign key constraint fails (`shop_x_0`.`order_items_1`, CONSTRAINT `fk`"
                        + " FOREIGN KEY (`order_id`) REFERENCES `orders_1` (`order_id`))"));
        assertEquals("Duplicate entry 'orders_0' for key 'orders.PRIMARY'", ds0(1062, "Duplicate entry 'orders_0' for key 'orders_0.PRIMARY'"));
        assertEquals("Duplicate entry '5' for key 'PRIMARY'", ds0(1062, "Duplicate entry '5' for key 'PRIMARY'"));
        assertEquals("Incorrect integer value: 'shop_x_0.orders_0' for column `shop`.`orders`.`user_id` at row 1",
                ds0(1366, "Incorrect integer value: 'shop_x_0.orders_0' for column `shop_x_0`.`orders_0`.`user_id` at row 1"));
        assertEquals("Truncated incorrect DOUBLE value: 'orders_0'", ds0(1292, "Truncated incorrect DOUBLE value: 'orders_0'"));
    }

    @Test
    void onlyWholeIdentifiersAreReplacedAndADatabaseNameOnlyWhereItNamesTheDatabase() {
        assertEquals("Unknown column 'orders_01' in 'field list'", ds0(1054, "Unknown column 'orders_01' in 'field list'"));
        assertEquals("Unknown column 'xorders_0' in 'field list'", ds0(1054, "Unknown column 'xorders_0' in 'field list'"));
        // a column spelled like the physical database is a column, not the database
        assertEquals("Unknown column 'shop_x_0' in 'field list'", ds0(1054, "Unknown column 'shop_x_0' in 'field list'"));
        assertEquals("Table 'SHOP.orders' doesn't exist".replace("SHOP", "shop"), ds0(1146, "Table 'SHOP_X_0.ORDERS_0' doesn't exist"));
    }

    @Test
    void eachBackendHasItsOwnPhysicalNames() {
        assertEquals("Table 'shop.t' doesn't exist", MESSAGES.logical("ds1", 1146, "Table 'shop_x_1.t' doesn't exist"));
        assertEquals("Table 'shop_x_1.t' doesn't exist", ds0(1146, "Table 'shop_x_1.t' doesn't exist"));
        assertEquals("Table 'shop_x_0.t' doesn't exist", BackendMessages.NONE.logical("ds0", 1146, "Table 'shop_x_0.t' doesn't exist"));
    }

}
