package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.shardwise.core.RelayPlan;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.Command;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.MalformedPacketException;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.relay.BackendConnection;
import io.shardwise.server.relay.Relays;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

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
    /** Null when the server relays nothing. */
    private final Relays relays;
    /** The statement being relayed on the event loop, or null; event-loop confined, as the two below. */
    private QueryRelay relay;
    /** A relay waits for its backend connections to log in. */
    private boolean starting;
    /** Commands a client pipelined behind a relayed one: they wait for its end. */
    private final ArrayDeque<Object> held = new ArrayDeque<>();
    private ChannelHandlerContext context;
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    private final AtomicBoolean busy = new AtomicBoolean();
    /**
     * Commands handed to the session thread and not yet answered: raised by the event loop before it
     * queues one, lowered by the session thread after the answer. A relay starts only at zero, so it
     * can never overlap a command the session thread has taken but not yet marked {@link #busy}
     * (a client that pipelines commands would otherwise race the two on one engine session).
     */
    private final AtomicInteger unanswered = new AtomicInteger();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private WritabilityGate gate;

    public CommandDispatcher(CommandHandler handler, Capabilities capabilities) {
        this(handler, capabilities, null);
    }

    /** @param relays the server's relay connections, or null for no relay (every command on the session thread) */
    public CommandDispatcher(CommandHandler handler, Capabilities capabilities, Relays relays) {
        this.handler = handler;
        this.capabilities = capabilities;
        this.relays = relays;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        context = ctx;
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
                    unanswered.decrementAndGet();
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
        } else if (relays != null && context != null) {
            context.channel().eventLoop().execute(() -> {
                if (relay != null) {
                    relay.kill();
                }
            });
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
        if (relay != null || starting) {
            held.add(msg);
            return;
        }
        // relayed only while the session thread has nothing to do: commands of a connection stay in order
        if (relays != null && unanswered.get() == 0 && msg instanceof Packet packet && tryRelay(ctx, packet)) {
            return;
        }
        toSession(msg);
    }

    private void toSession(Object msg) {
        unanswered.incrementAndGet();
        inbox.add(msg);
    }

    /**
     * Starts relaying a COM_QUERY the engine finds relayable, once a connection of each backend it
     * needs is at hand; false (nothing changed) when it must take the session thread's path.
     */
    private boolean tryRelay(ChannelHandlerContext ctx, Packet packet) {
        ByteBuf content = packet.content();
        if (content.readableBytes() < 8 || content.getByte(content.readerIndex()) != Command.COM_QUERY) {
            return false;
        }
        byte[] bytes = new byte[content.readableBytes() - 1];
        content.getBytes(content.readerIndex() + 1, bytes);
        String sql = handler.decode(bytes); // the session is idle (nothing unanswered): its charset is stable
        RelayPlan plan = handler.relayPlan(sql);
        if (plan == null) {
            return false;
        }
        EventLoop loop = ctx.channel().eventLoop();
        Map<String, Future<BackendConnection>> leases = new LinkedHashMap<>(4);
        for (ExecutionUnit u : plan.units()) {
            if (!leases.containsKey(u.backend())) {
                Future<BackendConnection> lease = relays.acquire(loop, u.backend(), capabilities.countsFoundRows(), plan.setup());
                if (lease == null) {
                    giveBack(loop, leases, plan.setup());
                    return false;
                }
                leases.put(u.backend(), lease);
            }
        }
        starting = true;
        int[] pending = {leases.size()};
        for (Future<BackendConnection> lease : leases.values()) {
            if (lease.isDone()) {
                pending[0]--;
            } else {
                lease.addListener(f -> {
                    if (--pending[0] == 0) {
                        begin(ctx, packet, sql, plan, leases);
                    }
                });
            }
        }
        if (pending[0] == 0) {
            begin(ctx, packet, sql, plan, leases);
        }
        return true;
    }

    private void begin(ChannelHandlerContext ctx, Packet packet, String sql, RelayPlan plan,
                       Map<String, Future<BackendConnection>> leases) {
        starting = false;
        Map<String, BackendConnection> connections = new LinkedHashMap<>(4);
        for (Map.Entry<String, Future<BackendConnection>> e : leases.entrySet()) {
            if (e.getValue().isSuccess()) {
                connections.put(e.getKey(), e.getValue().getNow());
            }
        }
        EventLoop loop = ctx.channel().eventLoop();
        if (connections.size() < leases.size() || !ctx.channel().isActive()) {
            // a backend could not be reached or logged into: the JDBC path runs it (and reports any error)
            giveBack(loop, leases, plan.setup());
            if (ctx.channel().isActive()) {
                toSession(packet);
            } else {
                packet.release();
            }
            takeHeld(ctx);
            return;
        }
        int firstSequenceId = packet.sequenceId() + 1;
        packet.release();
        boolean foundRows = capabilities.countsFoundRows();
        relay = new QueryRelay(ctx.channel(), capabilities, handler, plan, connections, firstSequenceId,
                c -> relays.release(loop, c, foundRows, plan.setup()), ended -> {
                    relay = null;
                    takeHeld(ctx);
                });
        handler.relayStarting(sql, plan);
        relays.countRelayed();
        relay.start();
    }

    private void giveBack(EventLoop loop, Map<String, Future<BackendConnection>> leases, String setup) {
        boolean foundRows = capabilities.countsFoundRows();
        for (Future<BackendConnection> lease : leases.values()) {
            lease.addListener(f -> {
                if (f.isSuccess()) {
                    relays.release(loop, lease.getNow(), foundRows, setup);
                }
            });
        }
    }

    /** Commands that arrived during a relay, in order, now that it ended (each may be relayed in turn). */
    private void takeHeld(ChannelHandlerContext ctx) {
        while (relay == null && !starting && !held.isEmpty()) {
            channelRead(ctx, held.poll());
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (relay != null) {
            relay.writable();
        }
        gate.signal();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (relay != null) {
            relay.abort();
        }
        for (Object left; (left = held.poll()) != null; ) {
            ReferenceCountUtil.release(left);
        }
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
        if (event instanceof IdleStateEvent && unanswered.get() == 0 && relay == null && !starting) {
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
