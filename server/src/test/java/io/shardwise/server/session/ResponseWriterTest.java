package io.shardwise.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.PacketEncoder;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.TextRow;
import io.shardwise.server.protocol.Wire;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The writer frames a whole response into one buffer: one write, one flush per response (each is an event-loop task). */
class ResponseWriterTest {
    private final EmbeddedChannel channel = new EmbeddedChannel(PacketEncoder.INSTANCE);
    private final Capabilities deprecateEof = new Capabilities(Capabilities.PROTOCOL_41 | Capabilities.DEPRECATE_EOF);

    private ResponseWriter writer(int firstSequenceId) {
        return new ResponseWriter(channel, new WritabilityGate(channel), deprecateEof, firstSequenceId);
    }

    /** The wire packets of the one buffer written, as (sequence id, payload) pairs. */
    private List<String> packets(ByteBuf wire) {
        List<String> out = new ArrayList<>();
        while (wire.isReadable()) {
            int length = wire.readUnsignedMediumLE();
            int seq = wire.readUnsignedByte();
            byte[] payload = new byte[length];
            wire.readBytes(payload);
            out.add(seq + ":" + new String(payload, StandardCharsets.ISO_8859_1));
        }
        wire.release();
        return out;
    }

    private static int seq(String packet) {
        return Integer.parseInt(packet.substring(0, packet.indexOf(':')));
    }

    @Test
    void aResultSetGoesToTheChannelAsOneBuffer() {
        ResponseWriter out = writer(1);
        Wire.writeLenenc(out.beginPacket(9), 1);
        out.endPacket();
        out.send(Unpooled.copiedBuffer("coldef", StandardCharsets.ISO_8859_1));
        for (String v : List.of("a", "bb")) {
            TextRow.writeValue(out.beginPacket(8), v.getBytes(StandardCharsets.ISO_8859_1));
            out.endPacketPaced();
        }
        out.endOfRows(ServerStatus.of(false, true), 0);
        out.finish(() -> { }); // the dispatcher's end of the command
        ByteBuf written = channel.readOutbound();
        assertNull(channel.readOutbound(), "one buffer for the whole response");
        List<String> p = packets(written);
        assertEquals(List.of("1:\u0001", "2:coldef", "3:\u0001a", "4:\u0002bb"), p.subList(0, 4));
        assertEquals(5, p.size());
        assertEquals(5, seq(p.get(4)));
    }

    @Test
    void aRowThatFailedHalfWayIsDroppedBeforeTheError() {
        ResponseWriter out = writer(1);
        TextRow.writeValue(out.beginPacket(8), "ok".getBytes(StandardCharsets.ISO_8859_1));
        out.endPacket();
        TextRow.writeValue(out.beginPacket(8), "half".getBytes(StandardCharsets.ISO_8859_1)); // never ended: its source failed
        out.error(1317, "70100", "Query execution was interrupted");
        out.finish(() -> { });
        List<String> p = packets(channel.readOutbound());
        assertEquals(2, p.size());
        assertEquals("1:\u0002ok", p.get(0));
        assertEquals(2, seq(p.get(1)), "the error follows the last whole row, numbered after it");
    }

    @Test
    void manyRowsAreHandedOverInChunksAsTheyCome() {
        ResponseWriter out = writer(1);
        for (int i = 0; i < ResponseWriter.FLUSH_EVERY; i++) {
            TextRow.writeValue(out.beginPacket(8), new byte[] {'x'});
            out.endPacketPaced();
        }
        ByteBuf chunk = channel.readOutbound();
        assertEquals(ResponseWriter.FLUSH_EVERY, packets(chunk).size(), "a slow result still reaches the client");
        out.endOfRows(ServerStatus.of(false, true), 0);
        out.finish(() -> { });
        List<String> end = packets(channel.readOutbound());
        assertEquals(1, end.size());
        assertEquals(ResponseWriter.FLUSH_EVERY + 1, seq(end.get(0)), "sequence ids continue across chunks");
    }

    @Test
    void aPayloadOfSixteenMegabytesStillGoesThroughTheSplittingEncoder() {
        ResponseWriter out = writer(1);
        out.send(Unpooled.copiedBuffer("small", StandardCharsets.ISO_8859_1));
        out.send(Unpooled.wrappedBuffer(new byte[Packet.MAX_WIRE_PAYLOAD]));
        out.ok(0, 0, ServerStatus.of(false, true), 0);
        out.finish(() -> { });
        assertEquals(List.of("1:small"), packets(channel.readOutbound()));
        ByteBuf header = channel.readOutbound();
        assertEquals(Packet.MAX_WIRE_PAYLOAD, header.getUnsignedMediumLE(0));
        assertEquals(2, header.getUnsignedByte(3));
        header.release();
        ((ByteBuf) channel.readOutbound()).release(); // the payload
        ByteBuf terminator = channel.readOutbound();
        assertEquals(0, terminator.getUnsignedMediumLE(0));
        assertEquals(3, terminator.getUnsignedByte(3));
        terminator.release();
        List<String> ok = packets(channel.readOutbound());
        assertEquals(4, seq(ok.get(0)), "the OK is numbered after the two wire packets of the big one");
    }
}
