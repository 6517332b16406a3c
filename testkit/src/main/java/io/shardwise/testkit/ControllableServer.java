package io.shardwise.testkit;

/**
 * A server the caller owns and may stop, restart and kill, for failover and reconnect tests.
 *
 * <p>Invariant: the port and the data survive {@link #stop()}/{@link #kill()} followed by
 * {@link #start()}. Each method returns only once the change is complete: after {@link #stop()}
 * and {@link #kill()} the process has exited, after {@link #start()} it accepts connections.
 *
 * <p>Hazard: {@link #close()} deletes the data; always close in {@code finally} or
 * try-with-resources (a JVM shutdown hook is only the last resort).
 */
public interface ControllableServer extends MysqlServer {

    /** Graceful shutdown (SIGTERM or {@code docker stop}). A no-op when not running. */
    void stop();

    /** Starts again on the same port with the same data. A no-op when running. */
    void start();

    /** Abrupt death without shutdown (SIGKILL or {@code docker kill}); uncommitted work is lost. */
    void kill();

    boolean isRunning();
}
