package io.shardwise.core.sql.analyze;

import static io.shardwise.core.sql.analyze.AnalyzeFixture.sql;

import io.shardwise.core.error.ErrorCode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the analyzer makes of a statement, before any routing: the template (normalized text with
 * table and parameter slots), the tables, what the top-level WHERE says about each sharding key, the
 * select shape the merger reads, INSERT rows and session commands.
 */
class AnalyzerTest {

    @Test
    void aPointSelectTemplateHasATableSlotAndAParameterSlot() {
        sql("SELECT * FROM orders WHERE user_id = 5").select()
                .template("select * from {orders} where user_id = ?0")
                .tables("orders").key("orders", "= ?0").star(true).nested(false);
    }

    /** Words Calcite reserves and MySQL does not are names (TPC-H's Q11 orders by its alias {@code value}). */
    @Test
    void namesCalciteReservesButMySqlDoesNotAreRead() {
        sql("SELECT status, SUM(amount) AS value FROM orders GROUP BY status ORDER BY value DESC").select()
                .template("select status, sum(amount) as value from {orders} group by status order by value desc");
        sql("SELECT o.amount AS prev FROM orders o WHERE o.user_id = 3 ORDER BY prev").select().key("o", "= ?0");
    }

    @Test
    void commentsSpacingAndKeywordCaseDoNotReachTheTemplate() {
        sql("SELECT /* a */ c\n  FROM   sbtest1 -- tail\n WHERE id=7").select()
                .template("select c from {sbtest1} where id = ?0").key("sbtest1", "= ?0");
    }

    @Test
    void qualifiedAndBacktickedTableNamesAreSlotsWithTheirQualifier() {
        sql("SELECT o.status FROM shop.`orders` o WHERE o.user_id = 3").select()
                .template("select o.status from {orders} o where o.user_id = ?0")
                .tables("shop.orders o").key("o", "= ?0");
    }

    @Test
    void keyConditionsReadEqualityInRangeOrAndNull() {
        sql("SELECT * FROM orders WHERE user_id IN (1, 2, 3)").key("orders", "in [?0, ?1, ?2]");
        sql("SELECT * FROM orders WHERE 6 = user_id").key("orders", "= ?0");
        sql("SELECT * FROM orders WHERE user_id <=> 6").key("orders", "<=> ?0");
        sql("SELECT * FROM events WHERE created_at BETWEEN '2025-01-01' AND '2025-02-01'").key("events", "[?0, ?1]");
        sql("SELECT * FROM events WHERE created_at >= '2025-01-01' AND created_at < '2025-02-01'").key("events", "and[[?0, +inf), (-inf, ?1)]");
        sql("SELECT * FROM orders WHERE user_id = 1 OR user_id = 2").key("orders", "or[= ?0, = ?1]");
        sql("SELECT * FROM orders WHERE user_id IS NULL").key("orders", "is null");
        sql("SELECT * FROM orders WHERE user_id = ? AND status = ?").key("orders", "= ?0");
    }

    @Test
    void conditionsThatSayNothingAboutTheKeyLeaveItOpen() {
        sql("SELECT * FROM orders WHERE status = 'paid'").noKey("orders");
        sql("SELECT * FROM orders WHERE user_id = 4 OR status = 'x'").noKey("orders");
        sql("SELECT * FROM orders WHERE user_id + 1 = 5").noKey("orders");
        sql("SELECT * FROM orders").noKey("orders");
    }

    @Test
    void joinsOnShardingKeysAreRecordedAsKeyJoins() {
        sql("SELECT o.order_id, i.sku FROM orders o JOIN order_items i ON o.user_id = i.user_id WHERE o.user_id = 6")
                .tables("orders o", "order_items i").keyJoins("o=i").key("o", "= ?0");
        sql("SELECT o.order_id FROM orders o JOIN order_items i ON o.order_id = i.order_id").keyJoins();
    }

    @Test
    void theSelectShapeNamesItemsAggregatesAndAliases() {
        sql("SELECT status, COUNT(*), SUM(amount) AS total, AVG(DISTINCT amount), SUM(amount) / COUNT(*) FROM orders GROUP BY status")
                .items("status", "count(*) <- COUNT(*)", "sum(amount) as total <- SUM(amount)",
                        "avg(distinct amount) <- AVG(distinct amount)", "sum(amount) / count(*) <- contains aggregate")
                .groupBy("#0").distinct(false).star(false);
    }

