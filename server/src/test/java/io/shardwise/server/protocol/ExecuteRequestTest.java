package io.shardwise.server.protocol;

import static io.shardwise.server.protocol.WireBytes.wirePacket;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardwise.server.Leaks;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ExecuteRequestTest {
    private static final int UNSIGNED = BinaryType.UNSIGNED_PARAMETER << 8;

    @AfterEach
    void noBufferLeaked() {
        Leaks.assertNone();
    }

    /** Builds a COM_STMT_EXECUTE payload: types (with flag bits) bound, values already encoded, nulls marked. */
    private static final class Execute {
        final ByteBuf values = Unpooled.buffer();
        final List<Integer> types = new ArrayList<>();
        final List<Boolean> nulls = new ArrayList<>();
        boolean bind = true;

        Execute param(int typeAndFlags, ByteBuf value) {
            types.add(typeAndFlags);
            nulls.add(value == null);
            if (value != null) {
                values.writeBytes(value);
            }
            return this;
        }

        byte[] payload(int statementId) {
            ByteBuf out = Unpooled.buffer();
            out.writeByte(StmtCommand.COM_STMT_EXECUTE).writeIntLE(statementId).writeByte(0).writeIntLE(1);
            int n = types.size();
            if (n > 0) {
                byte[] bitmap = new byte[(n + 7) / 8];
                for (int i = 0; i < n; i++) {
                    if (nulls.get(i)) {
                        bitmap[i / 8] |= (byte) (1 << (i % 8));
                    }
                }
                out.writeBytes(bitmap).writeByte(bind ? 1 : 0);
                if (bind) {
                    types.forEach(out::writeShortLE);
                }
                out.writeBytes(values);
            }
            return WireBytes.bytes(out);
        }
    }

    private static ByteBuf le(long v, int width) {
        ByteBuf b = Unpooled.buffer(8).writeLongLE(v);
        return b.slice(0, width);
    }

    private static ByteBuf lenenc(String s) {
        ByteBuf b = Unpooled.buffer();
        Wire.writeLenenc(b, s);
        return b;
    }

    private static ByteBuf bytes(int... values) {
        ByteBuf b = Unpooled.buffer();
        for (int v : values) {
            b.writeByte(v);
        }
        return b;
    }

    /** Frames the payload, feeds it to the packet decoder whole, byte by byte and split everywhere, and decodes each. */
    private static List<ExecuteRequest> decodeEveryCut(byte[] payload, int parameterCount, int[] boundTypes) {
        List<ExecuteRequest> all = new ArrayList<>();
        for (List<Object> decoded : WireBytes.decodeEveryCut(() -> new EmbeddedChannel(new PacketDecoder(1 << 20)),
                wirePacket(0, payload))) {
            assertEquals(1, decoded.size());
            Packet packet = (Packet) decoded.get(0);
            try {
                StmtCommand.Execute e = assertInstanceOf(StmtCommand.Execute.class, Command.decode(packet.content()));
                assertEquals(42, e.statementId());
                all.add(ExecuteRequest.decode(Unpooled.wrappedBuffer(e.body()), parameterCount, boundTypes, null));
            } finally {
                packet.release();
            }
        }
        return all;
    }

    @Test
    void everyParameterTypeDecodesToItsJavaValue() {
        Execute x = new Execute()
                .param(BinaryType.TINY, le(-5, 1))
                .param(BinaryType.TINY | UNSIGNED, le(250, 1))
                .param(BinaryType.SHORT, le(-300, 2))
                .param(BinaryType.LONG, le(-70000, 4))
                .param(BinaryType.LONG | UNSIGNED, le(4_000_000_000L, 4))
                .param(BinaryType.LONGLONG, le(-1, 8))
                .param(BinaryType.LONGLONG | UNSIGNED, le(-1, 8))
                .param(BinaryType.LONGLONG | UNSIGNED, le(7, 8))
                .param(BinaryType.FLOAT, Unpooled.buffer().writeFloatLE(1.5f))
                .param(BinaryType.DOUBLE, Unpooled.buffer().writeDoubleLE(-2.25))
                .param(BinaryType.NEWDECIMAL, lenenc("12345.67"))
                .param(BinaryType.VAR_STRING, lenenc("caf\u00e9"))
                .param(BinaryType.STRING, lenenc(""))
                .param(BinaryType.BLOB, bytes(2, 0x00, 0xFF))
                .param(BinaryType.DATE, bytes(4, 0xE9, 0x07, 3, 1))
                .param(BinaryType.DATETIME, bytes(7, 0xE9, 0x07, 3, 1, 10, 20, 30))
                .param(BinaryType.TIMESTAMP, bytes(11, 0xE9, 0x07, 3, 1, 10, 20, 30, 0xC0, 0x27, 0x09, 0))
                .param(BinaryType.TIME, bytes(8, 0, 0, 0, 0, 0, 10, 20, 30))
                .param(BinaryType.TIME, bytes(8, 1, 34, 0, 0, 0, 22, 59, 59))
                .param(BinaryType.DATE, bytes(0))
                .param(BinaryType.NULL, null)
                .param(BinaryType.VAR_STRING, null);
        List<Object> expected = Arrays.asList(-5L, 250L, -300L, -70000L, 4_000_000_000L, -1L,
                new BigInteger("18446744073709551615"), 7L, 1.5f, -2.25, new BigDecimal("12345.67"), "caf\u00e9", "",
                null /* bytes, checked below */, LocalDate.of(2025, 3, 1), LocalDateTime.of(2025, 3, 1, 10, 20, 30),
                LocalDateTime.of(2025, 3, 1, 10, 20, 30, 600_000_000), LocalTime.of(10, 20, 30), "-838:59:59",
                "0000-00-00", null, null);
        for (ExecuteRequest r : decodeEveryCut(x.payload(42), expected.size(), null)) {
            for (int i = 0; i < expected.size(); i++) {
                if (i == 13) {
                    assertArrayEquals(new byte[] {0, (byte) 0xFF}, (byte[]) r.values().get(i));
                } else {
                    assertEquals(expected.get(i), r.values().get(i), "parameter " + i);
                }
            }
        }
    }

    @Test
    void negativeBigintStaysNegativeAndUnsignedMaxBecomesBigInteger() {
        Execute x = new Execute().param(BinaryType.LONGLONG, le(-1, 8)).param(BinaryType.LONGLONG | UNSIGNED, le(-1, 8));
        ExecuteRequest r = decodeEveryCut(x.payload(42), 2, null).get(0);
        assertEquals(-1L, r.values().get(0));
        assertEquals(new BigInteger("18446744073709551615"), r.values().get(1));
    }

    @Test
    void typesAreRememberedWhenTheClientDoesNotRebindThem() {
        Execute first = new Execute().param(BinaryType.LONGLONG, le(1, 8)).param(BinaryType.VAR_STRING, lenenc("a"));
        ExecuteRequest r1 = decodeEveryCut(first.payload(42), 2, null).get(0);
        Execute second = new Execute().param(BinaryType.LONGLONG, le(2, 8)).param(BinaryType.VAR_STRING, lenenc("b"));
        second.bind = false;
        for (ExecuteRequest r2 : decodeEveryCut(second.payload(42), 2, r1.types())) {
            assertEquals(Arrays.asList(2L, "b"), r2.values());
        }
        byte[] unbound = new Execute().param(BinaryType.LONGLONG, le(3, 8)).param(BinaryType.VAR_STRING, lenenc("c")).payload(42);
        unbound[11] = 0; // new-params-bound flag: after command, id, flags, iteration count (10 bytes) and the bitmap
        byte[] body = Arrays.copyOfRange(unbound, 5, unbound.length);
        assertThrows(MalformedPacketException.class, () -> ExecuteRequest.decode(Unpooled.wrappedBuffer(body), 2, null, null));
        byte[] allNull = {0, 1, 0, 0, 0, 0x03, 0}; // flags, iteration count, bitmap: both NULL, no types bound
        assertEquals(Arrays.asList(null, null), ExecuteRequest.decode(Unpooled.wrappedBuffer(allNull), 2, null, null).values());
    }

    @Test
    void theReadOnlyCursorFlagAsksForACursor() {
        assertTrue(ExecuteRequest.decode(Unpooled.wrappedBuffer(new byte[] {1, 1, 0, 0, 0}), 0, null, null).opensCursor());
        assertFalse(ExecuteRequest.decode(Unpooled.wrappedBuffer(new byte[] {0, 1, 0, 0, 0}), 0, null, null).opensCursor());
    }

    @Test
    void nullBitmapSpansBytesAndNullsTakeNoValueBytes() {
        Execute x = new Execute();
        for (int i = 0; i < 10; i++) {
            x.param(BinaryType.LONG, i % 3 == 0 ? null : le(i, 4));
        }
        ExecuteRequest r = decodeEveryCut(x.payload(42), 10, null).get(0);
        assertEquals(Arrays.asList(null, 1L, 2L, null, 4L, 5L, null, 7L, 8L, null), r.values());
    }

    @Test
    void longDataReplacesTheValueInThePacket() {
        Execute x = new Execute().param(BinaryType.BLOB, Unpooled.EMPTY_BUFFER).param(BinaryType.VAR_STRING, lenenc("x"));
        byte[] payload = x.payload(42);
        byte[] body = Arrays.copyOfRange(payload, 5, payload.length);
        byte[][] longData = {"abc".getBytes(StandardCharsets.UTF_8), null};
        ExecuteRequest r = ExecuteRequest.decode(Unpooled.wrappedBuffer(body), 2, null, longData);
        assertArrayEquals("abc".getBytes(StandardCharsets.UTF_8), (byte[]) r.values().get(0));
        assertEquals("x", r.values().get(1));
    }

    @Test
    void aShortPacketIsMalformedNotAnIndexError() {
        Execute x = new Execute().param(BinaryType.LONGLONG, le(1, 8));
        byte[] payload = x.payload(42);
        byte[] body = Arrays.copyOfRange(payload, 5, payload.length - 3);
        assertThrows(MalformedPacketException.class, () -> ExecuteRequest.decode(Unpooled.wrappedBuffer(body), 1, null, null));
    }

    @Test
    void otherStatementCommandsDecode() {
        ByteBuf close = Unpooled.buffer().writeByte(StmtCommand.COM_STMT_CLOSE).writeIntLE(-2);
        assertEquals(new StmtCommand.Close(-2), Command.decode(close));
        ByteBuf reset = Unpooled.buffer().writeByte(StmtCommand.COM_STMT_RESET).writeIntLE(9);
        assertEquals(new StmtCommand.Reset(9), Command.decode(reset));
        ByteBuf prepare = Unpooled.buffer().writeByte(StmtCommand.COM_STMT_PREPARE).writeBytes("SELECT ?".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals("SELECT ?".getBytes(StandardCharsets.UTF_8),
                assertInstanceOf(StmtCommand.Prepare.class, Command.decode(prepare)).sql());
        ByteBuf data = Unpooled.buffer().writeByte(StmtCommand.COM_STMT_SEND_LONG_DATA).writeIntLE(3).writeShortLE(1).writeByte('z');
        StmtCommand.SendLongData d = assertInstanceOf(StmtCommand.SendLongData.class, Command.decode(data));
        assertEquals(3, d.statementId());
        assertEquals(1, d.parameter());
        assertArrayEquals(new byte[] {'z'}, d.data());
    }
}
