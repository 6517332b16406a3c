package io.shardwise.server.protocol;

import static io.shardwise.server.protocol.WireBytes.bytes;
import static io.shardwise.server.protocol.WireBytes.command;
import static io.shardwise.server.protocol.WireBytes.concat;
import static io.shardwise.server.protocol.WireBytes.wirePacket;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.TooLongFrameException;
import io.shardwise.server.Leaks;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PacketCodecTest {
    private static final int MAX = Packet.MAX_WIRE_PAYLOAD;

    @AfterEach
    void noBufferLeaked() {
        Leaks.assertNone();
    }

    private static EmbeddedChannel decoder() {
        return new EmbeddedChannel(new PacketDecoder(64 * 1024 * 1024));
    }

    private static byte[] random(int length, long seed) {
        byte[] b = new byte[length];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void packetsDecodeTheSameWholeByteByByteAndSplitAnywhere() {
        byte[] ping = command(Command.COM_PING, "");
        byte[] query = command(Command.COM_QUERY, "SELECT 1");
        byte[] empty = new byte[0];
        byte[] fixture = concat(wirePacket(0, ping), wirePacket(7, query), wirePacket(255, empty));
        for (List<Object> decoded : WireBytes.decodeEveryCut(PacketCodecTest::decoder, fixture)) {
            assertEquals(3, decoded.size());
            Packet a = (Packet) decoded.get(0);
            Packet b = (Packet) decoded.get(1);
            Packet c = (Packet) decoded.get(2);
            try {
                assertEquals(0, a.sequenceId());
                assertArrayEquals(ping, bytes(a.content()));
                assertEquals(7, b.sequenceId());
                assertArrayEquals(query, bytes(b.content()));
                assertEquals(255, c.sequenceId());
                assertEquals(0, c.content().readableBytes());
            } finally {
                a.release();
                b.release();
                c.release();
            }
        }
    }

    @Test
    void aContinuedPayloadIsJoinedAndCarriesTheLastSequenceId() {
        byte[] payload = random(MAX + 10, 1);
        byte[] fixture = concat(wirePacket(3, Arrays.copyOf(payload, MAX)), wirePacket(4, Arrays.copyOfRange(payload, MAX, MAX + 10)));
        for (int pieceSize : new int[] {fixture.length, 1 << 20, 4093}) {
            EmbeddedChannel channel = decoder();
            for (int at = 0; at < fixture.length; at += pieceSize) {
                channel.writeInbound(Unpooled.wrappedBuffer(fixture, at, Math.min(pieceSize, fixture.length - at)));
            }
            Packet packet = channel.readInbound();
            try {
                assertEquals(4, packet.sequenceId());
                assertArrayEquals(payload, bytes(packet.content()));
            } finally {
                packet.release();
            }
            assertNull(channel.readInbound());
            assertFalse(channel.finish());
        }
    }

    @Test
    void aPayloadOfExactlySixteenMegabytesWaitsForItsEmptyTerminator() {
        byte[] payload = random(MAX, 2);
        EmbeddedChannel channel = decoder();
        channel.writeInbound(Unpooled.wrappedBuffer(wirePacket(0, payload)));
        assertNull(channel.readInbound(), "not complete before the empty packet");
        channel.writeInbound(Unpooled.wrappedBuffer(wirePacket(1, new byte[0])));
        Packet packet = channel.readInbound();
        try {
            assertEquals(1, packet.sequenceId());
            assertArrayEquals(payload, bytes(packet.content()));
        } finally {
            packet.release();
        }
        assertFalse(channel.finish());
    }

    @Test
    void anUnfinishedContinuationIsReleasedWhenTheChannelCloses() {
        EmbeddedChannel channel = decoder();
        channel.writeInbound(Unpooled.wrappedBuffer(wirePacket(0, new byte[MAX])));
        assertFalse(channel.finish());
    }

    @Test
    void aMessageOverTheLimitFailsAfterReleasingWhatWasGathered() {
        EmbeddedChannel channel = new EmbeddedChannel(new PacketDecoder(MAX + 5));
        channel.writeInbound(Unpooled.wrappedBuffer(wirePacket(0, new byte[MAX])));
        assertThrows(TooLongFrameException.class, () -> channel.writeInbound(Unpooled.wrappedBuffer(wirePacket(1, new byte[10]))));
        assertFalse(channel.finish());
    }

    private static byte[] encode(Packet packet) {
        EmbeddedChannel channel = new EmbeddedChannel(PacketEncoder.INSTANCE);
        channel.writeOutbound(packet);
        ByteBuf all = Unpooled.buffer();
        for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
            all.writeBytes(b);
            b.release();
        }
        assertFalse(channel.finish());
        byte[] out = bytes(all);
        all.release();
        return out;
    }

    @Test
    void aSmallPacketIsOneBufferAndALongOneSlicesItsPayload() {
        EmbeddedChannel channel = new EmbeddedChannel(PacketEncoder.INSTANCE);
        channel.writeOutbound(new Packet(3, Unpooled.wrappedBuffer(new byte[PacketEncoder.COPIED])));
        ByteBuf small = channel.readOutbound();
        assertEquals(Packet.HEADER_LENGTH + PacketEncoder.COPIED, small.readableBytes(), "header and payload in one buffer");
        assertNull(channel.readOutbound());
        small.release();
        ByteBuf longPayload = Unpooled.wrappedBuffer(new byte[PacketEncoder.COPIED + 1]);
        channel.writeOutbound(new Packet(4, longPayload));
        ByteBuf header = channel.readOutbound();
        ByteBuf slice = channel.readOutbound();
        assertEquals(Packet.HEADER_LENGTH, header.readableBytes());
        assertEquals(PacketEncoder.COPIED + 1, slice.readableBytes());
        assertEquals(1, longPayload.refCnt(), "the slice holds the payload itself: not copied");
        header.release();
        slice.release();
        assertFalse(channel.finish());
    }

    @Test
    void aSmallPacketGetsOneHeader() {
        byte[] payload = command(Command.COM_QUERY, "SELECT 1");
        assertArrayEquals(wirePacket(9, payload), encode(new Packet(9, Unpooled.wrappedBuffer(payload))));
    }

    @Test
    void aLongPayloadIsSplitWithCountingSequenceIds() {
        byte[] payload = random(MAX + 5, 3);
        byte[] expected = concat(wirePacket(255, Arrays.copyOf(payload, MAX)), wirePacket(0, Arrays.copyOfRange(payload, MAX, MAX + 5)));
        assertArrayEquals(expected, encode(new Packet(255, Unpooled.wrappedBuffer(payload))));
        assertEquals(2, Packet.wirePackets(payload.length));
    }

    @Test
    void aPayloadOfExactlySixteenMegabytesIsFollowedByAnEmptyPacket() {
        byte[] payload = random(MAX, 4);
        byte[] expected = concat(wirePacket(1, payload), wirePacket(2, new byte[0]));
        assertArrayEquals(expected, encode(new Packet(1, Unpooled.wrappedBuffer(payload))));
        assertEquals(2, Packet.wirePackets(MAX));
        assertEquals(1, Packet.wirePackets(0));
    }

    @Test
    void whatTheEncoderSplitsTheDecoderJoins() {
        for (int length : new int[] {0, 1, MAX - 1, MAX, MAX + 1, 2 * MAX}) {
            byte[] payload = random(length, length);
            EmbeddedChannel decoder = decoder();
            decoder.writeInbound(Unpooled.wrappedBuffer(encode(new Packet(10, Unpooled.wrappedBuffer(payload)))));
            Packet packet = decoder.readInbound();
            try {
                assertEquals((10 + Packet.wirePackets(length) - 1) & 0xFF, packet.sequenceId());
                assertArrayEquals(payload, bytes(packet.content()), "length " + length);
            } finally {
                packet.release();
            }
            assertFalse(decoder.finish());
        }
    }
}
