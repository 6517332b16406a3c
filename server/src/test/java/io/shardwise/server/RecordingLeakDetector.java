package io.shardwise.server;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakTracker;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Netty's leak detector with every report also recorded, installed for the test JVMs through
 * {@code -Dio.netty.customResourceLeakDetector} (server/pom.xml), so tests can assert that no
 * ByteBuf leaked instead of hoping someone reads the log.
 */
public final class RecordingLeakDetector<T> extends ResourceLeakDetector<T> {
    static final List<String> REPORTS = new CopyOnWriteArrayList<>();
    /** Set only by the test that leaks on purpose, so its leak does not print "LEAK" for CI to fail on. */
    static volatile boolean quiet;

    public RecordingLeakDetector(Class<?> resourceType, int samplingInterval) {
        super(resourceType, samplingInterval);
    }

    /** Netty's factory looks for this (obsolete) signature first and logs an ERROR when it is missing. */
    public RecordingLeakDetector(Class<?> resourceType, int samplingInterval, long maxActive) {
        this(resourceType, samplingInterval);
    }

    /** The thread whose leak records {@link #recordsOf} counts, while it runs; null otherwise (trackers as Netty's). */
    private static volatile Thread counted;
    private static long records;

    /**
     * How many times the detector recorded an access to a buffer (each a stack trace at paranoid level, the
     * cost a test JVM pays per accessor call on a tracked buffer) while {@code work} ran on this thread, for
     * buffers allocated while it ran. Counted, so a test can bound the records per packet without a timing.
     */
    public static synchronized long recordsOf(Runnable work) {
        records = 0;
        counted = Thread.currentThread();
        try {
            work.run();
        } finally {
            counted = null;
        }
        return records;
    }

    @Override
    public ResourceLeakTracker<T> track(T obj) {
        ResourceLeakTracker<T> tracker = super.track(obj);
        return tracker == null || counted != Thread.currentThread() ? tracker : new Counting<>(tracker);
    }

    /** A tracker that counts the records made on the counted thread. */
    private record Counting<T>(ResourceLeakTracker<T> tracker) implements ResourceLeakTracker<T> {
        @Override
        public void record() {
            count();
            tracker.record();
        }

        @Override
        public void record(Object hint) {
            count();
            tracker.record(hint);
        }

        @Override
        public boolean close(T trackedObject) {
            return tracker.close(trackedObject);
        }

        @Override
        public Throwable getCloseStackTraceIfAny() {
            return tracker.getCloseStackTraceIfAny();
        }

        private static void count() {
            if (counted == Thread.currentThread()) {
                records++;
            }
        }
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
        REPORTS.add("LEAK: " + resourceType + records);
        if (!quiet) {
            super.reportTracedLeak(resourceType, records);
        }
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
        REPORTS.add("LEAK: " + resourceType + " (untraced)");
        if (!quiet) {
            super.reportUntracedLeak(resourceType);
        }
    }
}
