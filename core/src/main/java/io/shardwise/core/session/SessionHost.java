package io.shardwise.core.session;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What only a face knows about its client, offered to the engine's session: who is connected and
 * from where ({@code USER()}, {@code CONNECTION_ID()}, {@code @@max_allowed_packet}), and the other
 * sessions of the same process ({@code SHOW PROCESSLIST}, {@code KILL}). The engine answers those
 * statements itself; this is the whole of what it asks the face.
 *
 * <p>Hazard: {@link #processes} and {@link #kill} are called on the session's own thread and may
 * reach other sessions; implementations must be thread-safe there.
 */
public interface SessionHost {
    /** The connected client, as {@code USER()} and {@code CONNECTION_ID()} report it. */
    SessionVariables.Client client();

    /** The sessions this client may see (MySQL without the PROCESS privilege: its user's own), by id. */
    List<Process> processes();

    /** {@code KILL [QUERY] id} asked by this client. */
    Kill kill(long connectionId, boolean queryOnly);

    /**
     * {@code FLUSH HOSTS} by an administrator: forget every address's failed connection attempts, which
     * unblocks the addresses {@code max_connect_errors} blocked. A face that counts none does nothing.
     */
    default void flushHosts() {}

    /** One row of SHOW PROCESSLIST; {@code command} is "Query" while a statement runs, else "Sleep". */
    record Process(long id, String user, String host, String schema, String command, long seconds, String info) {}

    /**
     * Whether the face announces a server identity in a handshake ({@link ServerIdentity}: the default
     * backend's, with {@code server.version} in place of its version when configured); otherwise
     * {@code @@version}, {@code VERSION()} and {@code @@version_comment} are exactly the default
     * backend's, as a client of the backend would read them.
     */
    default boolean announcesVersion() {
        return true;
    }

    /**
     * Whether the client is trusted with the backends' system schemas whatever the configuration says:
     * an in-process application (the JDBC driver) holds the backends' credentials itself. A server
     * client is trusted only when its user is marked {@code admin: true}.
     */
    default boolean inProcess() {
        return false;
    }

    /** The outcome of a KILL. */
    enum Kill { DONE, UNKNOWN, NOT_OWNER }

    /**
     * The host of an in-process session (the JDBC driver's connections): connection ids from a
     * process-wide counter; it sees only itself, and may KILL only itself (which ends nothing that
     * is running, since the KILL is the statement running).
     */
    static SessionHost inProcess(String user) {
        int id = InProcess.IDS.incrementAndGet();
        SessionVariables.Client client = new SessionVariables.Client(user, "localhost", id);
        return new SessionHost() {
            @Override
            public SessionVariables.Client client() {
                return client;
            }

            @Override
            public List<Process> processes() {
                return List.of(new Process(id, user, "localhost", null, "Query", 0, null));
            }

            @Override
            public Kill kill(long connectionId, boolean queryOnly) {
                return connectionId == id ? Kill.DONE : Kill.UNKNOWN;
            }

            @Override
            public boolean inProcess() {
                return true;
            }

            @Override
            public boolean announcesVersion() {
                return false; // no handshake: DatabaseMetaData reports the backend's product version, as Connector/J does
            }
        };
    }

    /** Holder of the in-process id counter (interfaces cannot have private static fields). */
    final class InProcess {
        private static final AtomicInteger IDS = new AtomicInteger();

        private InProcess() {}
    }
}
