package io.shardwise.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardwise.server.Leaks;
import io.shardwise.server.RecordingLeakDetector;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a small packet costs Netty's leak detector, counted: at paranoid level (every test JVM) each
 * accessor call on a tracked buffer records a stack trace. Connector/J sends a LOAD DATA LOCAL file a
 * read at a time, so a generated file read a line at a time is a wire packet per line: h/alloc2 copied
 * each small packet a long at a time (two records per eight bytes) and LoadDataMemoryIT's million lines
 * took 110 s instead of 38 s. A copy must cost the same few records whatever the packet's length.
 */
class PacketDecoderRecordsTest {
    private static final int PACKETS = 1_000;

    @AfterEach
    void noBufferLeaked() {
        Leaks.assertNone();
    }

    @Test
    void aSmallPacketCostsTheSameFewRecordsWhateverItsLength() {
        double line = recordsPerPacket(107); // LoadDataMemoryIT's lines
        double tiny = recordsPerPacket(8);
        double largestCopied = recordsPerPacket(PacketDecoder.COPIED - Packet.HEADER_LENGTH);
        double sliced = recordsPerPacket(PacketDecoder.COPIED + 100);
        System.out.printf("[PacketDecoderRecordsTest] leak records per packet: 8 B %.2f, 107 B %.2f, 2,048 B %.2f, sliced %.2f%n",
                tiny, line, largestCopied, sliced);
        assertEquals(tiny, line, 0.01, "records per packet of 107 bytes against 8");
        assertEquals(tiny, largestCopied, 0.01, "records per packet of " + (PacketDecoder.COPIED - Packet.HEADER_LENGTH) + " bytes against 8");
        assertTrue(tiny <= sliced + 2, "a copied packet costs " + tiny + " records, a sliced one " + sliced);
    }

    /** Decodes {@link #PACKETS} packets of {@code length} bytes sent in one read, reads and releases each as LocalInfileStream does. */
    private static double recordsPerPacket(int length) {
        byte[] payload = new byte[length];
        Arrays.fill(payload, (byte) 'x');
        byte[] wire = new byte[PACKETS * (Packet.HEADER_LENGTH + length)];
        for (int i = 0, at = 0; i < PACKETS; i++, at += Packet.HEADER_LENGTH + length) {
            wire[at] = (byte) length;
            wire[at + 1] = (byte) (length >> 8);
            wire[at + 2] = (byte) (length >> 16);
            wire[at + 3] = (byte) i;
            System.arraycopy(payload, 0, wire, at + Packet.HEADER_LENGTH, length);
        }
        byte[] into = new byte[length];
        int[] read = new int[1];
        long records = RecordingLeakDetector.recordsOf(() -> {
            EmbeddedChannel channel = new EmbeddedChannel(new PacketDecoder(64 * 1024 * 1024));
            ByteBuf in = channel.alloc().directBuffer(wire.length).writeBytes(wire);
            channel.writeInbound(in);
            for (Packet packet; (packet = channel.readInbound()) != null; ) {
                packet.content().readBytes(into, 0, packet.content().readableBytes());
                packet.release();
                read[0]++;
            }
            channel.finishAndReleaseAll();
        });
        assertEquals(PACKETS, read[0]);
        assertTrue(records > 0, "the detector records nothing: is it at paranoid level (pom.xml)?");
        return (double) records / PACKETS;
    }
}
