package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.sql.analyze.Call;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import io.shardwise.core.session.UserVariables;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * CALL of a stored procedure for one {@link EngineSession}: the procedure runs whole on one backend,
 * so its body (and those it calls) is checked first to name no sharded or broadcast table; its
 * results come back whole, then its OK. Not thread-safe, as its session.
 */
final class CallRunner {
    /** The procedure bodies followed through nested CALLs at most: a guard against recursion the backend allows. */
    private static final int MAX_NESTED = 32;

    private final Engine engine;
    private final ExecutionSession execution;
    private final EngineSession session;

    private final UserVariables users;

    CallRunner(Engine engine, ExecutionSession execution, EngineSession session, UserVariables users) {
        this.engine = engine;
        this.execution = execution;
        this.session = session;
        this.users = users;
    }

    /**
     * Refused with 1235 when the procedure's body names a sharded or broadcast table; otherwise all
     * of its results, read whole, then its OK. OUT/INOUT markers ({@code outMarkers}, JDBC's
     * CallableStatement) come back in {@link StatementResult.Results#outParameters}. A procedure may
     * change tables' columns, so descriptions are dropped after it.
     *
     * <p>The user variables the CALL and the bodies it runs name ({@code CALL p(@out)}, {@code SET @n = @n + 1} in a body)
     * live in the session, so they are set on the CALL's backend connection to the session's values first and read back
     * into the session after it (then cleared there, so a pooled connection keeps none): the session holds what one
     * MySQL would. A CALL that fails leaves the session's values as they were.
     */
    StatementResult call(Call call, RoutePlan route, BitSet outMarkers) {
        ExecutionUnit unit = route.units().get(0);
        LexicalMode mode = execution.state().lexicalMode();
        Set<String> named = new LinkedHashSet<>(UserVariables.named(unit.sql(), mode));
        checkProcedure(call.procedure(), unit.backend(), new HashSet<>(), named, mode);
        List<String> names = List.copyOf(named);
        List<UnitResult> results;
        ResultCursor outParameters = null;
        try {
            List<ExecutionUnit> steps = outMarkers.isEmpty() ? List.of(unit) : CallOutParameters.units(unit, outMarkers, mode);
            int at = outMarkers.isEmpty() ? 0 : 1; // the CALL's step
            if (!names.isEmpty()) {
                List<ExecutionUnit> wrapped = new ArrayList<>(steps.size() + 3);
                wrapped.add(new ExecutionUnit(unit.backend(), users.assignAll(names, mode)));
                wrapped.addAll(steps);
                wrapped.add(new ExecutionUnit(unit.backend(), UserVariables.readAll(names)));
                wrapped.add(new ExecutionUnit(unit.backend(), UserVariables.clearAll(names)));
                steps = wrapped;
                at++;
            }
            if (steps.size() == 1) {
                Diagnostics diagnostics = new Diagnostics(1);
                session.diagnostics(diagnostics);
                results = execution.executeAll(unit, diagnostics);
            } else {
                Diagnostics diagnostics = new Diagnostics(steps.size());
                session.diagnostics(diagnostics);
                List<UnitResult> all = execution.executeSequence(steps, diagnostics);
                results = ((UnitResult.Results) all.get(at)).results();
                if (!outMarkers.isEmpty()) {
                    outParameters = ((UnitResult.Rows) ((UnitResult.Results) all.get(at + 1)).results().get(0)).cursor();
                }
                if (!names.isEmpty()) {
                    try (ResultCursor read = ((UnitResult.Rows) ((UnitResult.Results) all.get(all.size() - 2)).results().get(0)).cursor()) {
                        users.readBack(names, read);
                    }
                }
            }
        } finally {
            engine.descriptions().invalidateAll();
            engine.copyDefinitions().invalidateAll();
        }
        List<StatementResult> out = new ArrayList<>(results.size() + 1);
        for (UnitResult r : results) {
            switch (r) {
                case UnitResult.Rows rows -> out.add(new StatementResult.Rows(rows.cursor()));
                case UnitResult.Update u -> out.add(new StatementResult.Update(u.affectedRows(), u.lastInsertId(), List.of(), u.warnings()));
                case UnitResult.Results nested -> throw new ShardwiseException(ErrorCode.BUG, "nested results of a CALL");
            }
        }
        if (out.isEmpty() || !(out.get(out.size() - 1) instanceof StatementResult.Update)) {
            out.add(StatementResult.Update.OK);
        }
        return out.size() == 1 && outParameters == null ? out.get(0) : new StatementResult.Results(out, outParameters);
    }

    /**
     * Reads the procedure's body as {@code backend} stores it and refuses it when it names a
     * sharded or broadcast table, following the procedures it CALLs. A procedure the backend does
     * not know is left to the CALL itself (MySQL's 1305).
     */
    private void checkProcedure(String procedure, String backend, Set<String> seen, Set<String> variables, LexicalMode mode) {
        if (!seen.add(procedure.toLowerCase(Locale.ROOT)) || seen.size() > MAX_NESTED) {
            return;
        }
        String body;
        List<UnitResult> found = execution.execute(List.of(new ExecutionUnit(backend, "SELECT ROUTINE_DEFINITION FROM"
                + " information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_TYPE = 'PROCEDURE'"
                + " AND ROUTINE_NAME = ?", List.of(procedure), Map.of())));
        try (ResultCursor cursor = ((UnitResult.Rows) found.get(0)).cursor()) {
            if (!cursor.next()) {
                return;
            }
            byte[] definition = cursor.get(0);
            if (definition == null) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "CALL of procedure '" + procedure
                        + "' whose body the backend does not show (Shardwise must see that it names no sharded table)");
            }
            body = new String(definition, StandardCharsets.UTF_8);
        }
        for (String called : engine.analyzer().checkBody(body, "CALL of procedure '" + procedure + "'")) {
            checkProcedure(called, backend, seen, variables, mode);
        }
        variables.addAll(UserVariables.named(body, mode)); // the body's own, which it reads and sets in the session
    }
}
