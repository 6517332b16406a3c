package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OK packet of an INSERT ... SELECT across shards (affected rows, insert id, warnings and the
 * info string {@code Records: N  Duplicates: D  Warnings: W}), compared with the same raw client
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

    @Test
    void insertSelectAnswersWithMySqlsAffectedRowsInsertIdAndInfo() throws IOException {
        List<String> expected;
        try (RawClient c = RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                NativePassword.PLUGIN)) {
            expected = run(c);
        }
        List<String> actual;
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            actual = run(c);
        }
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    private static List<String> run(RawClient c) throws IOException {
        List<String> out = new ArrayList<>();
        for (String sql : STATEMENTS) {
            c.command(0x03, sql);
            RawClient.Reply r = c.read();
            if (r.header() == 0xFF) {
                out.add("ERR " + r.as(ErrPacket::decode).errno());
                continue;
            }
            OkPacket ok = r.as(OkPacket::decode);
            out.add("OK affected=" + ok.affectedRows() + " id=" + ok.lastInsertId() + " warnings=" + ok.warnings() + " info=" + ok.info());
        }
        return out;
    }
}
