package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.Wire;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Multi-statement COM_QUERY on the wire, compared packet by packet (kind, status flags, affected
 * rows, insert id, rows, errno and SQLSTATE) with the same raw client talking straight to the
 * unsharded database: what MySQL-compatible servers send is the specification.
 */
class MultiStatementServerTest {
    private static final int MULTI_ON = 0;
    private static final int MULTI_OFF = 1;
    private static final int STATUS_BITS = ServerStatus.IN_TRANSACTION | ServerStatus.AUTOCOMMIT | ServerStatus.MORE_RESULTS_EXIST;
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("multi");

    private static RawClient shardwise(Capabilities capabilities) throws IOException {
        return RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN, capabilities);
    }

    private static RawClient direct(Capabilities capabilities) throws IOException {
        return RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                NativePassword.PLUGIN, capabilities);
    }

    private static Capabilities client(boolean multiStatements, boolean deprecateEof) {
        int bits = Capabilities.SERVER.bits() | Capabilities.MULTI_RESULTS;
        bits = multiStatements ? bits | Capabilities.MULTI_STATEMENTS : bits & ~Capabilities.MULTI_STATEMENTS;
        bits = deprecateEof ? bits : bits & ~Capabilities.DEPRECATE_EOF;
        return new Capabilities(bits);
    }

    /** Each string is one COM_QUERY (or "SET_OPTION n"); the result is every packet of every answer, summarized. */
    private static List<String> run(RawClient c, Capabilities capabilities, String... commands) throws IOException {
        List<String> out = new ArrayList<>();
        for (String command : commands) {
            out.add(">> " + command);
            if (command.startsWith("SET_OPTION ")) {
                c.send(0, new byte[] {0x1B, (byte) Integer.parseInt(command.substring(11)), 0});
                RawClient.Reply r = c.read();
                out.add(r.header() == 0xFF ? "ERR " + r.as(ErrPacket::decode).errno() : "EOF/OK");
                continue;
            }
            c.command(0x03, command);
            readResponse(c, capabilities, out);
        }
        return out;
    }

    private static void readResponse(RawClient c, Capabilities capabilities, List<String> out) throws IOException {
        boolean more = true;
        while (more) {
            RawClient.Reply first = c.read();
            if (first.header() == 0xFF) {
                ErrPacket e = first.as(ErrPacket::decode);
                out.add("ERR " + e.errno() + " " + e.sqlState());
                return;
            }
            if (first.header() == 0x00) {
                OkPacket ok = first.as(OkPacket::decode);
                out.add("OK affected=" + ok.affectedRows() + " id=" + ok.lastInsertId() + " status=" + (ok.status().bits() & STATUS_BITS));
                more = ok.status().moreResultsExist();
                continue;
            }
            long columns = first.as(Wire::readLenenc);
            for (long i = 0; i < columns; i++) {
                c.read();
            }
            if (!capabilities.endsResultsWithOk()) {
                RawClient.Reply eof = c.read();
                out.add("columns=" + columns + " eof status=" + (statusOfEnd(eof) & STATUS_BITS));
            } else {
                out.add("columns=" + columns);
            }
            while (true) {
                RawClient.Reply row = c.read();
                if (row.header() == 0xFE && row.payload().length < 0xFFFFFF) {
                    int status = statusOfEnd(row);
                    out.add("end status=" + (status & STATUS_BITS));
                    more = (status & ServerStatus.MORE_RESULTS_EXIST) != 0;
                    break;
                }
                if (row.header() == 0xFF) {
                    ErrPacket e = row.as(ErrPacket::decode);
                    out.add("ERR " + e.errno() + " " + e.sqlState());
                    return;
                }
                out.add("row " + textRow(row.payload(), (int) columns));
            }
        }
    }

    private static int statusOfEnd(RawClient.Reply end) {
        if (end.payload().length == 5) { // EOF: header, warnings, status
            return (end.payload()[3] & 0xFF) | (end.payload()[4] & 0xFF) << 8;
        }
        return end.as(OkPacket::decode).status().bits();
    }

    private static String textRow(byte[] payload, int columns) {
        ByteBuf in = Unpooled.wrappedBuffer(payload);
        List<String> values = new ArrayList<>();
        for (int i = 0; i < columns; i++) {
            if (in.getUnsignedByte(in.readerIndex()) == 0xFB) {
                in.skipBytes(1);
                values.add("NULL");
            } else {
                int n = (int) Wire.readLenenc(in);
                values.add(in.readCharSequence(n, StandardCharsets.UTF_8).toString());
            }
        }
        return String.join("|", values);
    }

    private static void same(boolean multi, boolean deprecateEof, String... commands) throws IOException {
        Capabilities caps = client(multi, deprecateEof);
        List<String> expected;
        try (RawClient c = direct(caps)) {
            expected = run(c, caps, commands);
        }
        List<String> actual;
        try (RawClient c = shardwise(caps)) {
            actual = run(c, caps, commands);
        }
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    @Test
    void statementsRunInOrderEachWithItsResultAndMoreResultsOnAllButTheLast() throws IOException {
        for (boolean deprecateEof : new boolean[] {true, false}) {
            same(true, deprecateEof,
                    "SELECT 1; SELECT 2",
                    "SELECT COUNT(*) FROM orders; SELECT status, COUNT(*) FROM orders GROUP BY status ORDER BY status;"
                            + " UPDATE orders SET status = status WHERE user_id = 42; SELECT order_id FROM orders WHERE user_id = 42 ORDER BY order_id",
                    "SET NAMES utf8mb4; SELECT CONCAT('a', 'b')");
        }
    }

    @Test
    void anErrorStopsTheRestAndIsTheLastPacket() throws IOException {
        same(true, true,
                "SELECT 1; SELECT * FROM no_such_table; SELECT 3",
                "SELECT 1; SELEC 2; SELECT 3",
                "SELECT order_id FROM orders WHERE user_id = 7 ORDER BY order_id; SELECT no_such_column FROM orders",
                "SELECT 1; SELECT 'unterminated",
                "SELECT 1 FROM dual");
    }

    @Test
    void semicolonsInsideStringsIdentifiersAndCommentsDoNotSplit() throws IOException {
        same(true, true,
                "SELECT ';' AS `a;b`, \"x;y\" /* ; */ ; SELECT 'it''s;' # trailing ; comment\n; SELECT `a;b` FROM (SELECT 2 AS `a;b`) t",
                "SELECT 1 -- c;\n; SELECT /*! 2; */ 3".replace("/*! 2; */", "/* 2; */"));
    }

    @Test
    void trailingAndEmptyStatementsBehaveAsInMysql() throws IOException {
        same(true, true, "SELECT 1;", "SELECT 1 ;  ;; ", "SELECT 1;;SELECT 2", "SELECT 1; ; SELECT 2", "SELECT 1; /* only a comment */",
                "/* only a comment */", "", "  ;  ", "SELECT 1; -- c");
    }

    @Test
    void statusFlagsFollowTransactionsAndAutocommitStatementByStatement() throws IOException {
        same(true, true,
                "BEGIN; UPDATE orders SET status = status WHERE user_id = 42; SELECT @@autocommit; ROLLBACK; SELECT 1",
                "SET autocommit = 0; SELECT COUNT(*) FROM users; COMMIT; SET autocommit = 1; SELECT 2",
                "INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (9950001, 950001, 'new', 1, '2025-01-01');"
                        + " DELETE FROM orders WHERE user_id = 950001; SELECT COUNT(*) FROM orders WHERE user_id = 950001");
    }

    @Test
    void withoutMultiStatementsASecondStatementIsASyntaxErrorUntilSetOptionTurnsThemOn() throws IOException {
        same(false, true,
                "SELECT 1; SELECT 2",
                "SELECT 1;",
                "SELECT 1; /* just a comment */",
                "SELECT 1;;",
                "SET_OPTION " + MULTI_ON,
                "SELECT 1; SELECT 2",
                "SET_OPTION " + MULTI_OFF,
                "SELECT 1; SELECT 2");
        same(true, true, "SET_OPTION " + MULTI_OFF, "SELECT 1; SELECT 2", "SET_OPTION 7");
    }
}
