package io.shardwise.core;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.federate.CopyTexts;
import io.shardwise.core.federate.FederatedPlan;
import io.shardwise.core.federate.FederatedWrite;
import io.shardwise.core.federate.ShipBudget;
import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a {@link FederatedWrite} inside the session's transaction (the caller opens one of its own in
 * autocommit mode, as for every multi-shard write): reads the remote nodes of the subqueries' tables,
 * makes and fills the copies on every site, runs the write on each target node there, then drops the
 * copies — also when a step fails, while the transaction's connections still hold them.
 *
 * <p>Every read of a copy's source (the remote scans and the local {@code INSERT ... SELECT}) is a
 * locking read in share mode: MySQL's own UPDATE/DELETE reads its subqueries' rows with shared locks
 * under REPEATABLE READ and sees the latest committed rows, so the copies hold what it would read and
 * nothing changes them before the write commits. Not thread-safe, as its session.
 */
final class FederatedWriteRunner {
    /** Appended to each copy's source read (see the class comment); both MySQL and MariaDB read it. */
    static final String SHARED = " LOCK IN SHARE MODE";

    private final ExecutionSession execution;
    private final EngineSession session;
    private final long budget;
    /** Makes each site's copies as the federated SELECT's are made (definitions, pushdown, shipping). */
    private final FederatedRunner copies;

    FederatedWriteRunner(ExecutionSession execution, EngineSession session, long budget, FederatedRunner copies) {
        this.execution = execution;
        this.session = session;
        this.budget = budget;
        this.copies = copies;
    }

    /**
     * The write's result, summed over its target nodes as a multi-shard write's is (a broadcast table's
     * copies counted once). An ORDER BY or LIMIT over several nodes has its rows chosen first (the
     * session's {@code PlanRunner#chosenThenWritten}); one that reaches here so is a write whose rows no
     * SELECT can choose ({@link io.shardwise.core.sql.analyze.RowChoice} null), refused: each node would
     * apply its own.
     */
    StatementResult run(FederatedWrite plan, Statement write, NormalizedSql normalized, CachedPlan cached, List<Object> params) {
        // one statement to the user: the statement timeout bounds its copies and writes together
        try (io.shardwise.core.execute.ExecutionSession.StatementScope deadline = execution.oneDeadline()) {
            return runSteps(plan, write, normalized, cached, params);
        }
    }

