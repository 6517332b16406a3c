package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14 items 9 and 12 in the engine: user variables live in the session whichever shards a
 * statement reaches (set, read with MySQL's types, read as literal keys that route, assigned by
 * SELECT ... INTO), system variables are set from them as dumps do, and LOCK TABLES locks logical
 * tables, refusing others with 1100 in logical names until UNLOCK TABLES or START TRANSACTION.
 */
class UserVariablesAndLocksTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.sharded("uvars");
    private static MysqlServer server;
    private static SampleTarget target;
    private static Engine engine;

    @BeforeAll
    static void load() {
        server = SAMPLE.server();
        target = SAMPLE.target();
        engine = SAMPLE.engine();
    }

    /** The rows of a result as "v|v|..." lines, and its columns as "label:type" first. */
    private static List<String> rows(EngineSession s, String sql) {
        StatementResult r = s.execute(sql);
        List<String> out = new ArrayList<>();
        try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, r, sql).cursor()) {
            StringBuilder head = new StringBuilder();
            for (Column col : c.columns()) {
                head.append(col.name()).append(':').append(col.mysqlType()).append(' ');
            }
            out.add(head.toString().strip());
            while (c.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 0; i < c.columns().size(); i++) {
                    byte[] v = c.get(i);
                    row.append(i == 0 ? "" : "|").append(v == null ? "NULL" : new String(v, StandardCharsets.UTF_8));
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    @Test
    void userVariablesKeepMysqlTypesAndAreReadInOrder() {
        try (EngineSession s = engine.openSession()) {
            s.execute("SET @i = 5, @d = 1.50, @f = 1.5e0, @s = 'it''s', @n = NULL, @j = @i + 1, @names = @@character_set_client");
            // as MariaDB: every value is read before any is assigned, so @j is NULL + 1, a DOUBLE NULL
            assertEquals(List.of("@i:8 @d:246 @f:5 @s:251 @n:251 @j:5 @names:251 @never:251", "5|1.50|1.5|it's|NULL|NULL|utf8mb4|NULL"),
                    rows(s, "SELECT @i, @d, @f, @s, @n, @j, @names, @never"));
            s.execute("SET @j = @i + 1");
            assertEquals(List.of("@j:8", "6"), rows(s, "SELECT @j"));
            assertEquals(List.of("x:8", "5"), rows(s, "SELECT @I AS x"), "names are case-insensitive; an alias labels it");
            assertEquals("@i|@@innodb_lock_wait_timeout", String.join("|", rows(s, "SELECT @i, @@innodb_lock_wait_timeout").get(0)
                    .replaceAll(":\\d+", "").split(" ")), "a variable only a backend knows: the backend answers, labels kept");
            assertTrue(rows(s, "SELECT @i, @@innodb_lock_wait_timeout").get(1).startsWith("5|"), "with the session's @i");
            s.execute("SET @c = (SELECT COUNT(*) FROM orders)"); // a subquery over a sharded table: counted over every shard
            assertEquals(rows(s, "SELECT COUNT(*) FROM orders").get(1), rows(s, "SELECT @c").get(1));
            ShardwiseException several = assertThrows(ShardwiseException.class, () -> s.execute("SET @c = (SELECT user_id FROM orders)"));
            assertEquals(ErrorCode.SUBQUERY_MORE_THAN_ONE_ROW.errno(), several.errno());
        }
    }

    @Test
    void aUserVariableKeyRoutesLikeALiteral() {
        try (EngineSession s = engine.openSession()) {
            s.execute("SET @u = 7");
            RoutePlan plan = s.preview("SELECT order_id FROM orders WHERE user_id = @u", List.of());
            assertEquals(RouteKind.POINT, plan.kind(), plan.explain());
            assertEquals(rows(s, "SELECT order_id, @u FROM orders WHERE user_id = 7 ORDER BY order_id").subList(1, 3),
                    rows(s, "SELECT order_id, @u FROM orders WHERE user_id = @u ORDER BY order_id").subList(1, 3));
            assertTrue(rows(s, "SELECT order_id, @u FROM orders WHERE user_id = @u").get(0).contains(" @u:"), "a select item keeps its label");
            s.execute("SET @u = 8"); // the next read sees the new value: a cached plan must not keep the old one
            assertEquals(rows(s, "SELECT COUNT(*) FROM orders WHERE user_id = 8"), rows(s, "SELECT COUNT(*) FROM orders WHERE user_id = @u"));
        }
    }

    @Test
    void selectIntoAssignsFromOneRowAndRefusesSeveral() {
        try (EngineSession s = engine.openSession()) {
            StatementResult r = s.execute("SELECT MAX(amount), COUNT(*) INTO @max, @count FROM orders");
            assertEquals(1, assertInstanceOf(StatementResult.Update.class, r).affectedRows());
            assertEquals(rows(s, "SELECT MAX(amount), COUNT(*) FROM orders").get(1), rows(s, "SELECT @max, @count").get(1));
            StatementResult none = s.execute("SELECT user_id INTO @max FROM orders WHERE user_id = -12345");
            assertEquals(1, assertInstanceOf(StatementResult.Update.class, none).warnings());
            assertEquals(ErrorCode.NO_DATA.errno(), s.diagnostics().conditions().get(0).code());
            assertFalse(rows(s, "SELECT @max").get(1).equals("NULL"), "no row leaves the variable as it was");
            ShardwiseException several = assertThrows(ShardwiseException.class, () -> s.execute("SELECT user_id INTO @x FROM orders"));
            assertEquals(ErrorCode.MORE_THAN_ONE_ROW.errno(), several.errno());
        }
    }

    @Test
    void systemVariablesAreSetFromUserVariablesAsDumpsDo() {
        try (EngineSession s = engine.openSession()) {
            s.execute("/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */");
            s.execute("/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */");
            s.execute("/*!40103 SET TIME_ZONE='+00:00' */");
            s.execute("/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */");
            assertEquals("NO_AUTO_VALUE_ON_ZERO", rows(s, "SELECT @@sql_mode").get(1));
            assertEquals("0", rows(s, "SELECT @@unique_checks").get(1));
            String oldMode = rows(s, "SELECT @OLD_SQL_MODE").get(1);
            s.execute("/*!40101 SET SQL_MODE=@OLD_SQL_MODE */");
            s.execute("/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */");
            s.execute("/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */");
            assertEquals(oldMode, rows(s, "SELECT @@sql_mode").get(1));
            assertEquals("1", rows(s, "SELECT @@unique_checks").get(1));
            assertEquals(rows(s, "SELECT @OLD_TIME_ZONE").get(1), rows(s, "SELECT @@time_zone").get(1));
        }
    }

    @Test
    void lockTablesRefusesOtherTablesInLogicalNamesUntilUnlocked() {
        try (EngineSession s = engine.openSession()) {
            s.execute("LOCK TABLES countries AS c READ, events WRITE");
            ShardwiseException unaliased = assertThrows(ShardwiseException.class, () -> s.execute("SELECT COUNT(*) FROM countries"));
            assertEquals(ErrorCode.TABLE_NOT_LOCKED.errno(), unaliased.errno());
            assertEquals("Table 'countries' was not locked with LOCK TABLES", unaliased.getMessage(), "locked only as c");
            ShardwiseException sharded = assertThrows(ShardwiseException.class, () -> s.execute("SELECT * FROM orders WHERE user_id = 3"));
            assertEquals("Table 'orders' was not locked with LOCK TABLES", sharded.getMessage(), "whichever backend it routes to");
        } // the session's end releases its locks
        try (EngineSession s = engine.openSession()) {
            s.execute("LOCK TABLES orders READ, countries AS c LOW_PRIORITY WRITE");
            assertEquals(2, rows(s, "SELECT COUNT(*) FROM orders").size());
            assertEquals(2, rows(s, "SELECT COUNT(*) FROM countries c").size());
            ShardwiseException other = assertThrows(ShardwiseException.class, () -> s.execute("SELECT COUNT(*) FROM events"));
            assertEquals("Table 'events' was not locked with LOCK TABLES", other.getMessage());
            ShardwiseException write = assertThrows(ShardwiseException.class, () -> s.execute("DELETE FROM orders WHERE user_id = 1"));
            assertEquals(1099, write.errno(), "a READ lock refuses writes on the backend: " + write.getMessage());
            assertTrue(write.getMessage().contains("'orders'"), "in logical names: " + write.getMessage());
            s.execute("UNLOCK TABLES");
            assertEquals(2, rows(s, "SELECT COUNT(*) FROM events").size());
            s.execute("LOCK TABLES orders READ");
            s.execute("START TRANSACTION"); // releases the locks, as in MySQL
            assertEquals(2, rows(s, "SELECT COUNT(*) FROM events").size());
            s.execute("COMMIT");
        }
    }

    @Test
    void anAliasOfSeveralPhysicalTablesOnOneBackendIsRefused() {
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("LOCK TABLES orders AS o READ"));
            assertEquals(ErrorCode.UNSUPPORTED.errno(), e.errno());
            assertEquals(2, rows(s, "SELECT COUNT(*) FROM events").size(), "nothing stays locked");
        }
    }

    @Test
    void anInsertWithoutAColumnListIntoAShardedTableRoutesEachRow() {
        try (EngineSession s = engine.openSession()) {
            s.execute("CREATE TABLE IF NOT EXISTS orders_copy_probe (x INT)"); // a single table: any DDL works as before
            s.execute("DROP TABLE orders_copy_probe");
            s.execute("DELETE FROM users WHERE user_id IN (9001, 9002)");
            List<String> columns = new ArrayList<>(List.of(rows(s, "SELECT * FROM users WHERE user_id = 1").get(0).split(" ")));
            assertTrue(columns.size() >= 2, columns::toString);
            StringBuilder values = new StringBuilder();
            for (int id : new int[] {9001, 9002}) {
                values.append(values.isEmpty() ? "" : ", ").append("(").append(id);
                for (int c = 1; c < columns.size(); c++) {
                    values.append(", NULL");
                }
                values.append(")");
            }
            StatementResult r = s.execute("INSERT INTO users VALUES " + values);
            assertEquals(2, assertInstanceOf(StatementResult.Update.class, r).affectedRows());
            assertEquals(RouteKind.POINT, s.preview("SELECT * FROM users WHERE user_id = 9001", List.of()).kind());
            assertEquals(2, rows(s, "SELECT user_id FROM users WHERE user_id = 9001").size(), "found on the shard its key maps to");
            assertEquals(2, rows(s, "SELECT user_id FROM users WHERE user_id = 9002").size());
            s.execute("DELETE FROM users WHERE user_id IN (9001, 9002)");
        }
    }
}
