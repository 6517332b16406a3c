package io.shardwise.server.session;

import io.netty.channel.Channel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Parks the session's virtual thread while the channel's outbound buffer is above its high water
 * mark, so rows stay in the cursor (and the backend) rather than in memory. The event loop calls
 * {@link #signal()} on writability changes and on close. A ReentrantLock, not synchronized: the
 * waiter is a virtual thread (STYLE 16).
 */
final class WritabilityGate {
    private final Channel channel;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();

    WritabilityGate(Channel channel) {
        this.channel = channel;
    }

    /** Waits until the channel is writable; false when it closed instead. */
    boolean awaitWritable() {
        lock.lock();
        try {
            while (channel.isActive() && !channel.isWritable()) {
                // the timeout guards against a signal racing the check above; it only re-checks
                changed.await(100, TimeUnit.MILLISECONDS);
            }
            return channel.isActive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    void signal() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
