package io.shardwise.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleStateEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The idle timeout on the embedded channel's own clock (no waiting): Netty's IdleStateHandler(0, 0, t)'s events, no promise per write. */
class IdleTimeoutTest {
    private final List<Object> events = new ArrayList<>();

    private EmbeddedChannel channel() {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.freezeTime();
        ch.pipeline().addLast(new IdleTimeout(100, TimeUnit.MILLISECONDS), new ChannelInboundHandlerAdapter() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                events.add(evt);
            }
        });
        return ch;
    }

    @Test
    void firesFirstAfterAQuietPeriodThenEveryPeriod() {
        EmbeddedChannel ch = channel();
        ch.advanceTimeBy(99, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        assertEquals(List.of(), events);
        ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        assertEquals(List.of(IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT), events);
        ch.advanceTimeBy(100, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        assertEquals(List.of(IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT, IdleStateEvent.ALL_IDLE_STATE_EVENT), events);
        ch.finishAndReleaseAll();
    }

    @Test
    void aReadOrAWriteStartsThePeriodAgain() {
        EmbeddedChannel ch = channel();
        ch.advanceTimeBy(80, TimeUnit.MILLISECONDS);
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {1})); // read and read complete
        ch.advanceTimeBy(80, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        assertEquals(List.of(), events);
        ch.writeOutbound(Unpooled.wrappedBuffer(new byte[] {2}));
        ch.advanceTimeBy(80, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        assertEquals(List.of(), events, "80 ms after the write");
        ch.advanceTimeBy(20, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        assertSame(IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT, events.get(0));
        assertEquals(1, events.size());
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {3}));
        ch.advanceTimeBy(100, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
        assertEquals(List.of(IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT, IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT), events,
                "activity makes the next event a first one again");
        ch.finishAndReleaseAll();
    }

    @Test
    void aWriteTakesNoPromiseOfItsOwn() {
        EmbeddedChannel ch = channel();
        // the void promise goes through as it came: nothing to watch, nothing made (IdleStateHandler would have made a promise)
        ch.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}), ch.voidPromise());
        assertEquals(1, ch.outboundMessages().size());
        ch.close();
        ch.advanceTimeBy(1, TimeUnit.SECONDS);
        ch.runPendingTasks();
        assertEquals(List.of(), events, "nothing fires once the channel closed");
        ch.finishAndReleaseAll();
    }
}
