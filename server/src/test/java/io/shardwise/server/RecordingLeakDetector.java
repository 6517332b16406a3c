package io.shardwise.server;

import io.netty.util.ResourceLeakDetector;
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
