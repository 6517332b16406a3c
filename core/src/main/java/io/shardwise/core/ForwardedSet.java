package io.shardwise.core;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.SessionState;
import io.shardwise.core.route.ExecutionUnit;
import java.util.List;
import java.util.Map;

/**
 * A SET of variables Shardwise forwards to backends (any it does not track itself) is tried on a
 * backend when it is made, not when the next statement needs a connection: otherwise
 * {@code SET no_such_variable = 1} answered OK and every later statement of the session failed
 * with the backend's 1193 as the connection took the session's state. A refused SET leaves the
 * session's variables as they were and fails itself, as in MySQL.
 */
final class ForwardedSet {
    /** Changes nothing on a backend: only the session's SET, which applying the state sends first. */
    private static final String PROBE = "DO 0";

    private ForwardedSet() {}

    /** Runs {@code set}, then, if it changed forwarded variables, applies them on {@code backend}. */
    static void apply(ExecutionSession execution, String backend, Runnable set) {
        SessionState state = execution.state();
        Map<String, String> before = state.variables();
        set.run();
        if (before.equals(state.variables())) {
            return;
        }
        try {
            execution.execute(List.of(new ExecutionUnit(backend, PROBE, List.of(), Map.of())));
        } catch (ShardwiseException e) {
            state.restoreVariables(before);
            throw e;
        }
    }
}
