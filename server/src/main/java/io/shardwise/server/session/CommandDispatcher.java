package io.shardwise.server.session;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.Command;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.MalformedPacketException;
import io.shardwise.server.protocol.Packet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The command phase of one connection. The event loop only queues decoded packets; one virtual
 * thread per connection takes them in order and runs each through the {@link CommandHandler}, so
 * commands of a connection run serially and backend work never blocks an event loop.
 *
 * <p>Hazard: when the client goes away, the running statement is cancelled (on a virtual thread of
 * its own: cancelling may block) and the worker closes the session, which closes any open cursor
 * and releases its backend connections. Queued packets are released, never leaked.
 */
public final class CommandDispatcher extends ChannelInboundHandlerAdapter {
    private static final Object CLOSED = new Object();

    private final CommandHandler handler;
    private final Capabilities capabilities;
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    private final AtomicBoolean busy = new AtomicBoolean();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private WritabilityGate gate;

    public CommandDispatcher(CommandHandler handler, Capabilities capabilities) {
        this.handler = handler;
        this.capabilities = capabilities;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        gate = new WritabilityGate(ctx.channel());
        Thread.ofVirtual().name("shardwise-session-" + ctx.channel().id().asShortText()).start(() -> serve(ctx));
    }

    private void serve(ChannelHandlerContext ctx) {
        try {
            while (true) {
                Object next = inbox.take();
                if (next == CLOSED) {
                    return;
                }
                Packet packet = (Packet) next;
                boolean more;
                busy.set(true);
                ResponseWriter out = new ResponseWriter(ctx.channel(), gate, capabilities, packet.sequenceId() + 1);
                try {
                    more = handle(packet, out);
                    out.flush();
                } finally {
                    out.discard(); // what a failure left unsent
                    busy.set(false);
                    packet.release();
                }
                if (!more) {
                    ctx.channel().close();
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                handler.close();
            } finally {
                for (Object left; (left = inbox.poll()) != null; ) {
                    ReferenceCountUtil.release(left);
                }
                finished.complete(null);
            }
        }
    }

    /** KILL QUERY: cancels the running statement, if any, on a virtual thread of its own (cancelling may block). */
    public void cancelRunning() {
        if (busy.get()) {
            Thread.ofVirtual().start(handler::cancel);
        }
    }

    /** Completes once the session is closed (its cursors and backend connections released) after the client left. */
    public CompletableFuture<Void> finished() {
        return finished;
    }

    private boolean handle(Packet packet, ResponseWriter out) {
        Command command;
        try {
            command = Command.decode(packet.content());
        } catch (MalformedPacketException e) {
            out.error(1047, "08S01", "Unknown command");
            return true;
        }
        return handler.handle(command, out);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!ctx.channel().isActive()) {
            ReferenceCountUtil.release(msg);
            return;
        }
        inbox.add(msg);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        gate.signal();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        gate.signal();
        if (busy.get()) {
            Thread.ofVirtual().start(handler::cancel);
        }
        inbox.add(CLOSED);
        ctx.fireChannelInactive();
    }

    /** The idle timeout (an {@link IdleStateEvent} from the server's IdleStateHandler): only a client with no command running is idle. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent && !busy.get() && inbox.isEmpty()) {
            // MySQL 8.0.24+ says why before closing; sequence 0 as for any unsolicited packet
            ctx.writeAndFlush(new Packet(0, new ErrPacket(4031, "HY000",
                    "The client was disconnected by the server because of inactivity.").encode(ctx.alloc())))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException || cause.getCause() instanceof TooLongFrameException) {
            // the sequence id of a packet we could not read is unknown; clients read the error anyway
            ctx.writeAndFlush(new Packet(1, new ErrPacket(1153, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes")
                    .encode(ctx.alloc())));
        }
        ctx.close();
    }
}
