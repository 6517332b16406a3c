package io.shardwise.core.execute;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What each physical backend connection carries, remembered across checkouts: a connection goes
 * back to the pool with the session variables its last user applied (no reset round trip), and
 * the next user sends only the difference ({@link StateApplier}); and the prepared statements it
 * keeps open ({@link BackendStatements}).
 *
 * <p>Keys are Connector/J's physical connections, held weakly: HikariCP retires connections
 * without telling anyone, and their entries then disappear with them.
 */
final class AppliedStates {
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Object, AppliedState> states = new WeakHashMap<>();

    AppliedState of(Object physicalConnection) {
        lock.lock();
        try {
            return states.computeIfAbsent(physicalConnection, k -> new AppliedState());
        } finally {
            lock.unlock();
        }
    }

    /**
     * The assignments a connection carries (absent keys are at the pool's baseline) and the session
     * state they were computed from. Only the thread holding the connection reads or writes it;
     * HikariCP's hand-over between borrowers publishes it.
     */
    static final class AppliedState {
        Map<String, String> assignments = Map.of();
        Object owner;
        long version = -1;
        boolean inTransaction;
        /** The sql_mode Connector/J read when it connected (null until first changed): see StateApplier. */
        String connectSqlMode;
        /** Prepared statements this connection keeps between checkouts. */
        final BackendStatements statements = new BackendStatements();
    }
}
