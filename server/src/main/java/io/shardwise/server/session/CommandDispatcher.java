package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.Command;
import io.shardwise.server.protocol.MalformedPacketException;
import io.shardwise.server.protocol.Packet;
import io.shardwise.core.RelaySession;
import io.shardwise.server.protocol.StmtCommand;
import io.shardwise.server.relay.RelayExecutor;
import io.shardwise.server.relay.Relays;
import java.util.ArrayDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The command phase of one connection. The event loop only queues decoded packets; one virtual
 * thread per connection takes them in order and runs each through the {@link CommandHandler}, so
 * commands of a connection run serially and backend work never blocks an event loop.
 *
 * <p>The session thread starts with the first command that needs it, not at login: a client that
 * connects, runs relayed statements and quits (PHP, CLI jobs, mysqlslap) costs no thread, no
 * hand-off between threads and no wake-up of one. COM_QUIT on an idle connection closes it on the
 * event loop, and the session of a connection whose thread never started is closed there too
 * (nothing ran on it that could block: no transaction, cursor or JDBC connection).
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
    /** This connection's relay executor, of COM_QUERY and COM_STMT_EXECUTE (null when the server relays nothing); event-loop confined, as the queue below. */
    private RelayExecutor relayer;
    /** What a relay executor calls back with, made once: a relay that cannot start after all hands its packet here... */
    private final java.util.function.Consumer<Packet> fallback = this::toSession;
    /** ...and every relay ends here (made in handlerAdded: it needs the context). */
    private Runnable relayEnded;
    /** Commands a client pipelined behind a relayed one: they wait for its end. */
    private final ArrayDeque<Object> held = new ArrayDeque<>();
    private ChannelHandlerContext context;
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    /** Set once the session thread has stopped taking from the inbox (or, when it never started, the session closed). */
    private volatile boolean ended;
    /** The session thread was started (or will never be: the connection closed first); event loop only. */
    private boolean started;
    /** COM_QUIT was taken on the event loop; event loop only. */
    private boolean quit;
    /** A command with no answer was handed to the session thread since nothing was last unanswered ({@link #behindSilent}); event loop only. */
    private boolean silentAhead;
    /** Counts the session threads started (the server's {@code sessionThreads()}); null: not counted. */
    private java.util.concurrent.atomic.LongAdder threadsStarted;
    /** Counts the commands the session thread ran (the server's {@code sessionCommands()}: each a hop off the loop); null: not counted. */
    private java.util.concurrent.atomic.LongAdder commandsRun;
    private final AtomicBoolean busy = new AtomicBoolean();
    /**
     * Commands handed to the session thread and not yet answered: raised by the event loop before it
     * queues one, lowered on the event loop once the answer's last byte is written ({@link ResponseWriter#finish}). A relay starts only at zero, so it
     * can never overlap a command the session thread has taken but not yet marked {@link #busy}
     * (a client that pipelines commands would otherwise race the two on one engine session).
     */
    private final AtomicInteger unanswered = new AtomicInteger();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    /** Set while the session thread reads a LOAD DATA LOCAL file from the inbox: reads pause when it falls behind. */
    private volatile boolean receiving;
    /** File packets queued before the client's socket stops being read (bounded memory: the client waits in TCP). */
    static final int MAX_QUEUED = 16;
    private WritabilityGate gate;
    /** The name of the server's idle handler in the pipeline. */
    public static final String IDLE = "idle";
    /** The server's own idleTimeout in milliseconds (0: none). */
    private long serverIdleMillis;
    /** The wait_timeout last enforced (session thread only). */
    private long waitTimeoutSeconds;

    public CommandDispatcher(CommandHandler handler, Capabilities capabilities) {
        this(handler, capabilities, null);
    }

    /** @param relays the server's relay connections, or null for no relay (every command on the session thread) */
    public CommandDispatcher(CommandHandler handler, Capabilities capabilities, Relays relays) {
        this.handler = handler;
        this.capabilities = capabilities;
        this.relays = relays;
    }

    /** Counts into {@code counter} each session thread this connection starts (at most one). */
    public CommandDispatcher countThreads(java.util.concurrent.atomic.LongAdder counter) {
        threadsStarted = counter;
        return this;
    }

    /** Counts into {@code counter} each command this connection's session thread runs. */
    public CommandDispatcher countCommands(java.util.concurrent.atomic.LongAdder counter) {
        commandsRun = counter;
        return this;
    }

    /** The server's configured idleTimeout, which a client's wait_timeout cannot exceed. */
    public CommandDispatcher serverIdleTimeout(long millis) {
        serverIdleMillis = millis;
        return this;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        context = ctx;
        relayEnded = () -> takeHeld(ctx);
        gate = new WritabilityGate(ctx.channel());
        if (relays != null) {
            RelaySession relaySession = handler.relaySession();
            relayer = new RelayExecutor(relays, ctx.channel(), capabilities, relaySession);
        }
        handler.inbound(new CommandHandler.Inbound() {
            @Override
            public Packet next() {
                return nextPacket();
            }

            @Override
            public void receiving(boolean on) {
                receiving = on;
                if (!on) {
                    ctx.channel().config().setAutoRead(true);
                }
            }
        });
    }

    /** The session thread, for the first command the event loop cannot answer itself. */
    private void startSessionThread(ChannelHandlerContext ctx) {
        started = true;
        if (threadsStarted != null) {
            threadsStarted.increment();
        }
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
                if (commandsRun != null) {
                    commandsRun.increment();
                }
                ResponseWriter out = new ResponseWriter(ctx.channel(), gate, capabilities, packet.sequenceId() + 1);
                boolean finishing = false;
                try {
                    more = handle(packet, out);
                    busy.set(false);
                    // answered once its last byte is written, not after this thread returns: a client's next
                    // statement, sent on reading that byte, then finds the connection idle and may be relayed
                    finishing = true;
                    out.finish(this::answered);
                } finally {
                    out.discard(); // what a failure left unsent
                    busy.set(false);
                    packet.release();
                    if (!finishing) {
                        ctx.channel().eventLoop().execute(this::answered);
                    }
                }
                if (!more) {
                    ctx.channel().close();
                    return;
                }
                enforceWaitTimeout(ctx);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                handler.close();
            } finally {
                ended = true; // before the last look: a packet added after it is released by whoever added it
                releaseInbox();
                finished.complete(null);
            }
        }
    }

    /**
     * The client's wait_timeout (interactive_timeout for a CLIENT_INTERACTIVE client, then whatever it
     * SETs) closes it once idle that long, as MySQL does; a server {@code idleTimeout} below it wins.
     * Read after each command on the session thread; the idle handler is replaced on the event loop
     * only when the value changes.
     */
    private void enforceWaitTimeout(ChannelHandlerContext ctx) {
        long seconds = handler.waitTimeoutSeconds();
        if (seconds <= 0 || seconds == waitTimeoutSeconds) {
            return;
        }
        waitTimeoutSeconds = seconds;
        long millis = Math.min(TimeUnit.SECONDS.toMillis(seconds), serverIdleMillis > 0 ? serverIdleMillis : Long.MAX_VALUE);
        ctx.channel().eventLoop().execute(() -> {
            ChannelPipeline pipeline = ctx.pipeline();
            if (!ctx.channel().isActive()) {
                return;
            }
            if (pipeline.get(IDLE) != null) {
                pipeline.remove(IDLE);
            }
            pipeline.addFirst(IDLE, new IdleTimeout(millis, TimeUnit.MILLISECONDS));
        });
    }

    /** KILL QUERY: cancels the running statement, if any, on a virtual thread of its own (cancelling may block). */
    public void cancelRunning() {
        if (busy.get()) {
            Thread.ofVirtual().start(handler::cancel);
        } else if (relayer != null) {
            context.channel().eventLoop().execute(() -> {
                relayer.kill();
            });
        }
    }

    /**
     * Graceful shutdown: closes the connection once no command is under way (nothing unanswered, no
     * relay running) and no transaction is open; returns at once, the check runs on the event loop,
     * where commands arrive, so none can slip in between the check and the close. The server calls
     * it until the session has finished or its shutdown deadline passed.
     */
    public void closeIfDrained() {
        ChannelHandlerContext ctx = context;
        if (ctx == null) {
            return;
        }
        ctx.channel().eventLoop().execute(() -> {
            // the session thread wrote the transaction state before the answer whose last byte lowered unanswered
            if (ctx.channel().isActive() && unanswered.get() == 0 && !relayBusy() && !handler.inTransaction()) {
                ctx.channel().close();
            }
        });
    }

    /** Commands taken from the client and not yet answered to the last byte. */
    int unanswered() {
        return unanswered.get();
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
            out.error(ErrorCode.UNKNOWN_COMMAND);
            return true;
        }
        return handler.handle(command, out);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (relayBusy() || !held.isEmpty() || behindSilent()) {
            if (!ctx.channel().isActive() || quit) {
                ReferenceCountUtil.release(msg);
            } else {
                held.add(msg);
            }
            return;
        }
        dispatch(ctx, msg);
    }

    /**
     * A command the session thread answered, on the event loop once its answer's last byte is written.
     * Commands held behind a silent one ({@link #behindSilent}) go on when nothing is left unanswered.
     */
    private void answered() {
        if (unanswered.decrementAndGet() == 0 && silentAhead) {
            silentAhead = false;
            takeHeld(context);
        }
    }

    /**
     * A command with no answer (COM_STMT_CLOSE, COM_STMT_SEND_LONG_DATA) went to the session thread and
     * is not done: the client did not wait for it, so what it sends next would find the session busy
     * and go to the session thread too — a transaction's first statement would then take the JDBC
     * executor for the whole transaction (Connector/J closes a server-side prepared statement and sends
     * the next statement at once). It waits instead, and may relay once the silent command is done.
     */
    private boolean behindSilent() {
        return silentAhead && unanswered.get() > 0;
    }

    private static boolean isSilent(Packet packet) {
        ByteBuf content = packet.content();
        if (!content.isReadable()) {
            return false;
        }
        byte command = content.getByte(content.readerIndex());
        return command == StmtCommand.COM_STMT_CLOSE || command == StmtCommand.COM_STMT_SEND_LONG_DATA;
    }

    private void dispatch(ChannelHandlerContext ctx, Object msg) {
        if (!ctx.channel().isActive() || quit) { // what a client sends behind its COM_QUIT is never run
            ReferenceCountUtil.release(msg);
            return;
        }
        // relayed only while the session thread has nothing to do: commands of a connection stay in order
        if (relayer != null && unanswered.get() == 0 && msg instanceof Packet packet && tryRelay(ctx, packet)) {
            return;
        }
        // COM_QUIT with nothing under way: MySQL closes without a word, no thread needs to wake for it
        if (unanswered.get() == 0 && msg instanceof Packet packet && isQuit(packet)) {
            packet.release();
            quit = true;
            if (started) {
                inbox.add(CLOSED); // the idle session thread closes the session and ends
            } else {
                closeWithoutThread();
            }
            ctx.channel().close();
            return;
        }
        toSession(msg);
    }

    private static boolean isQuit(Packet packet) {
        ByteBuf content = packet.content();
        return content.readableBytes() == 1 && content.getByte(content.readerIndex()) == Command.COM_QUIT;
    }

    private void toSession(Object msg) {
        if (relayer != null && msg instanceof Packet packet && isSilent(packet)) {
            silentAhead = true;
        }
        unanswered.incrementAndGet();
        inbox.add(msg);
        if (!started) {
            startSessionThread(context);
        }
        if (receiving && inbox.size() >= MAX_QUEUED) {
            context.channel().config().setAutoRead(false); // the session thread reads on once it caught up
        }
        // the session thread left (COM_QUIT) but the channel's close has not reached the event loop
        // yet, so a read came in after its last look at the inbox: nobody else will take this
        if (ended) {
            releaseInbox();
        }
    }

    /**
     * A packet the client sends within the running command (a LOAD DATA LOCAL file's), taken on the
     * session thread; null once the client left. It was counted as a command when queued: it is none.
     */
    private Packet nextPacket() {
        Object next;
        try {
            next = inbox.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        if (next == CLOSED) {
            inbox.add(CLOSED); // the command loop sees it too once this command ends
            return null;
        }
        unanswered.decrementAndGet();
        if (inbox.size() < MAX_QUEUED / 2 && !context.channel().config().isAutoRead()) {
            context.channel().config().setAutoRead(true);
        }
        return (Packet) next;
    }

    private void releaseInbox() {
        for (Object left; (left = inbox.poll()) != null; ) {
            ReferenceCountUtil.release(left);
        }
    }

    /** A statement is being relayed (or its relay is starting): the client's next commands wait. */
    private boolean relayBusy() {
        return relayer != null && relayer.busy();
    }

    /** Hands a COM_QUERY or COM_STMT_EXECUTE to a relay executor; false (nothing changed) when the session thread must answer it. */
    private boolean tryRelay(ChannelHandlerContext ctx, Packet packet) {
        ByteBuf content = packet.content();
        if (content.readableBytes() >= 10 && content.getByte(content.readerIndex()) == StmtCommand.COM_STMT_EXECUTE) {
            PreparedStatements.RelayableExecute execute = handler.relayableExecute(content);
            return execute != null && relayer.relayExecute(packet, execute.sql(), execute.values(), execute.types(),
                    execute.valuesOffset(), execute.held(), execute.described(), fallback, relayEnded);
        }
        if (content.readableBytes() < 6 || content.getByte(content.readerIndex()) != Command.COM_QUERY) { // BEGIN is the shortest
            return false;
        }
        int length = content.readableBytes() - 1;
        if (scratch == null && length <= SCRATCH) {
            scratch = new byte[SCRATCH];
        }
        byte[] bytes = length <= SCRATCH ? scratch : new byte[length];
        // one forEachByte, not getBytes (it makes a NIO view of a direct buffer) nor getByte per byte (with the leak
        // detector at paranoid, as in tests, each accessor call on a tracked buffer records a stack trace)
        scratchFill.into = bytes;
        scratchFill.at = 0;
        content.forEachByte(content.readerIndex() + 1, length, scratchFill);
        scratchFill.into = null;
        String sql = handler.decode(bytes, 0, length); // the session is idle (nothing unanswered): its charset is stable
        return relayer.relay(packet, sql, fallback, relayEnded);
    }

    /** Statements up to this long are read into {@link #scratch} before they are decoded, not into an array each. */
    private static final int SCRATCH = 256;
    /** The relayed statement's bytes, on the event loop only (the String decoded from them is a copy); made with the first. */
    private byte[] scratch;
    private final Fill scratchFill = new Fill();

    /** Copies the bytes it is shown into an array, in order (one object per connection, reused). */
    private static final class Fill implements io.netty.util.ByteProcessor {
        byte[] into;
        int at;

        @Override
        public boolean process(byte value) {
            into[at++] = value;
            return true;
        }
    }

    /** Commands that arrived during a relay, in order, now that it ended (each may be relayed in turn). */
    private void takeHeld(ChannelHandlerContext ctx) {
        while (!relayBusy() && !behindSilent() && !held.isEmpty()) {
            dispatch(ctx, held.poll());
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (relayer != null) {
            relayer.writable();
        }
        gate.signal();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (relayer != null) {
            relayer.abort();
        }
        for (Object left; (left = held.poll()) != null; ) {
            ReferenceCountUtil.release(left);
        }
        gate.signal();
        if (busy.get()) {
            Thread.ofVirtual().start(handler::cancel);
        }
        if (!started) {
            closeWithoutThread();
        } else if (!quit) {
            inbox.add(CLOSED);
        }
        ctx.fireChannelInactive();
    }

    /**
     * The client left before any command needed the session thread: only relayed statements (which
     * leave no transaction, cursor or JDBC connection behind) and the login touched the session, so
     * closing it cannot block and happens here, on the event loop, without starting a thread for it.
     */
    private void closeWithoutThread() {
        started = true; // nothing may start a thread for this connection any more
        try {
            handler.close();
        } finally {
            ended = true;
            releaseInbox();
            finished.complete(null);
        }
    }

    /** The idle timeout (an {@link IdleStateEvent} from the connection's {@link IdleTimeout}): only a client with no command running is idle. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent && unanswered.get() == 0 && !relayBusy()) {
            // MySQL 8.0.24+ says why before closing; sequence 0 as for any unsolicited packet
            ctx.writeAndFlush(new Packet(0, ErrPackets.of(ErrorCode.CLIENT_INTERACTION_TIMEOUT).encode(ctx.alloc())))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException || cause.getCause() instanceof TooLongFrameException) {
            // the sequence id of a packet we could not read is unknown; clients read the error anyway
            ctx.writeAndFlush(new Packet(1, ErrPackets.of(ErrorCode.PACKET_TOO_LARGE).encode(ctx.alloc())));
        }
        ctx.close();
    }
}