    private StatementResult runSteps(FederatedWrite plan, Statement write, NormalizedSql normalized, CachedPlan cached, List<Object> params) {
        if (!execution.inTransaction() && execution.autocommit()) { // autocommit off: the first statement opens one
            throw new ShardwiseException(ErrorCode.BUG, "a federated write outside a transaction");
        }
        StatementBindings bindings = new StatementBindings(normalized, params);
        List<DataNode> targets = plan.targets(bindings);
        if (plan.limited() && targets.size() > 1) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, write instanceof io.shardwise.core.sql.analyze.Update u && u.multi() != null
                    ? io.shardwise.core.sql.analyze.MultiTable.LIMITED_ACROSS_NODES + " (table '" + plan.target().name() + "')"
                    : "ORDER BY or LIMIT in a write to table '" + plan.target().name() + "' with subqueries, spanning shards");
        }
        Map<String, List<DataNode>> bySite = new LinkedHashMap<>();
        for (DataNode n : targets) {
            bySite.computeIfAbsent(n.backend(), b -> new ArrayList<>()).add(n);
        }
        SourceText source = SourceText.original(normalized, cached.digestTokenOffsets());
        if (!plan.selfReads().isEmpty()) {
            refusesSelfRead(plan, write, source, bindings, targets);
        }
        long cancels = execution.cancels();
        ShipBudget ship = new ShipBudget(budget);
        Map<List<Object>, List<Object[]>> shipped = new HashMap<>();
        List<ExecutionUnit> made = new ArrayList<>();
        List<ExecutionUnit> drops = new ArrayList<>();
        List<ExecutionUnit> writes = new ArrayList<>();
        String target = plan.target().name().toLowerCase(Locale.ROOT);
        for (Map.Entry<String, List<DataNode>> e : bySite.entrySet()) {
            FederatedWrite.Site site = plan.sites().get(e.getKey());
            // narrowed copies (only what the subqueries read), their sources read in share mode as MySQL's own write reads them
            Map<String, String> shared = new HashMap<>();
            for (FederatedPlan.Copy c : site.copies()) {
                shared.put(c.table(), SHARED);
            }
            made.addAll(copies.copies(site.plan(), write.template(), source, bindings, shared, java.util.Set.of(), ship, cancels, shipped));
            for (FederatedPlan.Copy c : site.copies()) {
                drops.add(unit(site, CopyTexts.drop(c), List.of()));
            }
            for (DataNode node : e.getValue()) {
                Map<String, String> names = new HashMap<>(site.names());
                names.put(target, node.table());
                Renderer.Rendered r = Renderer.render(write.template(), source, names, bindings, plan.selfReads());
                writes.add(unit(site, r.sql(), r.params()));
            }
        }
        List<UnitResult> results;
        try {
            notCancelled(cancels);
            execution.execute(made);
            notCancelled(cancels);
            Diagnostics diagnostics = new Diagnostics(writes.size());
            session.diagnostics(diagnostics);
            results = execution.execute(writes, diagnostics);
        } catch (RuntimeException failed) {
            drop(drops, failed);
            throw failed;
        }
        drop(drops, null);
        return sum(results, plan.broadcast());
    }

    /**
     * A subquery reading the target itself: MySQL refuses the statement (1093, at prepare) where MariaDB
     * reads the table as it was before the write, which the target's copy gives. So the backend is asked
     * first, by preparing (never running) the statement over the real tables of one target node's
     * backend: its 1093 is the one MySQL would give. Hazard: where every site copies a table from
     * another backend's definition (no real table there to prepare over), the check is skipped.
     */
    private void refusesSelfRead(FederatedWrite plan, Statement write, SourceText source, StatementBindings bindings, List<DataNode> targets) {
        for (DataNode node : targets) {
            FederatedWrite.Site site = plan.sites().get(node.backend());
            Map<String, String> names = new HashMap<>(site.names());
            Map<String, String> logical = new HashMap<>(site.logical());
            boolean real = true;
            for (FederatedPlan.Copy c : site.copies()) {
                real &= c.like() != null;
                names.put(c.table().toLowerCase(Locale.ROOT), c.like());
                logical.put(c.like(), c.table());
            }
            if (!real) {
                continue; // a copy from another backend's definition has no table here to prepare over: another site, if any
            }
            names.put(plan.target().name().toLowerCase(Locale.ROOT), node.table());
            Renderer.Rendered r = Renderer.render(write.template(), source, names, bindings, List.of());
            execution.describe(new ExecutionUnit(site.backend(), r.sql(), r.params(), logical));
            return;
        }
    }

    /**
     * What {@link #run} would do, without running it (PREVIEW): each site's copies as the federated
     * SELECT previews them ({@link FederatedRunner#previewCopies}), the write on each target node, the
     * copies' drops; the remote scans first. An ORDER BY / LIMIT over several nodes shows its first
     * step only, the SELECT that chooses the rows (the write by key depends on what it returns).
     */
    List<ExecutionUnit> preview(FederatedWrite plan, Statement write, NormalizedSql normalized, CachedPlan cached, List<Object> params) {
        StatementBindings bindings = new StatementBindings(normalized, params);
        SourceText source = SourceText.original(normalized, cached.digestTokenOffsets());
        Map<String, List<DataNode>> bySite = new LinkedHashMap<>();
        for (DataNode n : plan.targets(bindings)) {
            bySite.computeIfAbsent(n.backend(), b -> new ArrayList<>()).add(n);
        }
        List<ExecutionUnit> scans = new ArrayList<>();
        List<ExecutionUnit> sequence = new ArrayList<>();
        String target = plan.target().name().toLowerCase(Locale.ROOT);
        for (Map.Entry<String, List<DataNode>> e : bySite.entrySet()) {
            FederatedWrite.Site site = plan.sites().get(e.getKey());
            copies.previewCopies(site.plan(), write.template(), source, bindings, scans, sequence);
            for (DataNode node : e.getValue()) {
                Map<String, String> names = new HashMap<>(site.names());
                names.put(target, node.table());
                Renderer.Rendered r = Renderer.render(write.template(), source, names, bindings, plan.selfReads());
                sequence.add(unit(site, r.sql(), r.params()));
            }
            for (FederatedPlan.Copy c : site.copies()) {
                sequence.add(unit(site, CopyTexts.drop(c), List.of()));
            }
        }
        scans.addAll(sequence);
        return scans;
    }

    /** Removes the copies on the transaction's connections; after a failure, what fails here is added to it. */
    private void drop(List<ExecutionUnit> drops, RuntimeException failed) {
        if (drops.isEmpty() || !execution.inTransaction()) {
            return; // a deadlock ended the transaction: its connections went back to their pools, and the next copy drops first
        }
        try {
            execution.execute(drops);
        } catch (RuntimeException e) {
            if (failed == null) {
                throw e;
            }
            failed.addSuppressed(e);
        }
    }

    private static StatementResult sum(List<UnitResult> results, boolean broadcast) {
        long affected = 0;
        int warnings = 0;
        for (UnitResult r : results) {
            UnitResult.Update u = (UnitResult.Update) r;
            affected = broadcast ? u.affectedRows() : affected + u.affectedRows();
            warnings = broadcast ? u.warnings() : warnings + u.warnings();
        }
        return new StatementResult.Update(affected, 0, List.of(), warnings, WriteInfo.merge(results, broadcast));
    }

    private void notCancelled(long cancels) {
        if (execution.cancels() != cancels) {
            throw new ShardwiseException(ErrorCode.QUERY_INTERRUPTED);
        }
    }

    private static ExecutionUnit unit(FederatedWrite.Site site, String sql, List<Object> params) {
        return new ExecutionUnit(site.backend(), sql, params, site.logical());
    }
}
