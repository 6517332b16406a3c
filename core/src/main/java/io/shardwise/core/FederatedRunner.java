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
import io.shardwise.core.federate.CopyScans;
import io.shardwise.core.federate.CopyTexts;
import io.shardwise.core.federate.FederatedPlan;
import io.shardwise.core.federate.Federation;
import io.shardwise.core.federate.JoinKeys;
import io.shardwise.core.federate.ShipBudget;
import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.SqlTemplate;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link FederatedPlan}: reads the definitions of copies with no node on the coordinator
 * ({@link CopyDefinitions}, cached), binds each copy's pushdown to this execution ({@link CopyScans}:
 * the columns and rows its scans keep, the nodes that can hold them), reads the remote nodes of each
 * copied table (within the statement's {@link ShipBudget}; see {@link #ship}), then on the coordinator, as one sequence on
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
    private final long budget; // federation.memoryBudget
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
        // one statement to the user: the statement timeout bounds all its steps together, the streaming of its rows included
        try (ExecutionSession.StatementScope deadline = execution.oneDeadline()) {
            return runSteps(plan, select, normalized, cached, params, wrap, readBack);
        }
    }

    private StatementResult runSteps(FederatedPlan plan, Select select, NormalizedSql normalized, CachedPlan cached, List<Object> params,
                                     AssigningRunner.Wrap wrap, java.util.function.BiConsumer<AssigningRunner.Wrap, UnitResult> readBack) {
        long cancels = execution.cancels();
        StatementBindings bindings = new StatementBindings(normalized, params);
        SourceText source = SourceText.original(normalized, cached.digestTokenOffsets());
        // a locking read in a transaction locks what the copies read, on their nodes; in autocommit it locks nothing
        Map<String, String> locks = execution.inTransaction() || !execution.autocommit() ? locks(plan, select) : Map.of();
        if (!locks.isEmpty() && Federation.namesLockedTables(select.template().text())) {
            probe(plan, select, normalized, cached, params);
        }
        List<ExecutionUnit> units = new ArrayList<>();
        if (wrap != null) {
            units.add(wrap.before(plan.coordinator()));
        }
        ShipBudget ship = new ShipBudget(budget);
        units.addAll(copies(plan, select.template(), source, bindings, locks, locks.keySet(), ship, cancels, null));
        session.engine().countShipped(ship.rows(), ship.cells());
        int statement = units.size();
        Renderer.Rendered r = Renderer.render(select.template(), SourceText.original(normalized, cached.digestTokenOffsets()),
                plan.names(), new StatementBindings(normalized, params), edits(plan.labels(), select, plan.names()));
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

    /**
     * The units that make {@code plan}'s copies on its coordinator, in order: drop a stale copy, create
     * it, fill it from the local nodes (the copy's clause of {@code locks}, by logical table, after the
     * pushed WHERE) and with the shipped rows of the remote ones (read here, now). {@code template}: the
     * statement whose conjuncts are pushed; {@code locking}: the copies that keep every column ({@link #bind}). {@code shipped} (or null): the rows of scans
     * already read for another coordinator of the same statement, by backend, text and values, so a
     * node several sites copy is read once.
     */
    List<ExecutionUnit> copies(FederatedPlan plan, SqlTemplate template, SourceText source, StatementBindings bindings,
                               Map<String, String> locks, java.util.Set<String> locking, ShipBudget ship, long cancels,
                               Map<List<Object>, List<Object[]>> shipped) {
        List<Scan> scans = bind(plan, template, source, bindings, true, locking);
        List<String> creates = new ArrayList<>(scans.size());
        for (Scan s : scans) {
            FederatedPlan.Copy c = s.bound().copy();
            creates.add(c.like() != null ? CopyTexts.create(s.bound()) : CopyTexts.createFrom(c, definitions.get(c.definition(), this::definition)));
        }
        notCancelled(cancels);
        List<Fill> fills = fill(plan, scans, ship, cancels, locks, shipped);
        List<ExecutionUnit> units = new ArrayList<>();
        for (int k = 0; k < scans.size(); k++) {
            CopyScans.Bound b = scans.get(k).bound();
            String lock = locks.getOrDefault(b.copy().table(), "");
            units.add(unit(plan, CopyTexts.drop(b.copy()), List.of()));
            units.add(unit(plan, creates.get(k), List.of()));
            for (Read local : fills.get(k).local()) {
                // the lock clause after the pushed WHERE: it locks the rows the copy reads
                units.add(unit(plan, session.keepingZeros(b, CopyTexts.copyLocal(b, local.table(), local.where()) + lock), local.params()));
            }
            for (List<Object[]> rows : fills.get(k).shipped()) {
                inserts(plan, b, rows, units);
            }
        }
        return units;
    }

    /** The coordinator's answer: rows, or (SELECT ... INTO) an update count. */
    private static StatementResult answer(UnitResult result) {
        return switch (result) {
            case UnitResult.Rows rows -> new StatementResult.Rows(rows.cursor());
            case UnitResult.Update u -> new StatementResult.Update(u.affectedRows(), u.lastInsertId(), List.of(), u.warnings(), u.info());
            case UnitResult.Results r -> answer(r.results().get(0));
        };
    }

    /** One read of a copy's node: a local table (INSERT ... SELECT on the coordinator) or a remote node (shipped). */
    private record Read(String table, DataNode remote, String where, List<Object> params) {}

    /** The keys a copy's scans keep and the edge they come from. */
    private record Keys(JoinKeys.Edge edge, java.util.Set<Object> keys) {}

    /** A copy's reads as this execution does them: its local ones, and the rows of its remote ones. */
    private record Fill(List<Read> local, List<List<Object[]>> shipped) {}

    /**
     * Each copy's reads, level by level ({@link JoinKeys}): a level's remote scans ship together, then
     * the copies of the next level read their sources' keys and ship theirs. No reduction under a
     * locking read: its copies must lock every row the statement's own plan could lock.
     */
    private List<Fill> fill(FederatedPlan plan, List<Scan> scans, ShipBudget ship, long cancels, Map<String, String> locks,
                            Map<List<Object>, List<Object[]>> memo) {
        List<CopyScans.Bound> bounds = new ArrayList<>(scans.size());
        for (Scan s : scans) {
            bounds.add(s.bound());
        }
        int limit = session.engine().federationJoinKeys();
        JoinKeys.Order order = locks.isEmpty() && limit > 0 ? JoinKeys.order(bounds) : JoinKeys.none(bounds.size());
        Fill[] fills = new Fill[scans.size()];
        for (int level = 0; level <= order.depth(); level++) {
            List<Read> remote = new ArrayList<>();
            List<Integer> owners = new ArrayList<>();
            List<List<Read>> locals = new ArrayList<>();
            for (int k = 0; k < scans.size(); k++) {
                if (order.levels()[k] != level) {
                    locals.add(null);
                    continue;
                }
                List<Read> reads = reads(plan, scans.get(k), keys(plan, scans, fills, order.edges().get(k), limit, cancels));
                List<Read> local = new ArrayList<>();
                for (Read r : reads) {
                    if (r.remote() == null) {
                        local.add(r);
                    } else {
                        remote.add(r);
                        owners.add(k);
                    }
                }
                locals.add(local);
                fills[k] = new Fill(local, new ArrayList<>());
            }
            List<List<Object[]>> rows = ship(plan, scans, remote, owners, ship, cancels, locks, memo);
            for (int i = 0; i < rows.size(); i++) {
                fills[owners.get(i)].shipped().add(rows.get(i));
            }
        }
        return List.of(fills);
    }

    /**
     * The keys a copy's scans keep, from the edge whose source has the fewest distinct keys; null when
     * it has no edge or every source has more than {@code limit} (the whole scan then).
     */
    private Keys keys(FederatedPlan plan, List<Scan> scans, Fill[] fills, List<JoinKeys.Edge> edges, int limit, long cancels) {
        Keys best = null;
        for (JoinKeys.Edge e : edges) {
            java.util.Set<Object> keys = new java.util.LinkedHashSet<>();
            CopyScans.Bound source = scans.get(e.source()).bound();
            int at = source.position(e.key().sourceColumn());
            Fill fill = fills[e.source()];
            boolean over = false;
            for (List<Object[]> rows : fill.shipped()) {
                for (Object[] row : rows) {
                    if (row[at] != null && keys.add(row[at]) && keys.size() > limit) {
                        over = true;
                        break;
                    }
                }
            }
            for (int i = 0; !over && i < fill.local().size(); i++) {
                notCancelled(cancels);
                Read r = fill.local().get(i);
                String sql = JoinKeys.distinct(e.key().sourceColumn(), r.table(), source.copy().push().exposed(), r.where());
                try (ResultCursor cursor = ((UnitResult.Rows) execution.execute(List.of(new ExecutionUnit(plan.coordinator(), sql, r.params(),
                        Map.of()))).get(0)).cursor()) {
                    Column column = cursor.columns().get(0);
                    while (!over && cursor.next()) {
                        Object v = InsertBatches.value(cursor.get(0), column);
                        over = v != null && keys.add(v) && keys.size() > limit;
                    }
                }
            }
            if (!over && (best == null || keys.size() < best.keys().size())) {
                best = new Keys(e, keys);
            }
        }
        return best;
    }

    /** A copy's reads: each node once with its pushed WHERE, or, given {@code keys}, in IN batches of them, each to the nodes they route to. */
    private static List<Read> reads(FederatedPlan plan, Scan s, Keys reduction) {
        CopyScans.Bound b = s.bound();
        List<Read> out = new ArrayList<>();
        if (reduction == null) {
            for (String local : b.local()) {
                out.add(new Read(local, null, CopyScans.atNode(b, s.where(), new DataNode(plan.coordinator(), local)), s.params()));
            }
            for (DataNode remote : b.remote()) {
                out.add(new Read(remote.table(), remote, CopyScans.atNode(b, s.where(), remote), s.params()));
            }
            return out;
        }
        TableRule.Sharded sharded = b.copy().push().sharded();
        String column = reduction.edge().key().column();
        java.util.Set<Object> keys = reduction.keys();
        boolean routed = sharded != null && sharded.keyColumn() != null && sharded.keyColumn().equalsIgnoreCase(column);
        List<Integer> indexes = new ArrayList<>();
        List<DataNode> nodes = new ArrayList<>();
        for (String local : b.local()) {
            DataNode node = new DataNode(plan.coordinator(), local);
            nodes.add(node);
            indexes.add(JoinKeys.nodeIndex(sharded, node));
        }
        nodes.addAll(b.remote());
        for (DataNode remote : b.remote()) {
            indexes.add(JoinKeys.nodeIndex(sharded, remote));
        }
        List<List<Object>> routes = JoinKeys.route(keys, sharded, routed, indexes);
        for (int n = 0; n < nodes.size(); n++) {
            List<Object> mine = routes.get(n);
            for (int from = 0; from < mine.size(); from += JoinKeys.BATCH) {
                List<Object> batch = mine.subList(from, Math.min(mine.size(), from + JoinKeys.BATCH));
                String in = JoinKeys.in(b.copy().push().exposed(), column, batch.size());
                List<Object> params = new ArrayList<>(s.params());
                params.addAll(batch);
                boolean local = n < b.local().size();
                String where = CopyScans.atNode(b, s.where(), nodes.get(n));
                out.add(new Read(nodes.get(n).table(), local ? null : nodes.get(n), where == null ? in : where + " AND " + in, params));
            }
        }
        return out;
    }

    /**
     * The rows of {@code reads} (remote), in order. Outside a transaction the scans run in parallel, each on
     * a pooled connection, and stream while the first are read; in one (or under LOCK TABLES) they run
     * one after another on the session's connections, each read whole before the next starts, so the
     * executor never buffers a unit beyond the budget's count.
     */
    private List<List<Object[]>> ship(FederatedPlan plan, List<Scan> bound, List<Read> reads, List<Integer> owners, ShipBudget ship,
                                      long cancels, Map<String, String> locks, Map<List<Object>, List<Object[]>> memo) {
        List<ExecutionUnit> scans = new ArrayList<>();
        for (int i = 0; i < reads.size(); i++) {
            Read r = reads.get(i);
            CopyScans.Bound b = bound.get(owners.get(i)).bound();
            String lock = locks.getOrDefault(b.copy().table(), "");
            // the lock clause after the pushed WHERE: it locks the rows the scan ships
            scans.add(new ExecutionUnit(r.remote().backend(), CopyTexts.scan(b, r.table(), r.where()) + lock, r.params(),
                    Map.of(r.table(), b.copy().table())));
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
            List<Object> key = memo == null ? null : List.of(scan.backend(), scan.sql(), scan.params());
            List<Object[]> rows = memo == null ? null : memo.get(key);
            if (rows == null) {
                notCancelled(cancels);
                try (ResultCursor cursor = ((UnitResult.Rows) execution.execute(List.of(scan)).get(0)).cursor()) {
                    rows = read(cursor, ship);
                }
                if (memo != null) {
                    memo.put(key, rows);
                }
            }
            shipped.add(rows);
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
    private void inserts(FederatedPlan plan, CopyScans.Bound c, List<Object[]> rows, List<ExecutionUnit> units) {
        for (int from = 0; from < rows.size(); from += BATCH) {
            List<Object[]> batch = rows.subList(from, Math.min(rows.size(), from + BATCH));
            int width = batch.get(0).length;
            List<Object> values = new ArrayList<>(batch.size() * width);
            for (Object[] row : batch) {
                values.addAll(Arrays.asList(row));
            }
            units.add(unit(plan, session.keepingZeros(c, InsertBatches.text(CopyTexts.insertHead(c), batch.size(), width)), values));
        }
    }

    /**
     * What {@link #run} would do, without running it (PREVIEW): each remote scan on its backend, then
     * the coordinator's sequence, shipped rows shown as one INSERT per remote node.
     */
    List<ExecutionUnit> preview(FederatedPlan plan, Select select, NormalizedSql normalized, CachedPlan cached, List<Object> params) {
        List<ExecutionUnit> scans = new ArrayList<>();
        List<ExecutionUnit> sequence = new ArrayList<>();
        SourceText source = SourceText.original(normalized, cached.digestTokenOffsets());
        previewCopies(plan, select.template(), source, new StatementBindings(normalized, params), scans, sequence);
        Renderer.Rendered r = Renderer.render(select.template(), SourceText.original(normalized, cached.digestTokenOffsets()),
                plan.names(), new StatementBindings(normalized, params), edits(plan.labels(), select, plan.names()));
        sequence.add(unit(plan, r.sql(), r.params()));
        for (FederatedPlan.Copy c : plan.copies()) {
            sequence.add(unit(plan, CopyTexts.drop(c), List.of()));
        }
        scans.addAll(sequence);
        return scans;
    }

    /**
     * The steps that make {@code plan}'s copies, without running them: each remote scan added to
     * {@code scans}, the coordinator's drop, create, local copies and inserts (shipped rows shown as
     * one INSERT per remote node) to {@code sequence}. The coordinator's catalog is read (as running
     * would); where it cannot be, the copies are shown as they would be without it.
     */
    void previewCopies(FederatedPlan plan, SqlTemplate template, SourceText source, StatementBindings bindings, List<ExecutionUnit> scans,
                       List<ExecutionUnit> sequence) {
        List<Scan> bound;
        try {
            bound = bind(plan, template, source, bindings, true, java.util.Set.of());
        } catch (ShardwiseException e) {
            if (e.code() != ErrorCode.SHARD_UNAVAILABLE) {
                throw e;
            }
            // the coordinator's catalog unreadable: what needs no catalog (qualified conjuncts, every column), as a plan
            bound = bind(plan, template, source, bindings, false, java.util.Set.of());
        }
        List<CopyScans.Bound> bounds = new ArrayList<>(bound.size());
        for (Scan s : bound) {
            bounds.add(s.bound());
        }
        JoinKeys.Order order = session.engine().federationJoinKeys() > 0 ? JoinKeys.order(bounds) : JoinKeys.none(bounds.size());
        for (int k = 0; k < bound.size(); k++) {
            Scan s = bound.get(k);
            CopyScans.Bound b = s.bound();
            FederatedPlan.Copy c = b.copy();
            String where = s.where();
            List<JoinKeys.Edge> edges = order.edges().get(k);
            if (!edges.isEmpty()) {
                // which source's keys narrow it is chosen when running (the fewest keys); shown: the first
                String in = JoinKeys.placeholder(c.push().exposed(), edges.getFirst());
                where = where == null ? in : where + " AND " + in;
            }
            sequence.add(unit(plan, CopyTexts.drop(c), List.of()));
            sequence.add(unit(plan, c.like() != null ? CopyTexts.create(b)
                    : "CREATE TEMPORARY TABLE " + c.temp() + " /* as SHOW CREATE TABLE of " + c.definition() + " */", List.of()));
            for (String local : b.local()) {
                sequence.add(unit(plan, session.keepingZeros(b, CopyTexts.copyLocal(b, local, CopyScans.atNode(b, where, new DataNode(plan.coordinator(), local)))),
                        s.params()));
            }
            for (DataNode remote : b.remote()) {
                scans.add(new ExecutionUnit(remote.backend(), CopyTexts.scan(b, remote.table(), CopyScans.atNode(b, where, remote)), s.params(), Map.of()));
                sequence.add(unit(plan, session.keepingZeros(b, CopyTexts.insertHead(b)) + " VALUES /* the rows of " + remote.backend() + "." + remote.table()
                        + ", in batches of " + BATCH + " */", List.of()));
            }
        }
    }

    /**
     * How to learn the columns the statement returns without running it: {@code unit} prepared on the
     * coordinator over the tables its copies are made like, after {@code setup} made there (empty) the
     * copies that have no such table, from their node's definition elsewhere, which {@code teardown} drops.
     */
    record Description(ExecutionUnit unit, List<String> setup, List<String> teardown) {}

    /** See {@link Description}. */
    Description describeUnit(FederatedPlan plan, Select select, NormalizedSql normalized, CachedPlan cached, List<Object> params) {
        Map<String, String> likes = new java.util.HashMap<>(plan.names());
        Map<String, String> logical = new java.util.HashMap<>(plan.logical());
        List<String> setup = new ArrayList<>();
        List<String> teardown = new ArrayList<>();
        for (FederatedPlan.Copy c : plan.copies()) {
            if (c.like() == null) {
                // the copy itself, empty: its name stays the one the plan reads (plan.names), and maps back
                setup.add(CopyTexts.drop(c));
                setup.add(CopyTexts.createFrom(c, definitions.get(c.definition(), this::definition)));
                teardown.add(CopyTexts.drop(c));
                continue;
            }
            likes.put(c.table().toLowerCase(java.util.Locale.ROOT), c.like());
            logical.put(c.like(), c.table());
        }
        Renderer.Rendered r = Renderer.render(select.template(), SourceText.original(normalized, cached.digestTokenOffsets()),
                likes, new StatementBindings(normalized, params), edits(Federation.labels(select, likes), select, likes));
        return new Description(new ExecutionUnit(plan.coordinator(), r.sql(), r.params(), logical), setup, teardown);
    }

    /**
     * Each item span ({@link FederatedPlan#labels}) rendered as itself, aliased with its own source text;
     * then each table a locking clause's OF list names by a name the coordinator reads under another
     * ({@code names}: a renamed copy), renamed as its FROM is (an alias stays: it names no table).
     */
    private static List<Renderer.Edit> edits(List<io.shardwise.core.sql.analyze.SelectShape.Span> labels, Select select,
                                             Map<String, String> names) {
        List<Renderer.Edit> edits = new ArrayList<>(labels.size());
        for (io.shardwise.core.sql.analyze.SelectShape.Span s : labels) {
            edits.add(new Renderer.Edit(s.start(), s.end(), List.of(new Renderer.Piece.Copy(s.start(), s.end())), true));
        }
        if (names.isEmpty()) {
            return edits;
        }
        for (Federation.LockedName locked : Federation.lockedNames(select.template().text())) {
            String read = names.get(locked.name());
            if (read != null && !aliased(select, locked.name())) {
                edits.add(new Renderer.Edit(locked.start(), locked.end(), '`' + read + '`'));
            }
        }
        return edits;
    }

    private static boolean aliased(Select select, String name) {
        for (io.shardwise.core.sql.analyze.TableRef t : select.tables()) {
            if (t.alias() != null && t.alias().equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The lock clause each copy's source reads repeat (by logical table; absent: read plainly): every
     * copy's, or with MySQL 8's {@code FOR UPDATE OF t} only the named tables' ({@link Federation#lockClause}).
     */
    private static Map<String, String> locks(FederatedPlan plan, Select select) {
        String text = select.template().text();
        boolean named = Federation.namesLockedTables(text);
        Map<String, String> out = new java.util.HashMap<>();
        for (FederatedPlan.Copy c : plan.copies()) {
            String lock = Federation.lockClause(text, named ? Federation.calledBy(select, c.table()) : null);
            if (!lock.isEmpty()) {
                out.put(c.table(), lock);
            }
        }
        return out;
    }

    /**
     * Before a locking read naming its tables locks any source row: the coordinator prepares the
     * statement (never running it), so a server that cannot parse the clause (MariaDB has no
     * {@code OF}) fails it with its own 1064 having locked nothing, as one such server would. Other
     * failures of the prepare are left to the run: the copies it reads do not exist yet.
     */
    private void probe(FederatedPlan plan, Select select, NormalizedSql normalized, CachedPlan cached, List<Object> params) {
        Renderer.Rendered r = Renderer.render(select.template(), SourceText.original(normalized, cached.digestTokenOffsets()),
                plan.names(), new StatementBindings(normalized, params), edits(plan.labels(), select, plan.names()));
        try {
            execution.describe(new ExecutionUnit(plan.coordinator(), r.sql(), r.params(), plan.logical()));
        } catch (ShardwiseException e) {
            if (e.errno() == ErrorCode.PARSE_ERROR.errno()) {
                throw e;
            }
        }
    }

    /** A copy bound to this execution, with its pushed conjuncts rendered as one WHERE condition (null: none) and that condition's values. */
    private record Scan(CopyScans.Bound bound, String where, List<Object> params) {}

    /**
     * Each copy bound to this execution ({@link CopyScans}): the coordinator's catalog read once for the
     * tables whose columns decide (none when every copy is whole and no conjunct names a column
     * unqualified), conjuncts rendered from the user's own text with this execution's values.
     */
    /**
     * {@code read} false: the catalog is not read (every copy whole, only qualified conjuncts pushed).
     * {@code locking}: the copies (logical names) whose reads lock; each keeps every column, so each scan reads the clustered index and its lock clause
     * locks the rows themselves; a narrowed scan may read a covering secondary index only, whose
     * shared locks a write of other columns never meets.
     */
    private List<Scan> bind(FederatedPlan plan, SqlTemplate template, SourceText source, StatementBindings bindings, boolean read,
                            java.util.Set<String> locking) {
        List<String> tables = read ? CopyScans.catalogTables(plan) : List.of();
        Map<String, CopyScans.Columns> catalog = Map.of();
        if (!tables.isEmpty()) {
            List<Object> names = new ArrayList<>(tables.size() * 3);
            for (int i = 0; i < 3; i++) {
                names.addAll(tables);
            }
            List<String[]> rows = new ArrayList<>();
            UnitResult result = execution.execute(List.of(new ExecutionUnit(plan.coordinator(), CopyScans.catalogQuery(tables.size()), names,
                    Map.of()))).get(0);
            try (ResultCursor cursor = ((UnitResult.Rows) result).cursor()) {
                while (cursor.next()) {
                    String[] row = new String[8];
                    for (int i = 0; i < row.length; i++) {
                        row[i] = text(cursor.get(i));
                    }
                    rows.add(row);
                }
            }
            catalog = CopyScans.catalog(rows);
        }
        List<Scan> out = new ArrayList<>(plan.copies().size());
        for (FederatedPlan.Copy c : plan.copies()) {
            CopyScans.Bound b = CopyScans.bind(c, catalog, bindings);
            if (locking.contains(c.table()) && b.columns() != null) {
                b = new CopyScans.Bound(c, null, null, b.pushed(), b.local(), b.remote());
            }
            if (b.pushed().isEmpty()) {
                out.add(new Scan(b, null, List.of()));
                continue;
            }
            StringBuilder where = new StringBuilder();
            List<Object> values = new ArrayList<>();
            for (io.shardwise.core.sql.analyze.CopyScope.Conjunct conjunct : b.pushed()) {
                where.append(where.isEmpty() ? "(" : " AND (");
                render(conjunct, c.push().exposed(), template, source, bindings, where, values);
                where.append(')');
            }
            out.add(new Scan(b, where.toString(), values));
        }
        return out;
    }

    /** A pushed conjunct with this execution's values: its span of the text, or a derived OR part by part. */
    private static void render(io.shardwise.core.sql.analyze.CopyScope.Conjunct conjunct, String exposed, SqlTemplate template, SourceText source,
                               StatementBindings bindings, StringBuilder where, List<Object> values) {
        if (conjunct.node() != null) {
            // each node's key set, its tables placeheld until the node is known (CopyScans.atNode); a NULL key is the statement's to judge
            io.shardwise.core.sql.analyze.CopyScope.NodeKeys k = conjunct.node();
            Map<String, String> physical = new java.util.HashMap<>();
            for (String table : k.nodes().keySet()) {
                physical.put(table, CopyScans.placeholder(table));
            }
            String column = CopyTexts.quote(exposed) + '.' + CopyTexts.quote(k.column());
            where.append(column).append(" IN (");
            for (io.shardwise.core.sql.analyze.CopyScope.Piece p : k.pieces()) {
                if (p.text() != null) {
                    where.append(p.text());
                } else if (p.table() != null) {
                    where.append(CopyTexts.quote(CopyScans.placeholder(p.table())));
                } else {
                    Renderer.Rendered r = Renderer.span(template, source, physical, bindings, p.start(), p.end());
                    where.append(r.sql());
                    values.addAll(r.params());
                }
            }
            where.append(") OR ").append(column).append(" IS NULL");
            return;
        }
        if (!conjunct.derived()) {
            Renderer.Rendered r = Renderer.span(template, source, Map.of(), bindings, conjunct.start(), conjunct.end());
            where.append(r.sql());
            values.addAll(r.params());
            return;
        }
        for (int i = 0; i < conjunct.any().size(); i++) {
            where.append(i == 0 ? "(" : " OR (");
            List<io.shardwise.core.sql.analyze.CopyScope.Conjunct> branch = conjunct.any().get(i);
            for (int j = 0; j < branch.size(); j++) {
                where.append(j == 0 ? "(" : " AND (");
                render(branch.get(j), exposed, template, source, bindings, where, values);
                where.append(')');
            }
            where.append(')');
        }
    }

    private static String text(byte[] cell) {
        return cell == null ? null : new String(cell, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static ExecutionUnit unit(FederatedPlan plan, String sql, List<Object> params) {
        return new ExecutionUnit(plan.coordinator(), sql, params, plan.logical());
    }
}
