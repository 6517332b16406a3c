package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.shardwise.server.protocol.Packet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The server's side of the protocol's LOCAL INFILE exchange, as a stream: opening it sends the
 * request (0xFB and the file name) within the running command; the client then sends the file in
 * packets and an empty one at its end, and the command's answer continues from the sequence id
 * after that. Read on the session thread only; each packet is released once read.
 *
 * <p>Hazard: the answer may only go out after the empty packet, so {@link #close} reads (and drops)
 * what is left of the file when the statement stopped early (an error).
 */
final class LocalInfileStream extends InputStream {
    private final ResponseWriter out;
    private final CommandHandler.Inbound in;
    private Packet packet;
    private boolean ended;

    LocalInfileStream(ResponseWriter out, CommandHandler.Inbound in, String name) {
        this.out = out;
        this.in = in;
        byte[] file = name.getBytes(StandardCharsets.UTF_8);
        ByteBuf request = out.alloc().buffer(1 + file.length).writeByte(0xFB).writeBytes(file);
        in.receiving(true);
        out.send(request);
        out.flush();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (packet == null || !packet.content().isReadable()) {
            if (ended) {
                return -1;
            }
            take();
        }
        ByteBuf content = packet.content();
        int n = Math.min(len, content.readableBytes());
        content.readBytes(b, off, n);
        return n;
    }

    private void take() throws IOException {
        if (packet != null) {
            packet.release();
            packet = null;
        }
        Packet next = in.next();
        if (next == null) {
            ended = true;
            in.receiving(false);
            throw new IOException("the client closed the connection while sending the file");
        }
        if (!next.content().isReadable()) {
            next.release();
            ended = true;
            in.receiving(false);
            out.continueAfter(next.sequenceId());
            return;
        }
        packet = next;
    }

    @Override
    public void close() throws IOException {
        try {
            while (!ended) {
                take();
            }
        } finally {
            if (packet != null) {
                packet.release();
                packet = null;
            }
        }
    }
}
