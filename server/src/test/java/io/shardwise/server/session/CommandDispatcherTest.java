package io.shardwise.server.session;

import static io.shardwise.server.protocol.WireBytes.command;
import static io.shardwise.server.protocol.WireBytes.concat;
import static io.shardwise.server.protocol.WireBytes.cuts;
import static io.shardwise.server.protocol.WireBytes.wirePacket;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.shardwise.core.Engine;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.server.Leaks;
import io.shardwise.server.SessionRegistry;
import io.shardwise.server.auth.Authenticator;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.Command;
import io.shardwise.server.protocol.PacketDecoder;
import io.shardwise.server.protocol.PacketEncoder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The command phase at the byte level (STYLE 23): pipelined commands, fed whole, byte by byte and
 * split at every position, are answered in order with the right sequence ids, and COM_QUIT closes the
 * connection with nothing left over. The commands need no backend (the engine's pools open lazily).
 *
 * <p>The dispatcher answers from its session thread, and an {@link EmbeddedChannel} runs every write
 * on the writing thread; the channel's own outbound queue is not thread-safe, so a handler at the
 * head of the pipeline takes the encoded bytes into a concurrent queue, and the test waits on that
 * queue (a condition, never a fixed sleep).
 */
class CommandDispatcherTest {
    private static final Engine ENGINE = Engine.start(SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop")));
    private static final Capabilities CLIENT = Capabilities.SERVER;
    /** OK after a command: no rows, no insert id, autocommit on, no warnings. */
    private static final byte[] OK = {0, 0, 0, 2, 0, 0, 0};

    @AfterAll
    static void close() {
        ENGINE.close();
    }

    @AfterEach
    void noBufferLeaked() {
        Leaks.assertNone();
    }

    /** Takes what reaches the transport: copies the bytes for the test thread and releases them. */
    private static final class Wire extends ChannelOutboundHandlerAdapter {
        final LinkedBlockingQueue<byte[]> written = new LinkedBlockingQueue<>();
        /** The dispatcher's count of unanswered commands just after each write reached the transport. */
        final LinkedBlockingQueue<Integer> unansweredAfterWrite = new LinkedBlockingQueue<>();
        volatile CommandDispatcher dispatcher;

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            try {
                ByteBuf b = (ByteBuf) msg;
                byte[] bytes = new byte[b.readableBytes()];
                b.getBytes(b.readerIndex(), bytes);
                promise.trySuccess(); // the bytes are on their way: a client may read them and answer from here on
                if (bytes.length > 0) {
                    unansweredAfterWrite.add(dispatcher.unanswered());
                    written.add(bytes);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        /** Waits until {@code length} bytes arrived (at most 10 s) and answers all that did. */
        byte[] await(int length) throws InterruptedException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (out.size() < length) {
                byte[] next = written.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (next == null) {
                    break;
                }
                out.writeBytes(next);
            }
            for (byte[] late; (late = written.poll()) != null; ) {
                out.writeBytes(late);
            }
            return out.toByteArray();
        }
    }

    private record Session(EmbeddedChannel channel, Wire wire, CommandDispatcher dispatcher) {}

    private static Session open() {
        return open(new io.netty.channel.ChannelDuplexHandler());
    }

    /** @param head a handler at the head of the pipeline, before the transport's stand-in */
    private static Session open(io.netty.channel.ChannelHandler head) {
        SessionRegistry registry = new SessionRegistry();
        CommandHandler handler = CommandHandler.open(ENGINE, new Authenticator.Accepted("app", "shop"), "127.0.0.1", 1, CLIENT,
                registry, 64 << 20, 255); // utf8mb4_0900_ai_ci, as Connector/J logs in
        CommandDispatcher dispatcher = new CommandDispatcher(handler, CLIENT);
        Wire wire = new Wire();
        wire.dispatcher = dispatcher;
        EmbeddedChannel channel = new EmbeddedChannel(wire, head, new PacketDecoder(64 << 20), PacketEncoder.INSTANCE, dispatcher);
        return new Session(channel, wire, dispatcher);
    }

    @Test
    void pipelinedCommandsAreAnsweredInOrderHoweverTheBytesArrive() throws Exception {
        String bad = "SELECT 'x";
        byte[] fixture = concat(
                wirePacket(0, command(Command.COM_PING, "")),
                wirePacket(0, command(0x7f, "")),
                wirePacket(0, command(Command.COM_QUERY, bad)),
                wirePacket(0, command(Command.COM_INIT_DB, "shop")),
                wirePacket(0, command(Command.COM_PING, "")),
                wirePacket(0, command(Command.COM_QUIT, "")));
        byte[] expected = concat(
                wirePacket(1, OK),
                wirePacket(1, err(1047, "08S01", "Unknown command")),
                wirePacket(1, err(1064, "42000", "You have an error in your SQL syntax; unterminated string literal at position 7"
                        + " (line 1, column 8) near ''x'")),
                wirePacket(1, OK),
                wirePacket(1, OK));
        for (List<byte[]> cut : cuts(fixture)) {
            Session s = open();
            for (byte[] piece : cut) {
                s.channel().writeInbound(Unpooled.wrappedBuffer(piece));
            }
            byte[] answered = s.wire().await(expected.length);
            assertArrayEquals(expected, answered, () -> "fed in " + cut.size() + " pieces: " + hex(answered));
            s.dispatcher().finished().get(10, TimeUnit.SECONDS);
            assertFalse(s.channel().isOpen(), "COM_QUIT closes the connection");
            assertFalse(s.channel().finish(), "nothing left in the channel");
            assertTrue(s.wire().written.isEmpty(), "nothing written after the answers");
        }
    }

    /**
     * A client that waits for each answer sends its next statement as soon as it reads the last
     * packet; by then the command must count as answered, or that statement would find the
     * connection busy and miss the relay.
     */
    @Test
    void aCommandCountsAsAnsweredByTheTimeItsLastPacketIsWritten() throws Exception {
        Session s = open();
        byte[][] commands = {command(Command.COM_PING, ""), command(Command.COM_QUERY, "SELECT 'x"), command(Command.COM_INIT_DB, "shop")};
        for (byte[] c : commands) {
            s.channel().writeInbound(Unpooled.wrappedBuffer(wirePacket(0, c)));
            Integer unanswered = s.wire().unansweredAfterWrite.poll(10, TimeUnit.SECONDS);
            assertEquals(0, unanswered, () -> "after the answer to command " + (c[0] & 0xff));
            assertTrue(s.wire().await(1).length > 0);
        }
        s.channel().close();
        s.dispatcher().finished().get(10, TimeUnit.SECONDS);
        assertFalse(s.channel().finish());
        assertTrue(s.wire().unansweredAfterWrite.isEmpty(), "one packet written per answer");
    }

    @Test
    void aClientThatLeavesMidCommandLeavesNothingBehind() throws Exception {
        Session s = open();
        byte[] ping = wirePacket(0, command(Command.COM_PING, ""));
        byte[] partial = wirePacket(0, command(Command.COM_QUERY, "SELECT 1"));
        s.channel().writeInbound(Unpooled.wrappedBuffer(concat(ping, java.util.Arrays.copyOf(partial, 6))));
        assertArrayEquals(wirePacket(1, OK), s.wire().await(wirePacket(1, OK).length));
        s.channel().close();
        s.dispatcher().finished().get(10, TimeUnit.SECONDS);
        assertFalse(s.channel().finish());
    }

    /** Holds a close back, as a real channel's close waits for its event loop while reads may still come in. */
    private static final class HeldClose extends ChannelOutboundHandlerAdapter {
        volatile ChannelHandlerContext ctx;
        volatile ChannelPromise promise;

        @Override
        public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
            this.ctx = ctx;
            this.promise = promise;
        }

        void release() {
            ctx.close(promise);
        }
    }

    /** Found by ProtocolFuzzTest's long run: a command read after COM_QUIT ended the session, before the close took effect. */
    @Test
    void aCommandReadAfterTheSessionEndedIsReleased() throws Exception {
        HeldClose held = new HeldClose();
        Session s = open(held);
        s.channel().writeInbound(Unpooled.wrappedBuffer(wirePacket(0, command(Command.COM_QUIT, ""))));
        s.dispatcher().finished().get(10, TimeUnit.SECONDS);
        assertTrue(s.channel().isActive(), "the close is still on its way");
        ByteBuf late = Unpooled.buffer().writeBytes(wirePacket(0, command(Command.COM_PING, "")));
        s.channel().writeInbound(late);
        assertEquals(0, late.refCnt(), "the late packet was released, not left in the inbox");
        held.release();
        assertFalse(s.channel().finish());
    }

    private static byte[] err(int errno, String sqlState, String message) {
        return concat(new byte[] {(byte) 0xff, (byte) errno, (byte) (errno >> 8), '#'}, sqlState.getBytes(StandardCharsets.US_ASCII),
                message.getBytes(StandardCharsets.UTF_8));
    }

    private static String hex(byte[] b) {
        return java.util.HexFormat.of().formatHex(b);
    }
}
