package io.shardwise.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShowStatementTest {
    private static String physical(String sql) {
        return ShowStatement.parse(sql).physical("`orders_0`");
    }

    @Test
    void theLogicalTableAndItsDatabaseClauseAreSplicedOutOfTheClientsText() {
        assertEquals("SHOW FULL COLUMNS FROM `orders_0` LIKE 'a%'", physical("SHOW FULL COLUMNS FROM orders LIKE 'a%'"));
        assertEquals("SHOW COLUMNS IN `orders_0` LIKE 'a%'", physical("SHOW COLUMNS IN orders FROM shop LIKE 'a%'"));
        assertEquals("show index from `orders_0`", physical("show index from `shop`.`orders`"));
        assertEquals("DESC `orders_0` status", physical("DESC orders status"));
        assertEquals("SHOW CREATE TABLE `orders_0`;", physical("SHOW CREATE TABLE shop.orders;"));
        assertEquals("SHOW FULL TABLES LIKE 'o%'", ShowStatement.parse("SHOW FULL TABLES FROM shop LIKE 'o%'").physical(""));
    }

    @Test
    void namesDatabasesAndPatternsAreRead() {
        ShowStatement s = ShowStatement.parse("SHOW COLUMNS FROM `order_items` IN shop LIKE 'user\\_%'");
        assertEquals(ShowStatement.Kind.COLUMNS, s.kind());
        assertEquals("order_items", s.table());
        assertEquals("shop", s.database());
        assertEquals("user\\_%", s.like());
        assertEquals(ShowStatement.Kind.DATABASES, ShowStatement.parse("SHOW SCHEMAS").kind());
        assertEquals(ShowStatement.Kind.VARIABLES, ShowStatement.parse("SHOW GLOBAL VARIABLES WHERE Variable_name = 'x'").kind());
        assertEquals(ShowStatement.Kind.BACKEND, ShowStatement.parse("SHOW SESSION STATUS LIKE 'Up%'").kind());
        assertEquals(ShowStatement.Kind.BACKEND, ShowStatement.parse("SHOW STORAGE ENGINES").kind());
    }

    @Test
    void showsThatNameNoLogicalTableAreReadNotRefused() {
        for (String sql : List.of("SHOW PLUGINS", "SHOW ENGINES", "SHOW STORAGE ENGINES", "SHOW CHARSET LIKE 'latin%'",
                "SHOW CHARACTER SET", "SHOW COLLATION WHERE Charset = 'latin1'", "SHOW PRIVILEGES", "SHOW GLOBAL STATUS LIKE 'Up%'")) {
            assertEquals(ShowStatement.Kind.BACKEND, ShowStatement.parse(sql).kind(), sql);
        }
        assertEquals(ShowStatement.Kind.REPLICATION, ShowStatement.parse("SHOW MASTER STATUS").kind());
        assertEquals(ShowStatement.Kind.REPLICATION, ShowStatement.parse("show binary logs").kind());
        ShowStatement grants = ShowStatement.parse("SHOW GRANTS FOR 'app'@'%'");
        assertEquals(ShowStatement.Kind.GRANTS, grants.kind());
        assertEquals("'app'@'%'", grants.table());
        assertNull(ShowStatement.parse("SHOW GRANTS").table());
        assertEquals(1235, assertThrows(ShardwiseException.class, () -> ShowStatement.parse("SHOW MASTER KEYS")).errno());
    }

    @Test
    void otherStatementsAreLeftToTheEngine() {
        assertNull(ShowStatement.parse("SELECT 1"));
        assertNull(ShowStatement.parse("EXPLAIN SELECT * FROM orders"));
        assertNull(ShowStatement.parse("DESCRIBE SELECT * FROM orders"));
        assertNull(ShowStatement.parse("showcase"));
        assertNull(ShowStatement.parse("DELETE FROM orders"));
    }

    @Test
    void unknownShowFormsAreRefusedWith1235NamingTheStatement() {
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> ShowStatement.parse("SHOW TRIGGERS;"));
        assertEquals(1235, e.errno());
        assertEquals("This version of Shardwise doesn't yet support 'SHOW TRIGGERS'", e.getMessage());
        assertEquals(1235, assertThrows(ShardwiseException.class, () -> ShowStatement.parse("SHOW TABLES WHERE x = 1")).errno());
    }

    @Test
    void tableStatusAndProcesslistAreParsedWithTheirDatabaseAndPattern() {
        ShowStatement status = ShowStatement.parse("SHOW TABLE STATUS FROM `shop` LIKE 'order%';");
        assertEquals(ShowStatement.Kind.TABLE_STATUS, status.kind());
        assertEquals("shop", status.database());
        assertEquals("order%", status.like());
        assertEquals(ShowStatement.Kind.TABLE_STATUS, ShowStatement.parse("show table status").kind());
        assertEquals(ShowStatement.Kind.PROCESSLIST, ShowStatement.parse("SHOW FULL PROCESSLIST").kind());
        assertEquals(1235, assertThrows(ShardwiseException.class, () -> ShowStatement.parse("SHOW TABLE STATUS WHERE Rows > 1")).errno());
        assertEquals(1235, assertThrows(ShardwiseException.class, () -> ShowStatement.parse("SHOW TABLE foo")).errno());
    }

    @Test
    void doubleQuotesAreNamesUnderAnsiQuotesAndPatternsOtherwise() {
        LexicalMode ansi = new LexicalMode(false, true);
        ShowStatement quoted = ShowStatement.parse("SHOW COLUMNS FROM \"orders\" LIKE 'u%'", ansi);
        assertEquals("orders", quoted.table());
        assertEquals("SHOW COLUMNS FROM `orders_0` LIKE 'u%'", quoted.physical("`orders_0`"));
        assertEquals("o%", ShowStatement.parse("SHOW TABLES LIKE \"o%\"").like());
        assertThrows(ShardwiseException.class, () -> ShowStatement.parse("SHOW TABLES LIKE \"o%\"", ansi));
    }
}
