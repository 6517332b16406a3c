package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ColumnDefinition;
import io.shardwise.server.protocol.Command;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.StmtCommand;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Column definitions as they travel, byte for byte decoded, from the Shardwise server and from one
 * MariaDB holding the same rows, read by the same raw client (no driver adjusts them on the way:
 * Connector/J's Field adds flags of its own, which would hide a difference on both sides alike).
 */
class WireFidelityServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("wire_fidelity");

    /** Without CLIENT_DEPRECATE_EOF: every definition list ends with an EOF packet, so replies read plainly. */
    private static final Capabilities EOF_CLIENT = new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.DEPRECATE_EOF);

    private RawClient shardwise() throws IOException {
        return RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN, EOF_CLIENT);
    }

    private RawClient mariadb() throws IOException {
        return RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                NativePassword.PLUGIN, EOF_CLIENT);
    }

    /** What a client reads of a column definition, but the names (a routed table's physical name is the logical one's). */
    private record Wire(String name, int collation, long length, int type, int flags, int decimals) {
        static Wire of(ColumnDefinition d) {
            return new Wire(d.name(), d.collation(), d.length(), d.type(), d.flags(), d.decimals());
        }
    }

    @Test
    void aVarbinaryColumnIsFlaggedBinaryOnlyAsMysqlSendsIt() throws Exception {
        // a single shard's rows (user_id is the sharding key) read through the JDBC executor, whose Connector/J adds BLOB
        String sql = "SELECT CAST(sku AS BINARY) AS b, BINARY sku AS c, sku FROM order_items WHERE user_id = 3";
        List<Wire> expected = query(mariadb(), sql);
        assertEquals(0, expected.get(0).flags() & 16, "MariaDB sends no BLOB flag on a VARBINARY: " + expected);
        assertEquals(expected, query(shardwise(), sql));
    }

    @Test
    void aDoubleParameterIsBoundAsADoubleNotADecimal() throws Exception {
        String sql = "SELECT AVG(quantity * ?), SUM(quantity * ?) FROM order_items WHERE user_id < 40";
        List<Wire> expected = executeWithDoubles(mariadb(), sql, 1.5, 0.25);
        assertEquals(5, expected.get(0).type(), "MariaDB: AVG of a DOUBLE is a DOUBLE: " + expected);
        List<Wire> actual = executeWithDoubles(shardwise(), sql, 1.5, 0.25);
        assertEquals(types(expected), types(actual), "column types, as MySQL types a bound DOUBLE");
    }

    @Test
    void aFederatedStatementCopyingFromAnotherBackendAnnouncesItsColumnsAtPrepare() throws Exception {
        // events lives on ds0 only, promotions on ds1: the coordinator copies events from its definition on ds0
        String sql = "SELECT e.id, p.code, e.created_at FROM events e JOIN promotions p ON p.id = e.id WHERE e.id < ?";
        List<Wire> expected = prepare(mariadb(), sql);
        assertEquals(3, expected.size());
        List<Wire> actual = prepare(shardwise(), sql);
        assertEquals(types(expected), types(actual), "the prepare's column types");
        assertEquals(expected.stream().map(Wire::name).toList(), actual.stream().map(Wire::name).toList());
    }

    /**
     * What Shardwise answers itself (variables, user variables, SHOW VARIABLES, SHOW WARNINGS) is described as one
     * MariaDB describes it: text columns in the results' collation, as long as its character set makes them, for the
     * handshake's collation and after SET NAMES. Compared: each column's name, collation and, for text, length (a string's
     * "not fixed" decimals and a number's display length are other, documented differences).
     */
    @Test
    void valuesShardwiseAnswersItselfAreDescribedInTheResultsCollation() throws Exception {
        List<String> statements = List.of("SELECT @@character_set_results, @@autocommit, @a, @nope",
                "SHOW VARIABLES LIKE 'character_set_results'", "SHOW WARNINGS");
        for (int collation : new int[] {45, 255, 224, 46, 33, 8}) {
            for (String names : new String[] {null, "SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci", "SET NAMES latin1",
                    "SET character_set_results = utf8mb3"}) {
                List<List<String>> expected = answers(mariadb(collation), names, statements);
                assertEquals(expected, answers(shardwise(collation), names, statements),
                        "handshake collation " + collation + (names == null ? "" : ", then " + names));
            }
        }
    }

    /**
     * The integer values Shardwise answers itself (session variables, LAST_INSERT_ID() and its kin, SHOW WARNINGS'
     * Code, the warning counts) carry MariaDB's own definitions: display length, flags and decimals too, not a
     * generic BIGINT's 20 or 21.
     */
    @Test
    void integersShardwiseAnswersItselfCarryMariadbsDisplayLengths() throws Exception {
        List<String> statements = List.of("SELECT @@autocommit", "SELECT @@session.autocommit", "SELECT @@in_transaction",
                "SELECT @@completion_type", "SELECT @@auto_increment_increment",
                "SELECT @@sql_auto_is_null", "SELECT @@max_allowed_packet", "SELECT LAST_INSERT_ID()",
                "SELECT CONNECTION_ID()", "SELECT @@warning_count", "SHOW COUNT(*) WARNINGS",
                "SHOW WARNINGS");
        List<String> expected = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        for (String sql : statements) {
            expected.add(sql + " " + integers(mariadb(), sql));
            actual.add(sql + " " + integers(shardwise(), sql));
        }
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    /** A statement's column definitions, after a warning (SELECT 1/0), with the names. */
    private static List<Wire> integers(RawClient c, String sql) throws IOException {
        try (c) {
            c.command(Command.COM_QUERY, "SELECT 1/0");
            definitions(c, c.read().header());
            drainRows(c);
            c.command(Command.COM_QUERY, sql);
            RawClient.Reply head = c.read();
            assertTrue(head.header() != ErrPacket.HEADER, () -> sql + ": " + head.as(ErrPacket::decode));
            List<Wire> columns = definitions(c, head.header());
            drainRows(c);
            return columns;
        }
    }

    private RawClient shardwise(int collation) throws IOException {
        return RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN, EOF_CLIENT, collation);
    }

    private RawClient mariadb(int collation) throws IOException {
        return RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                NativePassword.PLUGIN, EOF_CLIENT, collation);
    }

    /** The column definitions of each statement, after {@code names} (if any), {@code SET @a} and a warning. */
    private static List<List<String>> answers(RawClient c, String names, List<String> statements) throws IOException {
        try (c) {
            for (String set : names == null ? List.of("SET @a = 'xyz'") : List.of(names, "SET @a = 'xyz'")) {
                c.command(Command.COM_QUERY, set);
                RawClient.Reply ok = c.read();
                assertEquals(0, ok.header(), () -> set + ": " + ok.as(ErrPacket::decode));
            }
            List<List<String>> out = new ArrayList<>();
            for (String sql : statements) {
                if (sql.equals("SHOW WARNINGS")) {
                    c.command(Command.COM_QUERY, "SELECT 1/0");
                    RawClient.Reply head = c.read();
                    definitions(c, head.header());
                    drainRows(c);
                }
                c.command(Command.COM_QUERY, sql);
                RawClient.Reply head = c.read();
                assertTrue(head.header() != ErrPacket.HEADER, () -> sql + ": " + head.as(ErrPacket::decode));
                out.add(definitions(c, head.header()).stream().map(w -> w.name() + " " + w.collation()
                        + (w.collation() == 63 ? "" : " " + w.length())).toList());
                drainRows(c);
            }
            return out;
        }
    }

    private static List<Integer> types(List<Wire> columns) {
        return columns.stream().map(Wire::type).toList();
    }

    /** A text query's column definitions (its rows read and dropped). */
    private static List<Wire> query(RawClient c, String sql) throws IOException {
        try (c) {
            c.command(Command.COM_QUERY, sql);
            RawClient.Reply head = c.read();
            assertTrue(head.header() != ErrPacket.HEADER, () -> "error: " + head.as(ErrPacket::decode));
            List<Wire> columns = definitions(c, head.header());
            drainRows(c);
            return columns;
        }
    }

    /** The columns COM_STMT_PREPARE announces. */
    private static List<Wire> prepare(RawClient c, String sql) throws IOException {
        try (c) {
            return prepared(c, sql).columns();
        }
    }

    private record Prepared(int id, int parameters, List<Wire> columns) {}

    private static Prepared prepared(RawClient c, String sql) throws IOException {
        c.command(StmtCommand.COM_STMT_PREPARE, sql);
        RawClient.Reply ok = c.read();
        assertTrue(ok.header() == 0, () -> "error: " + ok.as(ErrPacket::decode));
        ByteBuffer b = ByteBuffer.wrap(ok.payload()).order(ByteOrder.LITTLE_ENDIAN);
        int id = b.getInt(1);
        int columns = b.getShort(5) & 0xFFFF;
        int parameters = b.getShort(7) & 0xFFFF;
        if (parameters > 0) {
            definitions(c, parameters);
        }
        return new Prepared(id, parameters, columns > 0 ? definitions(c, columns) : List.of());
    }

    /** Prepares {@code sql} and executes it with each value bound as MYSQL_TYPE_DOUBLE; the execute's column definitions. */
    private static List<Wire> executeWithDoubles(RawClient c, String sql, double... values) throws IOException {
        try (c) {
            Prepared p = prepared(c, sql);
            assertEquals(values.length, p.parameters());
            int bitmap = (values.length + 7) / 8;
            ByteBuffer b = ByteBuffer.allocate(1 + 4 + 1 + 4 + bitmap + 1 + 2 * values.length + 8 * values.length)
                    .order(ByteOrder.LITTLE_ENDIAN);
            b.put((byte) StmtCommand.COM_STMT_EXECUTE).putInt(p.id()).put((byte) 0).putInt(1);
            b.put(new byte[bitmap]).put((byte) 1); // no NULLs; types bound
            for (int i = 0; i < values.length; i++) {
                b.put((byte) 5).put((byte) 0); // MYSQL_TYPE_DOUBLE, signed
            }
            for (double v : values) {
                b.putDouble(v);
            }
            c.send(0, b.array());
            RawClient.Reply head = c.read();
            assertTrue(head.header() != ErrPacket.HEADER, () -> "error: " + head.as(ErrPacket::decode));
            List<Wire> columns = definitions(c, head.header());
            drainRows(c);
            return columns;
        }
    }

    /** {@code n} definitions, then the EOF that ends them. */
    private static List<Wire> definitions(RawClient c, int n) throws IOException {
        List<Wire> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(Wire.of(c.read().as(ColumnDefinition::decode)));
        }
        assertEquals(0xFE, c.read().header(), "an EOF after the definitions");
        return out;
    }

    private static void drainRows(RawClient c) throws IOException {
        while (true) {
            RawClient.Reply r = c.read();
            assertTrue(r.header() != ErrPacket.HEADER, () -> "error mid-result: " + r.as(ErrPacket::decode));
            if (r.header() == 0xFE && r.payload().length < 9) {
                return;
            }
        }
    }
}
