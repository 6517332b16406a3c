package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.core.sql.analyze.Analyzer;
import io.shardwise.core.sql.analyze.RowChoice;
import io.shardwise.core.sql.analyze.Update;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyedWritesTest {
    private static final int PRI = 2;
    private static final Column ORDER_ID = column("order_id", 8, PRI | 1, 63);
    private static final Column USER_ID = column("user_id", 8, 1, 63);
    private static final Column STATUS = column("status", 253, 0, 45);
    private static final Column CREATED = column("created_at", 12, 1, 63);

    @Test
    void chosenRowsBecomeTheirShardingAndPrimaryKeys() {
        String predicate = KeyedWrites.predicate(rows(List.of(ORDER_ID, USER_ID, STATUS), row("100001", "7", "paid"), row("100002", "7", null),
                row("100003", "8", "o'k")), "orders", "user_id", LexicalMode.DEFAULT);
        assertEquals("`user_id` IN (7, 8) AND `order_id` IN (100001, 100002, 100003)", predicate);
    }

    @Test
    void aCompositeKeyOfStringsAndDatesIsQuotedAndATableWithoutOneIsRefused() {
        Column code = column("code", 253, PRI, 45);
        Column at = column("created_at", 12, PRI | 1, 63);
        Column raw = column("raw", 253, PRI, 63);
        String predicate = KeyedWrites.predicate(rows(List.of(code, at, raw, USER_ID), row("it's", "2025-01-02 03:04:05", "ab", "3")),
                "t", "user_id", LexicalMode.DEFAULT);
        assertEquals("`user_id` IN (3) AND (`code`, `created_at`, `raw`) IN (('it''s', '2025-01-02 03:04:05', X'6162'))", predicate);
        ShardwiseException e = assertThrows(ShardwiseException.class,
                () -> KeyedWrites.predicate(rows(List.of(USER_ID, STATUS)), "heap", "user_id", LexicalMode.DEFAULT));
        assertEquals(ErrorCode.UNSUPPORTED, e.code());
        assertTrue(e.getMessage().contains("no primary key"), e.getMessage());
    }

    @Test
    void noChosenRowStillRunsTheWriteMatchingNothing() {
        assertEquals("FALSE", KeyedWrites.predicate(rows(List.of(ORDER_ID, USER_ID)), "orders", "user_id", LexicalMode.DEFAULT));
    }

    @Test
    void theWriteKeepsTheUsersTextAndWhereButNotItsOrderByAndLimit() {
        Analyzer analyzer = new Analyzer(SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop")));
        String digest = "update orders set status = ? where status = ? or amount > ? order by amount desc limit ?";
        RowChoice choice = ((Update) analyzer.analyze(digest)).choice();
        assertEquals("select * from orders where status = ? or amount > ? order by amount desc limit ? for update",
                choice.select().template().text());
        assertEquals(1, choice.firstParam());
        assertEquals(3, choice.paramsBefore());
        assertEquals("update orders set status = ? where (status = ? or amount > ?) AND `order_id` IN (1)",
                KeyedWrites.text(SourceText.of(digest), choice, "`order_id` IN (1)"));
        String noWhere = "update orders set status = ? order by amount limit ?";
        RowChoice all = ((Update) analyzer.analyze(noWhere)).choice();
        assertEquals("update orders set status = ? WHERE FALSE", KeyedWrites.text(SourceText.of(noWhere), all, "FALSE"));
    }

    @Test
    void insertBatchesBindNumbersAsNumbersAndTheRestAsTextOrBytes() {
        List<Object[]> rows = InsertBatches.read(rows(List.of(ORDER_ID, STATUS, CREATED, column("amount", 246, 0, 63),
                column("bin", 252, 128, 63)), row("100001", "paid", "2025-01-02 03:04:05", "1.50", "x"), row("9223372036854775807", null,
                "2025-01-02 03:04:05", "-2.00", null)));
        assertEquals(2, rows.size());
        assertEquals(100001L, rows.get(0)[0]);
        assertEquals("paid", rows.get(0)[1]);
        assertEquals("2025-01-02 03:04:05", rows.get(0)[2]);
        assertEquals(new java.math.BigDecimal("1.50"), rows.get(0)[3]);
        assertTrue(rows.get(0)[4] instanceof byte[]);
        assertEquals(new java.math.BigInteger("9223372036854775807"), rows.get(1)[0]);
        assertEquals("INSERT INTO t (a, b) VALUES (?, ?), (?, ?)", InsertBatches.text("INSERT INTO t (a, b)", 2, 2));
        assertEquals(10, InsertBatches.params(rows).size());
    }

    @Test
    void theLastRowIsWrittenAloneSoAnExplicitAutoIncrementValueIsTheStatementsInsertId() {
        List<Object[]> rows = new ArrayList<>();
        for (long i = 1; i <= 1001; i++) {
            rows.add(new Object[] {i, "x"});
        }
        List<List<Object[]>> batches = InsertBatches.batches(rows);
        assertEquals(List.of(500, 500, 1), batches.stream().map(List::size).toList());
        assertEquals(1001L, batches.get(2).get(0)[0]);
        assertEquals(List.of(1), InsertBatches.batches(rows.subList(0, 1)).stream().map(List::size).toList());
        // explicit values: the last row's; generated by the backend: the first; by Shardwise's generator: its first key
        assertEquals(1001, InsertBatches.insertId(rows, List.of(), 500, 1001));
        assertEquals(77, InsertBatches.insertId(rows, List.of(), 77, 5000));
        assertEquals(9, InsertBatches.insertId(rows, List.of(9L, 10L), 0, 0));
    }

    private static Column column(String name, int type, int flags, int collation) {
        return new Column("shop", "t", "t", name, name, collation, 10, type, flags, 0);
    }

    private static byte[][] row(String... values) {
        byte[][] out = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i] == null ? null : values[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    private static ResultCursor rows(List<Column> columns, byte[][]... rows) {
        List<byte[][]> all = new ArrayList<>(List.of(rows));
        return new ResultCursor() {
            int at = -1;

            @Override
            public List<Column> columns() {
                return columns;
            }

            @Override
            public boolean next() {
                return ++at < all.size();
            }

            @Override
            public byte[] get(int index) {
                return all.get(at)[index];
            }

            @Override
            public void close() {}
        };
    }
}
