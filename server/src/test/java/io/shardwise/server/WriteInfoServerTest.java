package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OK packet of writes across shards (affected rows, insert id, warnings and the info string:
 * {@code Records: N  Duplicates: D  Warnings: W} of an INSERT ... SELECT or a multi-row INSERT,
 * {@code Rows matched: N  Changed: C  Warnings: W} of an UPDATE), compared with the same raw client
 * talking straight to the unsharded database.
 */
class WriteInfoServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("info");

    private static final String[] STATEMENTS = {
        "INSERT INTO orders (order_id, user_id, status, amount, created_at) SELECT order_id + 900000, user_id, 'copy', amount, created_at"
                + " FROM orders WHERE user_id < 10 ORDER BY order_id",
        "INSERT IGNORE INTO users (user_id, name) SELECT user_id, 'again' FROM users WHERE user_id < 10 ORDER BY user_id",
        "INSERT IGNORE INTO users (user_id, name) SELECT user_id + 5000, 'new' FROM users WHERE user_id BETWEEN 1 AND 4 ORDER BY user_id",
        "REPLACE INTO users (user_id, name) SELECT user_id, 'replaced' FROM users WHERE user_id BETWEEN 5000 AND 5010 ORDER BY user_id",
        "INSERT INTO users (user_id, name) SELECT user_id, name FROM users WHERE user_id = -424242",
    };

    /**
     * Rows spread over the four nodes (user_id mod 4): a node given one row answers without info, as
     * MySQL does for a one-row VALUES, so the whole's duplicates come from that node's affected rows
     * (a row ON DUPLICATE KEY UPDATE left as it was is the one case they cannot tell under
     * CLIENT_FOUND_ROWS, where it counts 1 as a new row does: docs/sql-support.md says so).
     */
    private static final String[] SPREAD = {
        "UPDATE users SET name = CONCAT(name, '') WHERE user_id < 20",
        "UPDATE users SET name = 'upd' WHERE user_id BETWEEN 1 AND 6",
        "UPDATE users SET name = 'upd' WHERE user_id BETWEEN 1 AND 9",
        "UPDATE users SET name = 'one' WHERE user_id = 3",
        "UPDATE users SET name = 'none' WHERE user_id = -77",
        "UPDATE orders SET amount = amount + 0 WHERE user_id IN (1, 2, 3, 4, 5)",
        "UPDATE IGNORE users SET country_code = CONCAT('X', user_id) WHERE user_id < 12",
        "UPDATE countries SET name = CONCAT(name, '') WHERE code < 'M'",
        "UPDATE orders SET status = 'lim' WHERE user_id < 50 ORDER BY order_id LIMIT 5",
        "INSERT INTO users (user_id, name) VALUES (7001, 'a'), (7002, 'b'), (7003, 'c'), (7004, 'd'), (7008, 'e')",
        "INSERT IGNORE INTO users (user_id, name) VALUES (7001, 'a'), (7002, 'b'), (7005, 'n'), (7004, 'd'), (7012, 'x')",
        "REPLACE INTO users (user_id, name) VALUES (7001, 'r'), (7002, 'b'), (7006, 'n'), (7003, 'c'), (7007, 'c')",
        "INSERT INTO users (user_id, name) VALUES (7002, 'o'), (7003, 'cc'), (7009, 'n'), (7004, 'p'), (7008, 'e')"
                + " ON DUPLICATE KEY UPDATE name = VALUES(name)",
        "INSERT INTO countries (code, name) VALUES ('Q1', 'q'), ('Q2', 'q')",
        "INSERT IGNORE INTO countries (code, name) VALUES ('Q1', 'q'), ('Q3', 'q')",
        "DELETE FROM users WHERE user_id BETWEEN 7000 AND 7100",
        "DELETE FROM countries WHERE code LIKE 'Q%'",
    };

    /**
     * INSERT ... SELECT ... ON DUPLICATE KEY UPDATE (batched, and one row per statement when the clause names the
     * SELECT's columns: inserted, changed and unchanged rows) and INSERT ... VALUES with computed sharding keys.
     */
    private static final String[] UPDATING = {
        "INSERT INTO users (user_id, name) SELECT user_id + 8000, 'n' FROM users WHERE user_id < 10 ORDER BY user_id"
                + " ON DUPLICATE KEY UPDATE name = 'u'",
        "INSERT INTO users (user_id, name) SELECT user_id + IF(user_id % 2 = 0, 8000, 8100), 'v' FROM users WHERE user_id < 10"
                + " ORDER BY user_id ON DUPLICATE KEY UPDATE name = VALUES(name)",
        "INSERT INTO users (user_id, name) SELECT u.user_id + 8000, u.name FROM users u WHERE u.user_id < 10 ORDER BY u.user_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('s', u.user_id)",
        "INSERT INTO users (user_id, name) SELECT u.user_id + 8000, u.name FROM users u WHERE u.user_id < 10 ORDER BY u.user_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('s', u.user_id)",
        "INSERT INTO users (user_id, name) VALUES (8000 + 50, 'c'), (2 * 4030, 'd')",
        "INSERT INTO users (user_id, name) VALUES (8000 + 50, 'c') ON DUPLICATE KEY UPDATE name = 'e'",
        "DELETE FROM users WHERE user_id BETWEEN 8000 AND 8200",
    };

    @Test
    void insertSelectOnDuplicateKeyUpdateAndComputedKeysAnswerAsMySql() throws IOException {
        compare(UPDATING, Capabilities.SERVER);
        compare(UPDATING, new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.FOUND_ROWS));
    }

    @Test
    void insertSelectAnswersWithMySqlsAffectedRowsInsertIdAndInfo() throws IOException {
        compare(STATEMENTS, Capabilities.SERVER);
    }

    /** With CLIENT_FOUND_ROWS (affected = matched rows, Connector/J's default) and without it. */
    @Test
    void updatesAndMultiRowInsertsAnswerWithTheWholesInfo() throws IOException {
        compare(SPREAD, Capabilities.SERVER);
        compare(SPREAD, new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.FOUND_ROWS));
    }

    private static void compare(String[] statements, Capabilities capabilities) throws IOException {
        List<String> expected;
        try (RawClient c = RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                NativePassword.PLUGIN, capabilities)) {
            expected = run(c, statements);
        }
        List<String> actual;
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN,
                capabilities)) {
            actual = run(c, statements);
        }
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    private static List<String> run(RawClient c, String[] statements) throws IOException {
        List<String> out = new ArrayList<>();
        for (String sql : statements) {
            c.command(0x03, sql);
            RawClient.Reply r = c.read();
            if (r.header() == 0xFF) {
                out.add(sql + " -> ERR " + r.as(ErrPacket::decode).errno());
                continue;
            }
            OkPacket ok = r.as(OkPacket::decode);
            out.add(sql + " -> OK affected=" + ok.affectedRows() + " id=" + ok.lastInsertId() + " warnings=" + ok.warnings() + " info=" + ok.info());
        }
        return out;
    }
}
