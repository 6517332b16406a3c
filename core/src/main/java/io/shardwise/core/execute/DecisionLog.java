package io.shardwise.core.execute;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The XA coordinator's durable memory: one line {@code C <gtrid>} per transaction whose commit was
 * decided, appended and forced to disk ({@code fsync}) before the first XA COMMIT is sent. Presumed
 * abort: a prepared branch whose gtrid has no line here is rolled back by recovery, so aborts are
 * never written.
 *
 * <p>Invariant: a decision leaves the file only through {@link #retain}, which recovery calls once
 * every branch of that transaction is known to be finished. A line cut short by a crash (no newline)
 * was never forced, so its transaction was never committed anywhere: it is ignored.
 *
 * <p>Exclusive: the file is locked for the life of the log, so two Shardwise processes can never
 * share one log (and with it, when no instance id is configured, one id). Thread-safe.
 */
final class DecisionLog implements AutoCloseable {
    private final Path path;
    private final ReentrantLock lock = new ReentrantLock();
    private final Set<String> committed = new LinkedHashSet<>();
    private FileChannel channel;
    private FileLock fileLock;

    private DecisionLog(Path path) {
        this.path = path;
    }

    /** Opens (creating if missing) and locks the log, reading the decisions it holds. */
    static DecisionLog open(Path path) throws IOException {
        DecisionLog log = new DecisionLog(path.toAbsolutePath().normalize());
        log.load();
        return log;
    }

    private void load() throws IOException {
        Path parent = path.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            fileLock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            fileLock = null;
        }
        if (fileLock == null) {
            channel.close();
            throw new IOException("in use by another Shardwise instance;"
                    + " each instance needs a log of its own");
        }
        String text = Files.readString(path, StandardCharsets.US_ASCII);
        int end = text.lastIndexOf('\n') + 1; // a torn last line was never forced: no commit followed it
        for (String line : text.substring(0, end).split("\n")) {
            if (line.startsWith("C ")) {
                committed.add(line.substring(2));
            }
        }
        channel.truncate(end);
        channel.position(end);
    }

    Path path() {
        return path;
    }

    /** Records the commit decision of {@code gtrid} durably; returns once it is on disk. */
    void commit(String gtrid) throws IOException {
        ByteBuffer line = ByteBuffer.wrap(("C " + gtrid + "\n").getBytes(StandardCharsets.US_ASCII));
        lock.lock();
        try {
            while (line.hasRemaining()) {
                channel.write(line);
            }
            channel.force(false);
            committed.add(gtrid);
        } finally {
            lock.unlock();
        }
    }

    boolean isCommitted(String gtrid) {
        lock.lock();
        try {
            return committed.contains(gtrid);
        } finally {
            lock.unlock();
        }
    }

    /** The decisions logged now. */
    Set<String> decisions() {
        lock.lock();
        try {
            return Set.copyOf(committed);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Rewrites the log with only the decisions {@code keep} accepts (write aside, force, atomic
     * rename, force the directory), so a crash at any point leaves either the old or the new file.
     */
    void retain(Predicate<String> keep) throws IOException {
        lock.lock();
        try {
            Set<String> kept = new LinkedHashSet<>();
            for (String g : committed) {
                if (keep.test(g)) {
                    kept.add(g);
                }
            }
            if (kept.size() == committed.size()) {
                return;
            }
            StringBuilder text = new StringBuilder(kept.size() * 40);
            for (String g : kept) {
                text.append("C ").append(g).append('\n');
            }
            Path aside = path.resolveSibling(path.getFileName() + ".new");
            try (FileChannel out = FileChannel.open(aside, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.US_ASCII));
                while (b.hasRemaining()) {
                    out.write(b);
                }
                out.force(true);
            }
            // the lock belongs to the old file's channel: take the new file's before the rename makes it the log
            FileChannel next = FileChannel.open(aside, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock nextLock = next.tryLock();
            Files.move(aside, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory();
            fileLock.release();
            channel.close();
            channel = next;
            fileLock = nextLock;
            channel.position(channel.size());
            committed.retainAll(kept);
        } finally {
            lock.unlock();
        }
    }

    private void forceDirectory() {
        Path dir = path.getParent();
        if (dir == null) {
            return;
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // some file systems cannot open a directory; the rename is still atomic there
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (fileLock != null && fileLock.isValid()) {
                fileLock.release();
            }
            channel.close();
        } catch (IOException e) {
            // closing: every decision was forced when it was written
        } finally {
            lock.unlock();
        }
    }
}
