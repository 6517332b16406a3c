package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Builds wire packets and feeds them to channels whole, byte by byte, and split at every boundary. */
public final class WireBytes {
    private WireBytes() {}

    /** One wire packet: 3-byte LE length, sequence id, payload (no splitting). */
    public static byte[] wirePacket(int sequenceId, byte[] payload) {
        byte[] out = new byte[payload.length + 4];
        out[0] = (byte) payload.length;
        out[1] = (byte) (payload.length >> 8);
        out[2] = (byte) (payload.length >> 16);
        out[3] = (byte) sequenceId;
        System.arraycopy(payload, 0, out, 4, payload.length);
        return out;
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    public static byte[] command(int code, String text) {
        return concat(new byte[] {(byte) code}, text.getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] bytes(ByteBuf buf) {
        byte[] b = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), b);
        return b;
    }

    /** Every way the tests cut a fixture: whole, byte by byte, and in two at each position. */
    public static List<List<byte[]>> cuts(byte[] fixture) {
        List<List<byte[]>> all = new ArrayList<>();
        all.add(List.of(fixture));
        List<byte[]> single = new ArrayList<>();
        for (byte b : fixture) {
            single.add(new byte[] {b});
        }
        all.add(single);
        for (int at = 1; at < fixture.length; at++) {
            byte[] head = new byte[at];
            byte[] tail = new byte[fixture.length - at];
            System.arraycopy(fixture, 0, head, 0, at);
            System.arraycopy(fixture, at, tail, 0, tail.length);
            all.add(List.of(head, tail));
        }
        return all;
    }

    /** Feeds each cut of {@code fixture} to a fresh channel and returns what each decoded. */
    public static List<List<Object>> decodeEveryCut(Supplier<EmbeddedChannel> channels, byte[] fixture) {
        List<List<Object>> results = new ArrayList<>();
        for (List<byte[]> cut : cuts(fixture)) {
            EmbeddedChannel channel = channels.get();
            for (byte[] piece : cut) {
                channel.writeInbound(Unpooled.wrappedBuffer(piece));
            }
            List<Object> decoded = new ArrayList<>();
            for (Object m; (m = channel.readInbound()) != null; ) {
                decoded.add(m);
            }
            results.add(decoded);
            if (channel.finish()) {
                throw new AssertionError("the channel kept unread messages after " + cut.size() + " pieces");
            }
        }
        return results;
    }
}
