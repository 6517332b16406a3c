package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.server.PreparedRelayServerTest.Param;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.BinaryType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
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
 * A COM_STMT_EXECUTE parameter bound as a binary DATE, DATETIME, TIMESTAMP or TIME is typed by the backend as
 * MariaDB types the bound parameter, on every path: relayed as a backend prepared statement, written into the text of
 * a merged read's units (the loop's merges), or of the session thread's JDBC units (the relay-off server). Each case is
 * compared with MariaDB itself: column label, type and decimals, and the value. Left as MariaDB differs (documented
 * in TemporalText): a bare {@code SELECT ?} of a TIMESTAMP is a TIMESTAMP column there and a DATETIME one written
 * as a CAST; column lengths; flags.
 */
class TemporalParameterServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("tparam");
    private static ShardwiseServer plain;

    @BeforeAll
    static void startPlainServer() {
        plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0);
    }

    @AfterAll
    static void stopPlainServer() {
        plain.close();
    }

    private static final List<String> EXPRESSIONS = List.of("?", "DATE_ADD(?, INTERVAL 1 DAY)", "? + 0", "CONCAT(?)", "HEX(?)",
            "? = '2024-01-02'", "CAST(? AS CHAR)", "? < '2024-01-02 03:04:06'", "TIMESTAMPDIFF(SECOND, ?, '2024-01-01')");

    private static final List<Object> VALUES = List.of(java.sql.Date.valueOf("2024-01-02"), LocalDate.of(2024, 1, 2),
            Timestamp.valueOf("2024-01-02 03:04:05"), Timestamp.valueOf("2024-01-02 03:04:05.5"),
            Timestamp.valueOf("2024-01-02 03:04:05.123456"), LocalDateTime.of(2024, 1, 2, 3, 4, 5),
            LocalDateTime.of(2024, 1, 2, 3, 4, 5, 100_000_000), Time.valueOf("03:04:05"), LocalTime.of(3, 4, 5),
            LocalTime.of(23, 59, 59, 250_000_000));

    /** Where the statement runs in Shardwise: no table (one unit: relayed, or the session thread's), and over both shards (merged). */
    private static final List<String> SHAPES = List.of("SELECT %s", "SELECT %s, id FROM sbtest1 WHERE id BETWEEN 1 AND 4 ORDER BY id");

    @Test
    void connectorJServerPreparedTemporalsAreTypedAsMariaDbTypesThem() throws Exception {
        String options = "&useServerPrepStmts=true&cachePrepStmts=false&sslMode=DISABLED&allowPublicKeyRetrieval=true";
        String direct = "jdbc:mysql://" + sample.backend.host() + ":" + sample.backend.port() + "/" + sample.whole + "?user="
                + sample.backend.user() + "&password=" + sample.backend.password() + options;
        try (Connection mariadb = DriverManager.getConnection(direct);
             Connection relayed = sample.connect("app", options);
             Connection threaded = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + plain.address().getPort()
                     + "/shop?user=app&password=app" + options)) {
            for (String shape : SHAPES) {
                for (String expression : EXPRESSIONS) {
                    for (Object value : VALUES) {
                        String sql = shape.formatted(expression);
                        String what = sql + " with " + value.getClass().getSimpleName() + " " + value;
                        boolean timestampColumn = expression.equals("?") && value instanceof Timestamp;
                        List<String> expected = run(mariadb, sql, value, timestampColumn);
                        assertEquals(expected, run(relayed, sql, value, timestampColumn), "relay server: " + what);
                        assertEquals(expected, run(threaded, sql, value, timestampColumn), "relay-off server: " + what);
                    }
                }
            }
        }
    }

    /** Column label, type (a TIMESTAMP parameter's bare column as DATETIME: see the class comment) and decimals, values; or the error. */
    private static List<String> run(Connection c, String sql, Object value, boolean timestampColumn) {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, value);
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                StringBuilder meta = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    String type = md.getColumnTypeName(i);
                    meta.append(md.getColumnLabel(i)).append(':').append(timestampColumn && i == 1 && type.equals("TIMESTAMP") ? "DATETIME" : type)
                            .append('(').append(md.getScale(i)).append(")|");
                }
                out.add(meta.toString());
                while (rs.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        row.append(rs.getString(i)).append('|');
                    }
                    out.add(row.toString());
                }
            }
        } catch (SQLException e) {
            out.add("error " + e.getErrorCode() + " " + e.getMessage());
        }
        return out;
    }

    /** Values java.time cannot hold, and the binary forms' lengths: zero dates, negative TIME, TIME with days, beyond 838 hours. */
    private static final List<Param> ODD = List.of(
            date(0), datetime(new int[0]), datetime(0, 0, 0, 0, 0, 0), datetime(0, 0, 0, 0, 0, 0, 0), datetime(2024, 1, 2, 3, 4, 5, 500_000),
            datetime(2024, 1, 2, 3, 4, 5, 0), dateAsDatetime(2024, 1, 2),
            time(false, 0, 0, 0, 0, -1), time(true, 0, 3, 4, 5, -1), time(true, 34, 22, 59, 59, -1), time(false, 1, 2, 0, 0, -1),
            time(false, 2, 3, 4, 5, 250_000), time(true, 0, 0, 0, 0, 1), time(false, 40, 0, 0, 0, -1), time(true, 40, 0, 0, 0, 5),
            time(false, 0, 0, 0, 0, 0));

    /**
     * Raw COM_STMT_EXECUTEs of odd temporal values: the column's type and decimals and the binary row equal MariaDB's
     * own, through the relay server and the relay-off one, bare and over both shards.
     */
    @Test
    void oddBinaryTemporalsAreTypedAndValuedAsMariaDbDoes() throws Exception {
        List<String> mismatches = new ArrayList<>();
        try (RawClient mariadb = RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                NativePassword.PLUGIN);
             RawClient relayed = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             RawClient threaded = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            for (String expression : List.of("?", "? + 0", "CONCAT(?)", "DATE_ADD(?, INTERVAL 1 SECOND)")) {
                for (String shape : SHAPES) {
                    String sql = shape.formatted(expression);
                    int direct = PreparedRelayServerTest.prepare(mariadb, sql);
                    int viaRelay = PreparedRelayServerTest.prepare(relayed, sql);
                    int viaThread = PreparedRelayServerTest.prepare(threaded, sql);
                    for (Param p : ODD) {
                        String what = sql + " with type " + p.type() + " " + java.util.HexFormat.of().formatHex(p.value());
                        List<String> expected = typesAndRows(PreparedRelayServerTest.execute(mariadb, direct, p));
                        List<String> viaRelayed = typesAndRows(PreparedRelayServerTest.execute(relayed, viaRelay, p));
                        List<String> viaThreaded = typesAndRows(PreparedRelayServerTest.execute(threaded, viaThread, p));
                        if (expression.equals("? + 0") && negativeTime(p)) {
                            continue; // MariaDB reads a bound negative TIME's number without its sign (see TemporalText)
                        }
                        if (!expected.equals(viaRelayed)) {
                            mismatches.add("relay server: " + what + ": " + expected + " != " + viaRelayed);
                        }
                        if (!expected.equals(viaThreaded)) {
                            mismatches.add("relay-off server: " + what + ": " + expected + " != " + viaThreaded);
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), mismatches);
    }

    private static boolean negativeTime(Param p) {
        return p.type() == BinaryType.TIME && p.value().length > 1 && p.value()[1] == 1;
    }

    /**
     * A binary response reduced to what must match: each column definition's type and decimals (its last 13 bytes are
     * 0x0c, charset, length, type, flags, decimals, filler), each row whole; an error as its packet.
     */
    private static List<String> typesAndRows(List<String> packets) {
        List<String> out = new ArrayList<>();
        if (packets.size() == 1) {
            out.add(packets.get(0).substring(packets.get(0).indexOf(':') + 1));
            return out;
        }
        int columns = Integer.parseInt(packets.get(0).substring(packets.get(0).indexOf(':') + 1, packets.get(0).indexOf(':') + 3), 16);
        for (int i = 1; i < packets.size(); i++) {
            String hex = packets.get(i).substring(packets.get(i).indexOf(':') + 1);
            if (i <= columns) {
                out.add("column type " + hex.substring(hex.length() - 12, hex.length() - 10) + " decimals "
                        + hex.substring(hex.length() - 6, hex.length() - 4));
            } else if (hex.startsWith("00")) {
                out.add("row " + hex);
            } else if (hex.startsWith("ff")) {
                out.add("error " + hex);
            }
        }
        return out;
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A DATE of no bytes: the zero date. */
    private static Param date(int length) {
        return new Param(BinaryType.DATE, 0, new byte[] {(byte) length});
    }

    /** A DATETIME of 0, 4, 7 or 11 bytes: none, year month day, hour minute second, micros. */
    private static Param datetime(int... parts) {
        int length = parts.length == 0 ? 0 : parts.length == 3 ? 4 : parts.length == 6 ? 7 : 11;
        ByteBuffer b = le(1 + length).put((byte) length);
        if (length > 0) {
            b.putShort((short) parts[0]).put((byte) parts[1]).put((byte) parts[2]);
        }
        if (length > 4) {
            b.put((byte) parts[3]).put((byte) parts[4]).put((byte) parts[5]);
        }
        if (length > 7) {
            b.putInt(parts[6]);
        }
        return new Param(BinaryType.DATETIME, 0, b.array());
    }

    private static Param dateAsDatetime(int year, int month, int day) {
        return datetime(year, month, day);
    }

    /** A TIME of 8 bytes (micros < 0), 12 (micros >= 0), or none (micros == 0 and everything else 0 and not negative: 0 bytes). */
    private static Param time(boolean negative, int days, int hours, int minutes, int seconds, int micros) {
        if (!negative && days == 0 && hours == 0 && minutes == 0 && seconds == 0 && micros == 0) {
            return new Param(BinaryType.TIME, 0, new byte[] {0});
        }
        int length = micros < 0 ? 8 : 12;
        ByteBuffer b = le(1 + length).put((byte) length).put((byte) (negative ? 1 : 0)).putInt(days).put((byte) hours)
                .put((byte) minutes).put((byte) seconds);
        if (micros >= 0) {
            b.putInt(micros);
        }
        return new Param(BinaryType.TIME, 0, b.array());
    }
}