    @Test
    void orderByKeysAreItemsOrdinalsOrExpressions() {
        sql("SELECT order_id, amount FROM orders ORDER BY amount DESC, order_id").orderBy("#1 desc", "#0");
        sql("SELECT order_id, amount FROM orders ORDER BY 2 DESC").orderBy("?0 desc");
        sql("SELECT order_id FROM orders ORDER BY created_at").orderBy("created_at");
        sql("SELECT order_id AS o FROM orders ORDER BY o").orderBy("#0");
    }

    @Test
    void limitAndOffsetAreValueReferences() {
        sql("SELECT * FROM orders LIMIT 10").limit("null, ?0");
        sql("SELECT * FROM orders LIMIT 5, 10").limit("?0, ?1");
        sql("SELECT * FROM orders LIMIT 10 OFFSET 5").limit("?1, ?0");
        sql("SELECT * FROM orders").limit("null, null");
    }

    @Test
    void distinctAndHavingAreKeptForTheMerger() {
        sql("SELECT DISTINCT status FROM orders").distinct(true).items("status");
        sql("SELECT status, COUNT(*) FROM orders GROUP BY status HAVING COUNT(*) > 3").having("count(*) > ?");
    }

    @Test
    void subqueriesDerivedTablesAndUnionsAreNested() {
        sql("SELECT * FROM orders WHERE user_id IN (SELECT user_id FROM users)").nested(true).tables("orders", "users");
        sql("SELECT t.n FROM (SELECT COUNT(*) AS n FROM orders) t").nested(true);
        sql("SELECT user_id FROM orders UNION SELECT user_id FROM users").nested(true);
    }

    @Test
    void insertRowsAreValueReferencesAndComputedValuesAreMarked() {
        sql("INSERT INTO orders (order_id, user_id, status) VALUES (1, 5, 'new'), (2, 6, NULL)")
                .template("insert into {orders}(order_id, user_id, status) values (?0, ?1, ?2), (?3, ?4, null)")
                .inserts("orders", List.of("order_id", "user_id", "status"), "?0, ?1, ?2", "?3, ?4, null");
        sql("INSERT INTO orders (order_id, user_id) VALUES (1, 2 + 1)").inserts("orders", List.of("order_id", "user_id"), "?0, expr");
        sql("INSERT INTO orders VALUES (1, 2)").inserts("orders", List.of(), "?0, ?1");
    }

    @Test
    void updatesNameTheirAssignedColumnsAndWhetherTheyAreLimited() {
        sql("UPDATE orders SET status = 'x', amount = amount + 1 WHERE user_id = 3").is(Update.class)
                .assigns(List.of("status", "amount"), false).key("orders", "= ?2");
        sql("UPDATE orders SET status = 'x' WHERE status = 'y' ORDER BY order_id LIMIT 1").assigns(List.of("status"), true);
        sql("DELETE FROM orders WHERE user_id IN (1, 2)").is(Delete.class).key("orders", "in [?0, ?1]");
    }

    @Test
    void sessionStatementsAreCommandsWithTheirArgument() {
        sql("BEGIN").session(SessionCommand.Kind.BEGIN, "");
        // the argument is what follows the first keyword
        sql("START TRANSACTION").session(SessionCommand.Kind.BEGIN, "transaction");
        sql("commit").session(SessionCommand.Kind.COMMIT, "");
        sql("USE shop").session(SessionCommand.Kind.USE, "shop");
        sql("SET autocommit = 0").session(SessionCommand.Kind.SET, "autocommit = ?");
        sql("SHOW TABLES").session(SessionCommand.Kind.SHOW, "tables");
        sql("PREVIEW SELECT * FROM orders").session(SessionCommand.Kind.PREVIEW, "select * from orders");
    }

    @Test
    void ddlIsItsOwnKind() {
        sql("CREATE TABLE t (id INT)").is(Ddl.class);
        sql("DROP TABLE orders").is(Ddl.class).tables("orders");
    }

