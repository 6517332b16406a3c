package io.shardwise.testkit;

import com.github.dockerjava.api.DockerClient;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.LockSupport;
import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A {@code mysql:8.4} container started through Testcontainers, published on a host port chosen
 * up front so that {@link #stop()}/{@link #kill()} and {@link #start()} keep the address.
 *
 * <p>Hazard: not exercised on machines without Docker (none of ours have one); the selection logic
 * is unit-tested, this class only by CI machines that do have an engine.
 */
final class ContainerServer implements ControllableServer {

    static final String IMAGE = "mysql:8.4";
    private static final String PASSWORD = "shardwise";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final ReentrantLock lock = new ReentrantLock();
    private final MySQLContainer<?> container;
    private final int hostPort;
    private final String version;
    private boolean closed;

    private ContainerServer(MySQLContainer<?> container, int hostPort) {
        this.container = container;
        this.hostPort = hostPort;
        try {
            this.version = Jdbc.queryVersion(host(), hostPort, user(), password());
        } catch (SQLException e) {
            throw new IllegalStateException("container " + IMAGE + " started but refuses JDBC: " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("resource") // closed by close(), or below when start fails
    static ContainerServer launch() {
        int hostPort = FreePort.pick();
        MySQLContainer<?> c = new MySQLContainer<>(DockerImageName.parse(IMAGE))
                .withUsername("root")
                .withPassword(PASSWORD)
                .withCommand("--max-connections=1000", "--character-set-server=utf8mb4", "--skip-name-resolve")
                .withStartupTimeout(START_TIMEOUT);
        c.setPortBindings(List.of(hostPort + ":" + MySQLContainer.MYSQL_PORT));
        try {
            c.start();
            return new ContainerServer(c, hostPort);
        } catch (RuntimeException e) {
            String logs = logsOrEmpty(c); // before stop(), which removes the container
            c.stop();
            throw new IllegalStateException("Testcontainers could not start " + IMAGE + ": " + e.getMessage() + logs, e);
        }
    }

    @Override
    public BackendKind kind() {
        return BackendKind.TESTCONTAINERS;
    }

    @Override
    public String host() {
        return container.getHost();
    }

    @Override
    public int port() {
        return hostPort;
    }

    @Override
    public String user() {
        return "root";
    }

    @Override
    public String password() {
        return PASSWORD;
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public void stop() {
        withDocker(d -> {
            if (isRunning()) {
                d.stopContainerCmd(container.getContainerId()).exec();
            }
        });
    }

    @Override
    public void kill() {
        withDocker(d -> {
            if (isRunning()) {
                d.killContainerCmd(container.getContainerId()).exec(); // SIGKILL by default
            }
        });
    }

    @Override
    public void start() {
        withDocker(d -> {
            if (!isRunning()) {
                d.startContainerCmd(container.getContainerId()).exec();
                awaitJdbc();
            }
        });
    }

    @Override
    public boolean isRunning() {
        Boolean running = container.getDockerClient().inspectContainerCmd(container.getContainerId()).exec()
                .getState().getRunning();
        return Boolean.TRUE.equals(running);
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                container.stop();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "ContainerServer[" + IMAGE + " " + Jdbc.hostPort(host(), hostPort) + "]";
    }

    private void withDocker(java.util.function.Consumer<DockerClient> action) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException(this + " is closed");
            }
            action.accept(container.getDockerClient());
        } finally {
            lock.unlock();
        }
    }

    /** mysqld in the container listens some seconds after the container runs; poll until it answers. */
    private void awaitJdbc() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try {
                Jdbc.queryVersion(host(), hostPort, user(), password());
                return;
            } catch (SQLException e) {
                last = e;
                LockSupport.parkNanos(Duration.ofMillis(250).toNanos());
            }
        }
        throw new IllegalStateException(IMAGE + " did not accept connections within " + START_TIMEOUT + " after restart: "
                + (last == null ? "" : last.getMessage()) + "\n" + tail(container.getLogs()));
    }

    private static String logsOrEmpty(MySQLContainer<?> c) {
        try {
            return c.getContainerId() == null ? "" : "\n--- container log ---\n" + tail(c.getLogs());
        } catch (RuntimeException e) {
            return "";
        }
    }

    private static String tail(String logs) {
        return logs.length() <= 4000 ? logs : "..." + logs.substring(logs.length() - 4000);
    }
}
