package io.shardwise.server.session;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Ticker;
import java.util.concurrent.TimeUnit;

/**
 * A client connection's idle timeout: {@link IdleStateEvent}s as Netty's {@code IdleStateHandler(0,
 * 0, timeout)} fires them (first {@link IdleStateEvent#FIRST_ALL_IDLE_STATE_EVENT}, then
 * {@link IdleStateEvent#ALL_IDLE_STATE_EVENT} every period while nothing is read or written), without
 * its garbage on the hot path: that handler watches each write's completion through a promise of its
 * own (a void promise cannot be watched: a new promise and a listener array per write, over 100 bytes
 * per relayed statement). Here a write counts when it is issued — the same for an idle check, since
 * a client is only closed when no command runs. One scheduled check per period, as the original's.
 * Event-loop confined.
 */
public final class IdleTimeout extends ChannelDuplexHandler implements Runnable {
    private final long timeoutNanos;
    private ChannelHandlerContext ctx;
    private Ticker ticker;
    private Future<?> check;
    /** When the last read completed or the last write was issued. */
    private long lastActivity;
    private boolean reading;
    private boolean first = true;
    /** 0 fresh, 1 checking, 2 removed or closed. */
    private int state;

    public IdleTimeout(long timeout, TimeUnit unit) {
        this.timeoutNanos = Math.max(unit.toNanos(timeout), TimeUnit.MILLISECONDS.toNanos(1));
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            start(ctx);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
        super.channelRegistered(ctx);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        start(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stop();
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        reading = true;
        first = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (reading) {
            lastActivity = now();
            reading = false;
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (state == 1) {
            lastActivity = now();
            first = true;
        }
        ctx.write(msg, promise);
    }

    private void start(ChannelHandlerContext ctx) {
        if (state != 0) {
            return;
        }
        state = 1;
        this.ctx = ctx;
        this.ticker = ctx.executor().ticker();
        lastActivity = now();
        check = ctx.executor().schedule(this, timeoutNanos, TimeUnit.NANOSECONDS);
    }

    private void stop() {
        state = 2;
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }

    private long now() {
        return ticker.nanoTime();
    }

    /** The check: idle for the whole period fires the event and checks again a period later, else when the period would end. */
    @Override
    public void run() {
        if (state != 1 || !ctx.channel().isOpen()) {
            return;
        }
        long left = reading ? timeoutNanos : timeoutNanos - (now() - lastActivity);
        if (left > 0) {
            check = ctx.executor().schedule(this, left, TimeUnit.NANOSECONDS);
            return;
        }
        check = ctx.executor().schedule(this, timeoutNanos, TimeUnit.NANOSECONDS);
        IdleStateEvent event = first ? IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT : IdleStateEvent.ALL_IDLE_STATE_EVENT;
        first = false;
        ctx.fireUserEventTriggered(event);
    }
}