    @Test
    void malformedLiteralsFailAtTheirPosition() {
        sql("SELECT * FROM orders WHERE user_id = ^X'4g'").fails(ErrorCode.PARSE_ERROR, "hex");
        sql("SELECT * FROM orders WHERE status = ^'paid").fails(ErrorCode.PARSE_ERROR, "unterminated");
    }

    @Test
    void anEmptyStatementIsRefused() {
        sql("/* nothing */").fails(ErrorCode.EMPTY_QUERY, "");
        sql(";").fails(ErrorCode.EMPTY_QUERY, "");
    }

    @Test
    void storedProgramsNamingNoShardedTableRunWholeOnTheDefaultBackend() {
        sql("CREATE PROCEDURE p(IN n INT, OUT t INT) BEGIN SELECT n; SELECT COUNT(*) INTO t FROM notes; END").is(Passthrough.class);
        sql("CREATE DEFINER = `root`@`localhost` FUNCTION f() RETURNS INT DETERMINISTIC RETURN 1").is(Passthrough.class);
        sql("CREATE TRIGGER trg BEFORE INSERT ON promotions FOR EACH ROW BEGIN SET NEW.code = UPPER(NEW.code); END")
                .is(Passthrough.class).tables("promotions"); // a trigger lives with its table, on ds1
        sql("BEGIN NOT ATOMIC SELECT 1; END").is(Passthrough.class);
        sql("BEGIN").is(SessionCommand.class);
    }

    @Test
    void storedProgramsNamingShardedBroadcastOrOtherBackendsTablesAreRefused() {
        sql("CREATE PROCEDURE p() BEGIN SELECT COUNT(*) FROM orders; END").fails(ErrorCode.UNSUPPORTED, "table 'orders'");
        sql("CREATE TRIGGER trg AFTER INSERT ON notes FOR EACH ROW INSERT INTO countries VALUES (NEW.a, NEW.b)")
                .fails(ErrorCode.UNSUPPORTED, "table 'countries'");
        sql("CREATE PROCEDURE p() SELECT * FROM promotions").fails(ErrorCode.UNSUPPORTED,
                "CREATE PROCEDURE naming table 'promotions' of backend ds1 (stored programs live on the default backend ds0)");
        sql("CREATE FUNCTION f() RETURNS INT RETURN (SELECT COUNT(*) FROM orders_1)").fails(ErrorCode.UNSUPPORTED,
                "CREATE FUNCTION whose body names sharded or broadcast table 'orders_1'");
        sql("CREATE TABLE event_log (event INT, procedure_id INT)").is(Ddl.class);
    }

    @Test
    void callIsItsOwnStatementWithUserVariableArguments() {
        sql("CALL p(1, ?)").is(Call.class);
        org.junit.jupiter.api.Assertions.assertEquals("p", ((Call) sql("CALL shop.`p`(1)").statement()).procedure());
        sql("CALL p(1, @out)").is(Call.class); // the session's values set on its connection, read back after (CallRunner)
        sql("CALL p((SELECT MAX(user_id) FROM orders))").fails(ErrorCode.UNSUPPORTED, "table 'orders'");
    }

    @Test
    void aProcedureBodyNamingAShardedTableLogicallyOrPhysicallyIsRefused() {
        Analyzer analyzer = new Analyzer(AnalyzeFixture.RULE);
        org.junit.jupiter.api.Assertions.assertEquals(List.of("q"), analyzer.checkBody("BEGIN SELECT 1 FROM notes; CALL q(); END", "CALL of p"));
        for (String body : List.of("BEGIN SELECT * FROM orders; END", "SELECT * FROM orders_1", "UPDATE `countries` SET name = 'x'")) {
            io.shardwise.core.error.ShardwiseException e = org.junit.jupiter.api.Assertions.assertThrows(
                    io.shardwise.core.error.ShardwiseException.class, () -> analyzer.checkBody(body, "CALL of procedure 'p'"));
            org.junit.jupiter.api.Assertions.assertEquals(ErrorCode.UNSUPPORTED, e.code(), body);
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("support 'CALL of procedure 'p' whose body names sharded or broadcast table"), e.getMessage());
        }
    }
}
