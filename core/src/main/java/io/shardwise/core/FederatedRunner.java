package io.shardwise.core;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.federate.CopyDefinitions;
import io.shardwise.core.federate.CopyTexts;
import io.shardwise.core.federate.FederatedPlan;
import io.shardwise.core.federate.Federation;
import io.shardwise.core.federate.ShipBudget;
import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link FederatedPlan}: reads the definitions of copies with no node on the coordinator
 * ({@link CopyDefinitions}, cached) and the remote nodes of each copied table (each read whole within
 * the statement's {@link ShipBudget}; see {@link #ship}), then on the coordinator, as one sequence on
 * one connection (temporary tables live on a connection): drop stale copies, create the copies, fill
 * them (local nodes there, shipped rows as INSERT batches), run the user's statement over them. Its
 * rows stream to the client; the copies are dropped on that connection when the cursor ends, however
 * it ends, and only then does the connection go back to its pool
 * ({@link ExecutionSession#executeSequenceStreaming}). In a transaction every read and the sequence
 * use the transaction's connections, so the statement sees the transaction's own changes. Not
 * thread-safe, as its session.
 */
final class FederatedRunner {
    /** Rows per INSERT on the coordinator (as {@link InsertBatches#BATCH}: one round trip each, well under max_allowed_packet). */
    private static final int BATCH = InsertBatches.BATCH;

    private final ExecutionSession execution;
    private final EngineSession session;
    private final long budget;
    private final CopyDefinitions definitions;

    FederatedRunner(ExecutionSession execution, EngineSession session, long budget, CopyDefinitions definitions) {
        this.execution = execution;
        this.session = session;
        this.budget = budget;
        this.definitions = definitions;
    }

    StatementResult run(FederatedPlan plan, Select select, NormalizedSql normalized, CachedPlan cached, List<Object> params) {
        return run(plan, select, normalized, cached, params, null, null);
    }

    /**
     * {@code wrap} (or null): the statement assigns user variables ({@link AssigningRunner}); the
     * sequence sets them first and reads them back last, handing the read's result to {@code readBack}.
     */
    StatementResult run(FederatedPlan plan, Select select, NormalizedSql normalized, CachedPlan cached, List<Object> params,
                        AssigningRunner.Wrap wrap, java.util.function.BiConsumer<AssigningRunner.Wrap, UnitResult> readBack) {
        long cancels = execution.cancels();
        // a locking read in a transaction locks what the copies read, on their nodes; in autocommit it locks nothing
        String lock = execution.inTransaction() || !execution.autocommit() ? Federation.lockClause(select.template().text()) : "";
        List<String> creates = new ArrayList<>(plan.copies().size());
        for (FederatedPlan.Copy c : plan.copies()) {
            creates.add(c.like() != null ? CopyTexts.create(c) : CopyTexts.createFrom(c, definitions.get(c.definition(), this::definition)));
        }
        notCancelled(cancels);
        List<List<Object[]>> shipped = ship(plan, new ShipBudget(budget), cancels, lock);
        List<ExecutionUnit> units = new ArrayList<>();
        if (wrap != null) {
            units.add(wrap.before(plan.coordinator()));
        }
        int scan = 0;
        for (int k = 0; k < plan.copies().size(); k++) {
            FederatedPlan.Copy c = plan.copies().get(k);
            units.add(unit(plan, CopyTexts.drop(c), List.of()));
            units.add(unit(plan, creates.get(k), List.of()));
            for (String local : c.local()) {
                units.add(unit(plan, CopyTexts.copyLocal(c, local) + lock, List.of()));
            }
            for (int i = 0; i < c.remote().size(); i++) {
                inserts(plan, c, shipped.get(scan++), units);
            }
        }
        int statement = units.size();
        Renderer.Rendered r = Renderer.render(select.template(), SourceText.original(normalized, cached.digestTokenOffsets()),
                plan.names(), new StatementBindings(normalized, params), labelEdits(plan.labels()));
        units.add(unit(plan, r.sql(), r.params()));
        for (FederatedPlan.Copy c : plan.copies()) {
            units.add(unit(plan, CopyTexts.drop(c), List.of()));
        }
        if (wrap == null) {
            // the copies' drops leave the sequence: they run once the client's cursor ends (see executeSequenceStreaming)
            List<String> drops = new ArrayList<>(plan.copies().size());
            for (FederatedPlan.Copy c : plan.copies()) {
                drops.add(CopyTexts.drop(c));
            }
            List<ExecutionUnit> sequence = units.subList(0, statement + 1);
            Diagnostics diagnostics = new Diagnostics(sequence.size());
            session.diagnostics(diagnostics);
            notCancelled(cancels);
            return answer(execution.executeSequenceStreaming(sequence, drops, diagnostics).get(statement));
        }
        int read = units.size();
        units.addAll(wrap.after(plan.coordinator()));
        Diagnostics diagnostics = new Diagnostics(units.size());
        session.diagnostics(diagnostics);
        notCancelled(cancels);
        // assigning statements read their variables back after the rows: the rows are read whole first
        List<UnitResult> results = execution.executeSequence(units, diagnostics);
        readBack.accept(wrap, results.get(read));
        return answer(((UnitResult.Results) results.get(statement)).results().get(0));
    }

    /** The coordinator's answer: rows, or (SELECT ... INTO) an update count. */
    private static StatementResult answer(UnitResult result) {
        return switch (result) {
            case UnitResult.Rows rows -> new StatementResult.Rows(rows.cursor());
            case UnitResult.Update u -> new StatementResult.Update(u.affectedRows(), u.lastInsertId(), List.of(), u.warnings(), u.info());
            case UnitResult.Results r -> answer(r.results().get(0));
        };
    }

    /**
     * Every remote node's rows, in plan order. Outside a transaction the scans run in parallel, each on
     * a pooled connection, and stream while the first are read; in one (or under LOCK TABLES) they run
     * one after another on the session's connections, each read whole before the next starts, so the
     * executor never buffers a unit beyond the budget's count.
     */
    private List<List<Object[]>> ship(FederatedPlan plan, ShipBudget ship, long cancels, String lock) {
        List<ExecutionUnit> scans = new ArrayList<>();
        for (FederatedPlan.Copy c : plan.copies()) {
            for (DataNode remote : c.remote()) {
                scans.add(new ExecutionUnit(remote.backend(), CopyTexts.scan(remote.table()) + lock, List.of(),
                        Map.of(remote.table(), c.table())));
            }
        }
        List<List<Object[]>> shipped = new ArrayList<>(scans.size());
        if (scans.size() > 1 && execution.autocommit() && !execution.inTransaction() && !execution.holdsTableLocks()) {
            List<UnitResult> results = execution.execute(scans);
            try {
                for (UnitResult u : results) {
                    shipped.add(read(((UnitResult.Rows) u).cursor(), ship));
                }
            } finally {
                for (UnitResult u : results) {
                    ((UnitResult.Rows) u).cursor().close(); // idempotent; ends the siblings of a failed read
                }
            }
            return shipped;
        }
        for (ExecutionUnit scan : scans) {
            notCancelled(cancels);
            try (ResultCursor cursor = ((UnitResult.Rows) execution.execute(List.of(scan)).get(0)).cursor()) {
                shipped.add(read(cursor, ship));
            }
        }
        return shipped;
    }

    /** A node's {@code SHOW CREATE TABLE} text, for a copy with no node on the coordinator. */
    private String definition(DataNode node) {
        ExecutionUnit show = new ExecutionUnit(node.backend(), CopyTexts.showCreate(node), List.of(), Map.of());
        try (ResultCursor cursor = ((UnitResult.Rows) execution.execute(List.of(show)).get(0)).cursor()) {
            if (!cursor.next()) {
                throw new ShardwiseException(ErrorCode.BUG, "SHOW CREATE TABLE returned no row for " + node);
            }
            return new String(cursor.get(1), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** KILL QUERY or Statement.cancel() between two of the statement's executions ends it as one during them would. */
    private void notCancelled(long cancels) {
        if (execution.cancels() != cancels) {
            throw new ShardwiseException(ErrorCode.QUERY_INTERRUPTED);
        }
    }

    /** A scan's rows as values to bind, each counted against the budget before it is kept. */
    static List<Object[]> read(ResultCursor cursor, ShipBudget ship) {
        List<Column> columns = cursor.columns();
        int width = columns.size();
        List<Object[]> rows = new ArrayList<>();
        while (cursor.next()) {
            Object[] row = new Object[width];
            long bytes = 0;
            for (int i = 0; i < width; i++) {
                byte[] cell = cursor.get(i);
                bytes += cell == null ? 0 : cell.length;
                row[i] = InsertBatches.value(cell, columns.get(i));
            }
            ship.row(width, bytes);
            rows.add(row);
        }
        return rows;
    }

    /** Shipped rows as INSERT batches into the copy. */
    private static void inserts(FederatedPlan plan, FederatedPlan.Copy c, List<Object[]> rows, List<ExecutionUnit> units) {
        for (int from = 0; from < rows.size(); from += BATCH) {
            List<Object[]> batch = rows.subList(from, Math.min(rows.size(), from + BATCH));
            int width = batch.get(0).length;
            List<Object> values = new ArrayList<>(batch.size() * width);
            for (Object[] row : batch) {
                values.addAll(Arrays.asList(row));
            }
            units.add(unit(plan, InsertBatches.text(CopyTexts.insertHead(c), batch.size(), width), values));
        }
    }

    /**
     * What {@link #run} would do, without running it (PREVIEW): each remote scan on its backend, then
     * the coordinator's sequence, shipped rows shown as one INSERT per remote node.
     */
    List<ExecutionUnit> preview(FederatedPlan plan, Select select, NormalizedSql normalized, CachedPlan cached, List<Object> params) {
        List<ExecutionUnit> scans = new ArrayList<>();
        List<ExecutionUnit> sequence = new ArrayList<>();
        for (FederatedPlan.Copy c : plan.copies()) {
            sequence.add(unit(plan, CopyTexts.drop(c), List.of()));
            sequence.add(unit(plan, c.like() != null ? CopyTexts.create(c)
                    : "CREATE TEMPORARY TABLE " + c.temp() + " /* as SHOW CREATE TABLE of " + c.definition() + " */", List.of()));
            for (String local : c.local()) {
                sequence.add(unit(plan, CopyTexts.copyLocal(c, local), List.of()));
            }
            for (DataNode remote : c.remote()) {
                scans.add(new ExecutionUnit(remote.backend(), CopyTexts.scan(remote.table()), List.of(), Map.of()));
                sequence.add(unit(plan, "INSERT INTO " + c.temp() + " VALUES /* the rows of " + remote.backend() + "." + remote.table()
                        + ", in batches of " + BATCH + " */", List.of()));
            }
        }
        Renderer.Rendered r = Renderer.render(select.template(), SourceText.original(normalized, cached.digestTokenOffsets()),
                plan.names(), new StatementBindings(normalized, params), labelEdits(plan.labels()));
        sequence.add(unit(plan, r.sql(), r.params()));
        for (FederatedPlan.Copy c : plan.copies()) {
            sequence.add(unit(plan, CopyTexts.drop(c), List.of()));
        }
        scans.addAll(sequence);
        return scans;
    }

    /**
     * The columns the statement returns: prepared on the coordinator over the tables its copies are made
     * like; null when a copy is made from another backend's node (only running can tell then).
     */
    ExecutionUnit describeUnit(FederatedPlan plan, Select select, NormalizedSql normalized, CachedPlan cached, List<Object> params) {
        Map<String, String> likes = new java.util.HashMap<>(plan.names());
        Map<String, String> logical = new java.util.HashMap<>(plan.logical());
        for (FederatedPlan.Copy c : plan.copies()) {
            if (c.like() == null) {
                return null;
            }
            likes.put(c.table().toLowerCase(java.util.Locale.ROOT), c.like());
            logical.put(c.like(), c.table());
        }
        Renderer.Rendered r = Renderer.render(select.template(), SourceText.original(normalized, cached.digestTokenOffsets()),
                likes, new StatementBindings(normalized, params), labelEdits(Federation.labels(select, likes)));
        return new ExecutionUnit(plan.coordinator(), r.sql(), r.params(), logical);
    }

    /** Each item span ({@link FederatedPlan#labels}) rendered as itself, aliased with its own source text. */
    private static List<Renderer.Edit> labelEdits(List<io.shardwise.core.sql.analyze.SelectShape.Span> labels) {
        List<Renderer.Edit> edits = new ArrayList<>(labels.size());
        for (io.shardwise.core.sql.analyze.SelectShape.Span s : labels) {
            edits.add(new Renderer.Edit(s.start(), s.end(), List.of(new Renderer.Piece.Copy(s.start(), s.end())), true));
        }
        return edits;
    }

    private static ExecutionUnit unit(FederatedPlan plan, String sql, List<Object> params) {
        return new ExecutionUnit(plan.coordinator(), sql, params, plan.logical());
    }
}
