package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.Engine;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.server.PreparedRelayServerTest.Param;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.BinaryType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A hash-sharded DATE, DATETIME(6) or TIME(6) key bound as a binary temporal parameter routes as the same value written
 * in the statement's text: a row inserted through COM_STMT_EXECUTE is found by a text SELECT, one inserted in text (or
 * by Connector/J's client-side prepare) by a binary one, for normal values with and without fractions, zero dates,
 * zero-in-date values, negative TIMEs and TIMEs with days. Each insert and read is compared with one MariaDB.
 */
class TemporalKeyRoutingServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("tkey");
    private static Engine engine;
    private static ShardwiseServer server;

    private static final String TABLES = """
              tk_date: { nodes: "ds${0..1}.tk_date", key: k, algorithm: { type: hash } }
              tk_stamp: { nodes: "ds${0..1}.tk_stamp", key: k, algorithm: { type: hash } }
              tk_time: { nodes: "ds${0..1}.tk_time", key: k, algorithm: { type: hash } }
            """;

    /** A key: its table, its binary form, its text literal, and a java value Connector/J's client-side prepare writes, or null. */
    record Key(String table, Param bound, String text, Object java) {}

    private static final List<Key> KEYS = List.of(
            new Key("tk_date", date(2024, 1, 2), "2024-01-02", LocalDate.of(2024, 1, 2)),
            new Key("tk_date", new Param(BinaryType.DATE, 0, new byte[] {0}), "0000-00-00", null),
            new Key("tk_date", date(0, 0, 0), "0000-00-00", null),
            new Key("tk_date", date(2024, 0, 0), "2024-00-00", null),
            new Key("tk_date", date(2024, 1, 0), "2024-01-00", null),
            new Key("tk_stamp", datetime(2024, 1, 2, 3, 4, 5), "2024-01-02 03:04:05", LocalDateTime.of(2024, 1, 2, 3, 4, 5)),
            new Key("tk_stamp", datetime(2024, 1, 2, 3, 4, 5, 500_000), "2024-01-02 03:04:05.5",
                    LocalDateTime.of(2024, 1, 2, 3, 4, 5, 500_000_000)),
            new Key("tk_stamp", datetime(2024, 1, 2, 3, 4, 5, 123_456), "2024-01-02 03:04:05.123456",
                    java.sql.Timestamp.valueOf("2024-01-02 03:04:05.123456")),
            new Key("tk_stamp", new Param(BinaryType.DATETIME, 0, new byte[] {0}), "0000-00-00 00:00:00", null),
            new Key("tk_stamp", datetime(0, 0, 0, 0, 0, 0), "0000-00-00 00:00:00", null),
            new Key("tk_stamp", datetime(2024, 0, 0, 3, 4, 5, 500_000), "2024-00-00 03:04:05.5", null),
            new Key("tk_stamp", new Param(BinaryType.TIMESTAMP, 0, datetime(2024, 1, 0, 0, 0, 0).value()), "2024-01-00 00:00:00", null),
            new Key("tk_time", time(false, 0, 3, 4, 5, -1), "03:04:05", LocalTime.of(3, 4, 5)),
            new Key("tk_time", time(false, 0, 23, 59, 59, 250_000), "23:59:59.25", LocalTime.of(23, 59, 59, 250_000_000)),
            new Key("tk_time", new Param(BinaryType.TIME, 0, new byte[] {0}), "00:00:00", LocalTime.MIDNIGHT),
            new Key("tk_time", time(true, 0, 3, 4, 5, -1), "-03:04:05", null),
            new Key("tk_time", time(false, 1, 10, 22, 59, -1), "34:22:59", null),
            new Key("tk_time", time(true, 2, 3, 4, 5, 250_000), "-51:04:05.25", null));

    @BeforeAll
    static void startServerWithTemporalKeys() throws SQLException {
        String prefix = sample.target.databasePrefix();
        for (String db : List.of(prefix + "_0", prefix + "_1", sample.whole)) {
            try (Connection c = sample.backend.connect(db); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE tk_date (k DATE NOT NULL, v VARCHAR(40) NOT NULL)");
                s.execute("CREATE TABLE tk_stamp (k DATETIME(6) NOT NULL, v VARCHAR(40) NOT NULL)");
                s.execute("CREATE TABLE tk_time (k TIME(6) NOT NULL, v VARCHAR(40) NOT NULL)");
            }
        }
        ShardingRule rule = SampleData.rule(sample.target, yaml -> yaml.replace("  small: {", TABLES + "  small: {"));
        engine = Engine.start(rule);
        server = ShardwiseServer.start(engine, "127.0.0.1", 0);
    }

    @AfterAll
    static void stopServer() {
        server.close();
        engine.close();
    }

    @Test
    void aTemporalKeyBoundInBinaryRoutesAsItsTextDoes() throws Exception {
        String options = "?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true&useServerPrepStmts=false";
        List<String> mismatches = new ArrayList<>();
        try (RawClient mariadbRaw = RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                NativePassword.PLUGIN);
             RawClient shardwiseRaw = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             Connection mariadb = sample.direct();
             Connection shardwise = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.address().getPort() + "/shop" + options)) {
            for (int i = 0; i < KEYS.size(); i++) {
                Key key = KEYS.get(i);
                String what = key.table() + " '" + key.text() + "' (" + java.util.HexFormat.of().formatHex(key.bound().value()) + ")";
                String insert = "INSERT INTO " + key.table() + " (k, v) VALUES (?, ?)";
                Param label = varchar("binary " + i);
                check(mismatches, what + ": binary insert", outcome(execute(mariadbRaw, insert, key.bound(), label)),
                        outcome(execute(shardwiseRaw, insert, key.bound(), label)));
                String text = "INSERT INTO " + key.table() + " (k, v) VALUES ('" + key.text() + "', 'text " + i + "')";
                check(mismatches, what + ": text insert", update(mariadb, text), update(shardwise, text));
                if (key.java() != null) {
                    check(mismatches, what + ": client-side prepared insert", prepared(mariadb, insert, key.java(), "client " + i),
                            prepared(shardwise, insert, key.java(), "client " + i));
                }
                String select = "SELECT v FROM " + key.table() + " WHERE k = ? ORDER BY v";
                String textSelect = select.replace("?", "'" + key.text() + "'");
                check(mismatches, what + ": text read", SampleServer.column(mariadb.createStatement(), textSelect),
                        SampleServer.column(shardwise.createStatement(), textSelect));
                check(mismatches, what + ": binary read", rows(execute(mariadbRaw, select, key.bound())),
                        rows(execute(shardwiseRaw, select, key.bound())));
            }
        }
        assertEquals(List.of(), mismatches);
    }

    private static void check(List<String> mismatches, String what, Object expected, Object actual) {
        if (!expected.equals(actual)) {
            mismatches.add(what + ": MariaDB " + expected + ", Shardwise " + actual);
        }
    }

    private static List<String> execute(RawClient client, String sql, Param... params) throws java.io.IOException {
        int id = PreparedRelayServerTest.prepare(client, sql);
        List<String> response = PreparedRelayServerTest.execute(client, id, params);
        client.send(0, new byte[] {0x19, (byte) id, (byte) (id >> 8), (byte) (id >> 16), (byte) (id >> 24)}); // COM_STMT_CLOSE: no reply
        return response;
    }

    /** "ok" or the error's code (its text names a shard through Shardwise). */
    private static String outcome(List<String> packets) {
        String hex = packets.get(0).substring(packets.get(0).indexOf(':') + 1);
        return hex.startsWith("ff") ? "error " + hex.substring(2, 6) : "ok";
    }

    /** The binary rows of a one-column result, or the error's code. */
    private static List<String> rows(List<String> packets) {
        List<String> out = new ArrayList<>();
        for (int i = 2; i < packets.size(); i++) { // the column count, the column definition
            String hex = packets.get(i).substring(packets.get(i).indexOf(':') + 1);
            if (hex.startsWith("00")) {
                out.add(hex);
            }
        }
        if (packets.size() == 1) {
            out.add(outcome(packets));
        }
        return out;
    }

    private static String update(Connection c, String sql) {
        try (Statement s = c.createStatement()) {
            return "ok " + s.executeUpdate(sql);
        } catch (SQLException e) {
            return "error " + e.getErrorCode();
        }
    }

    private static String prepared(Connection c, String sql, Object key, String label) {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, key);
            ps.setString(2, label);
            return "ok " + ps.executeUpdate();
        } catch (SQLException e) {
            return "error " + e.getErrorCode();
        }
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static Param varchar(String s) {
        byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return new Param(BinaryType.VAR_STRING, 0, le(1 + bytes.length).put((byte) bytes.length).put(bytes).array());
    }

    /** A DATE of 4 bytes. */
    private static Param date(int year, int month, int day) {
        return new Param(BinaryType.DATE, 0, le(5).put((byte) 4).putShort((short) year).put((byte) month).put((byte) day).array());
    }

    /** A DATETIME of 7 bytes (hour minute second) or 11 (micros). */
    private static Param datetime(int... parts) {
        int length = parts.length == 6 ? 7 : 11;
        ByteBuffer b = le(1 + length).put((byte) length).putShort((short) parts[0]).put((byte) parts[1]).put((byte) parts[2])
                .put((byte) parts[3]).put((byte) parts[4]).put((byte) parts[5]);
        if (length == 11) {
            b.putInt(parts[6]);
        }
        return new Param(BinaryType.DATETIME, 0, b.array());
    }

    /** A TIME of 8 bytes (micros < 0) or 12. */
    private static Param time(boolean negative, int days, int hours, int minutes, int seconds, int micros) {
        int length = micros < 0 ? 8 : 12;
        ByteBuffer b = le(1 + length).put((byte) length).put((byte) (negative ? 1 : 0)).putInt(days).put((byte) hours)
                .put((byte) minutes).put((byte) seconds);
        if (micros >= 0) {
            b.putInt(micros);
        }
        return new Param(BinaryType.TIME, 0, b.array());
    }
}
