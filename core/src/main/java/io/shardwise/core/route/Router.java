package io.shardwise.core.route;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.Call;
import io.shardwise.core.sql.analyze.Ddl;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.Insert;
import io.shardwise.core.sql.analyze.ItemLabels;
import io.shardwise.core.sql.analyze.KeyCondition;
import io.shardwise.core.sql.analyze.Passthrough;
import io.shardwise.core.sql.analyze.RowChoice;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.SelectShape;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.analyze.SqlTemplate;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.analyze.Update;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Routes an analyzed statement with one execution's values: which nodes, what SQL each receives,
 * how results merge. Stateless and thread-safe; the hot path of every statement.
 */
public final class Router {
    private final ShardingRule rule;

    private static final MergeSpec PASS_THROUGH = new MergeSpec.PassThrough();
    /** {@link Prepared#merge} of a statement whose merge depends on its values: planned at every execution. */
    static final MergePlanner.Plan MERGE_VARIES = new MergePlanner.Plan(PASS_THROUGH, List.of(), -1);

    public Router(ShardingRule rule) {
        this.rule = rule;
    }

    /** Routes with SQL rendered from the statement's normalized text (tests, PREVIEW of a digest). */
    public RoutePlan route(Statement statement, Bindings bindings) {
        return route(statement, bindings, SourceText.of(statement.template().text()));
    }

    /** Routes with SQL rendered from {@code source}, the user's own text of this execution. */
    public RoutePlan route(Statement statement, Bindings bindings, SourceText source) {
        return route(prepare(statement), bindings, source);
    }

    /**
     * What routing a statement needs that no value changes: where its tables live and their
     * physical names on each node. Made once per cached plan, so a cache hit builds no maps.
     */
    public static final class Prepared {
        private final Statement statement;
        private final Placement placement;
        private final RenderedTexts texts;
        /**
         * Units rendered with edits that are the statement's own, never a value's ({@link Router#render}): its items'
         * labels on a node; the kept merge's edits with them ({@link #merge}). Each with the order of its values.
         */
        private final RenderedTexts labelled;
        private final RenderedTexts merged;
        /** The prepared SELECT whose rows a write needs first: a limited write's choice ({@link RowChoice}), an INSERT's source; or null. */
        private final Prepared inner;
        /** A SELECT no route answers ({@link Placement#refusal}), refused when routed (the federated tier may answer it); or null. */
        private final String refused;
        /**
         * The SELECT's merge across nodes when its planning read no value ({@link MergePlanner#valueFree}): made at the
         * first execution that spans nodes, then shared by all (immutable). {@link Router#MERGE_VARIES} when it reads values.
         */
        private volatile MergePlanner.Plan merge;

        private Prepared(Statement statement, Placement placement, Prepared inner, String refused) {
            this.statement = statement;
            this.placement = placement;
            this.refused = refused;
            this.texts = new RenderedTexts(placement == null ? 0 : placement.nodeCount());
            this.labelled = new RenderedTexts(placement == null ? 0 : placement.nodeCount());
            this.merged = new RenderedTexts(placement == null ? 0 : placement.nodeCount());
            this.inner = inner;
        }

        public Statement statement() {
            return statement;
        }

        RenderedTexts texts() {
            return texts;
        }

        /** Units rendered with the kept merge's edits (tests). */
        RenderedTexts merged() {
            return merged;
        }

        /** The merge this plan keeps for every execution, {@link Router#MERGE_VARIES}, or null before one spanned nodes (tests). */
        MergePlanner.Plan keptMerge() {
            return merge;
        }
    }

    /** Prepares a statement for routing (fails, as routing would, on tables it can never combine). */
    public Prepared prepare(Statement statement) {
        String refused = statement instanceof Select s ? Placement.refusal(s.tables(), rule) : null;
        Placement placement = refused != null ? null : switch (statement) {
            case Select s -> Placement.of(s.tables(), rule);
            case Update u -> Placement.of(u.tables(), rule);
            case Delete d -> Placement.of(d.tables(), rule);
            case Passthrough p -> Placement.of(p.tables(), rule);
            case Call c -> Placement.of(c.tables(), rule);
            case Insert i -> null;
            case Ddl d -> null;
            case SessionCommand c -> null;
        };
        Select inner = switch (statement) {
            case Update u -> u.choice() == null ? null : u.choice().select();
            case Delete d -> d.choice() == null ? null : d.choice().select();
            case Insert i -> i.source() == null ? null : i.source().select();
            case Select s -> null;
            case Passthrough p -> null;
            case Call c -> null;
            case Ddl d -> null;
            case SessionCommand c -> null;
        };
        return new Prepared(statement, placement, inner == null ? null : prepare(inner), refused);
    }

    public RoutePlan route(Prepared prepared, Bindings bindings, SourceText source) {
        return route(prepared, bindings, source, java.util.Set.of());
    }

    /**
     * As {@link #route(Prepared, Bindings, SourceText)}, with a cross-shard SELECT's weight columns
     * {@code byIndex} (numbered as the plan of the other form numbers them) computed as ENUM/SET member
     * indexes: the units' column types showed those keys are ENUM or SET, which MySQL orders by index.
     */
    public RoutePlan route(Prepared prepared, Bindings bindings, SourceText source, java.util.Set<Integer> byIndex) {
        return switch (prepared.statement) {
            case Select s -> select(s, prepared, bindings, source, byIndex);
            case Insert i -> i.source() == null ? InsertRouter.route(i, bindings, rule, source) : insertSelect(i, prepared, bindings);
            case Update u when u.multi() != null -> multiWrite(u.template(), prepared, u.multi(), u.conditions(), u.nested(), u.limited(),
                    bindings, source, false);
            case Delete d when d.multi() != null -> multiWrite(d.template(), prepared, d.multi(), d.conditions(), d.nested(), d.limited(),
                    bindings, source, false);
            case Update u -> write(u.template(), prepared, u.tables(), u.conditions(), u.nested(), u.limited(), u.choice(), u.assigned(),
                    bindings, source);
            case Delete d -> write(d.template(), prepared, d.tables(), d.conditions(), d.nested(), d.limited(), d.choice(), List.of(),
                    bindings, source);
            case Ddl d -> DdlRouter.route(d, bindings, rule, source);
            case Passthrough p -> passthrough(p.template(), prepared, bindings, source);
            case Call c -> passthrough(c.template(), prepared, bindings, source);
            case SessionCommand c -> throw new ShardwiseException(ErrorCode.BUG, "session command routed: " + c.kind());
        };
    }

    /**
     * An {@code INSERT ... VALUES} rendered for one node of its table (the first), whatever its rows' keys: prepared there and
     * never run, it lets the backend check what the statement names without a row to route (an INSERT ... SELECT ... ON
     * DUPLICATE KEY UPDATE whose SELECT returned none, whose clause MySQL checks all the same).
     */
    public ExecutionUnit anyNode(Prepared prepared, Bindings bindings, SourceText source) {
        if (!(prepared.statement instanceof Insert insert) || insert.source() != null) {
            throw new ShardwiseException(ErrorCode.BUG, "anyNode of " + prepared.statement);
        }
        return InsertRouter.anyNode(insert, bindings, rule, source);
    }

    /** INSERT ... SELECT: the plan of its SELECT; the session inserts the rows by the target's rule ({@link RouteKind#INSERT_SELECT}). */
    private RoutePlan insertSelect(Insert insert, Prepared prepared, Bindings bindings) {
        Select source = insert.source().select();
        RoutePlan rows = select(source, prepared.inner, new ShiftedBindings(bindings, insert.source().firstParam()),
                SourceText.of(source.template().text()), java.util.Set.of());
        return new RoutePlan(RouteKind.INSERT_SELECT, rows.units(), rows.merge(), rows.starItem(), rows.assumedWidth(), List.of());
    }

    private RoutePlan passthrough(SqlTemplate template, Prepared prepared, Bindings bindings, SourceText source) {
        Placement placement = prepared.placement;
        String backend = placement.singleBackend() != null ? placement.singleBackend() : rule.config().defaultBackend();
        Renderer.Rendered r = render(prepared, template, source, RenderedTexts.singleSlot(), placement.singleNames(), bindings, List.of());
        return new RoutePlan(RouteKind.UNSHARDED, List.of(unit(backend, r, placement.singleLogical())), PASS_THROUGH);
    }

    private RoutePlan select(Select s, Prepared prepared, Bindings bindings, SourceText source, java.util.Set<Integer> byIndex) {
        if (prepared.refused != null) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, prepared.refused);
        }
        Placement placement = prepared.placement;
        if (placement.sharded().isEmpty()) {
            String backend = placement.readBackend(rule);
            Renderer.Rendered r = render(prepared, s.template(), source, RenderedTexts.singleSlot(), placement.singleNames(), bindings, List.of());
            RouteKind kind = placement.single().isEmpty() && !placement.broadcast().isEmpty() ? RouteKind.BROADCAST_READ : RouteKind.UNSHARDED;
            return new RoutePlan(kind, List.of(unit(backend, r, placement.singleLogical())), PASS_THROUGH);
        }
        Selection selection = select(placement, s.topTables(), s.conditions(), s.keyJoins(), bindings);
        if (selection.nodes.cardinality() > 1 && s.nested() && !innerOnEachRowsNode(s)) {
            throw MergePlanner.unsupported("a subquery, derived table, UNION or window function over sharded table '"
                    + placement.sharded().get(0).name() + "' spanning " + selection.nodes.cardinality() + " shards");
        }
        if (s.nested() && selection.nodes.cardinality() == 1) {
            innerOnSameNode(s, selection.nodes, bindings);
        }
        List<Renderer.Edit> edits = List.of();
        MergeSpec merge = PASS_THROUGH;
        int starItem = -1;
        int width = -1;
        boolean keptEdits = true;
        if (selection.nodes.cardinality() > 1) {
            if (s.shape().distinct() && s.shape().star() && s.topTables().size() > 1) {
                // an outer join's NULL-extended rows carry no sharding key: several nodes may return the same one
                throw MergePlanner.unsupported("SELECT DISTINCT * over a join across shards");
            }
            MergePlanner.Plan plan = mergePlan(s, prepared, bindings, byIndex);
            edits = plan.edits();
            keptEdits = plan == prepared.merge;
            merge = plan.spec();
            width = plan.width();
            for (int i = 0; i < s.shape().items().size(); i++) {
                if (s.shape().items().get(i).isStar()) {
                    starItem = i;
                }
            }
        }
        List<ExecutionUnit> units = units(s.template(), source, prepared, selection, bindings, edits, keptEdits, s);
        return new RoutePlan(selection.kind, units, merge, starItem, width, List.of());
    }

    /**
     * The merge of a SELECT spanning nodes: the one its cached plan keeps when planning reads no value (no ENUM or SET
     * key ordered by member index either, which the units' column types decide per route), else planned now.
     */
    private static MergePlanner.Plan mergePlan(Select s, Prepared prepared, Bindings bindings, java.util.Set<Integer> byIndex) {
        if (!byIndex.isEmpty()) {
            return MergePlanner.plan(s.shape(), s.template(), bindings, byIndex);
        }
        MergePlanner.Plan kept = prepared.merge;
        if (kept == MERGE_VARIES) {
            return MergePlanner.plan(s.shape(), s.template(), bindings, byIndex);
        }
        if (kept != null) {
            return kept;
        }
        MergePlanner.Plan[] planned = new MergePlanner.Plan[1];
        MergePlanner.Plan free = MergePlanner.valueFree(s.shape(), s.template(), bindings, planned);
        prepared.merge = free != null ? free : MERGE_VARIES;
        return planned[0];
    }

    /**
     * A nested statement routed to one node is right only if every subquery reads there all the rows it
     * would read on one database: its sharded tables' own WHERE pins them to that node, or equates their key
     * with an outer table's (each outer row's matches live beside it). Otherwise (e.g. {@code WHERE user_id = 3
     * AND amount > (SELECT AVG(amount) FROM orders)}) one node's rows would answer for all: a routing 1235
     * hands the statement to the third tier, which reads every node.
     */
    private void innerOnSameNode(Select s, BitSet nodes, Bindings bindings) {
        boolean outerSharded = false;
        for (TableRef t : s.topTables()) {
            outerSharded |= ruleOf(t) instanceof TableRule.Sharded;
        }
        for (Select.Inner inner : s.inner()) {
            if (!(ruleOf(inner.table()) instanceof TableRule.Sharded r) || (inner.followsOuter() && outerSharded)) {
                continue;
            }
            BitSet reads = NodeSelector.nodes(inner.condition(), r.algorithm(), r.nodes().size(), bindings);
            reads.andNot(nodes);
            if (!reads.isEmpty()) {
                throw MergePlanner.unsupported("a subquery over sharded table '" + r.name()
                        + "' reading other shards than the statement's");
            }
        }
    }

    /**
     * Whether a statement spanning nodes answers exactly as one statement per node, merged (tier 2): its
     * subqueries are per-row values the merger passes through ({@link Select#perRow}), and each reads, for
     * every outer row, only rows on that row's node — sharded tables whose key it equates with the outer
     * table's (bound: same algorithm and nodes, so the same node), broadcast tables (a full copy on each).
     * Single tables are left to {@link #select}, which refuses them beside nodes of other backends; another
     * schema's tables may differ per backend, so they are no per-row value.
     */
    private boolean innerOnEachRowsNode(Select s) {
        if (!s.perRow()) {
            return false;
        }
        for (Select.Inner inner : s.inner()) {
            switch (ruleOf(inner.table())) {
                case TableRule.Sharded r -> {
                    if (!inner.followsOuter()) {
                        return false;
                    }
                }
                case TableRule.Broadcast b -> { }
                case TableRule.Single single -> { }
                case null -> {
                    return false;
                }
            }
        }
        return true;
    }

    /** The rule of a reference to the logical schema (null for other schemas' tables). */
    private TableRule ruleOf(TableRef t) {
        return t.schema() == null || t.schema().equalsIgnoreCase(rule.schema()) ? rule.table(t.name()) : null;
    }

    /**
     * An UPDATE of its target's sharding column ({@link RouteKind#KEY_MOVE}): the units choose its rows
     * (locked, with their assignments' values); the session then updates them in place and moves those
     * whose new key belongs to another node.
     */
    private RoutePlan keyMove(Prepared prepared, TableRule.Sharded sharded, String column, boolean nested, RowChoice choice,
                              Bindings bindings) {
        String what = "UPDATE of sharding column '" + column + "' of table '" + sharded.name() + "'";
        if (nested) {
            throw MergePlanner.unsupported(what + " with a subquery (its rows would have to move between shards)");
        }
        if (choice == null || choice.moves() == null) {
            throw MergePlanner.unsupported(what + " in this form (PARTITION, or several tables: its rows would have to move between shards)");
        }
        if (choice.moves().ignore()) {
            throw MergePlanner.unsupported("UPDATE IGNORE of sharding column '" + column + "' of table '" + sharded.name()
                    + "' (a moved row meeting a duplicate key on its new shard would be lost, not left as it was)");
        }
        Select chooser = choice.select();
        RoutePlan rows = select(chooser, prepared.inner, new ShiftedBindings(bindings, choice.firstParam()),
                SourceText.of(chooser.template().text()), java.util.Set.of());
        return new RoutePlan(RouteKind.KEY_MOVE, rows.units(), rows.merge(), rows.starItem(), rows.assumedWidth(), List.of());
    }

    /**
     * The in-place step of a {@link RouteKind#KEY_MOVE}: the user's UPDATE (its WHERE narrowed to the
     * chosen rows' keys) routed as any write, the sharding column's assignment allowed: the rows it
     * moves are then moved by the session.
     */
    public RoutePlan routeInPlace(Prepared prepared, Bindings bindings, SourceText source) {
        if (!(prepared.statement instanceof Update u)) {
            throw new ShardwiseException(ErrorCode.BUG, "in-place step of a key move is not an UPDATE");
        }
        if (u.multi() != null) {
            return multiWrite(u.template(), prepared, u.multi(), u.conditions(), u.nested(), u.limited(), bindings, source, true);
        }
        // its WHERE already names the chosen rows: an ORDER BY here is the session's own (the order MySQL would update
        // them in, when they take each other's primary keys), for each node to apply to its rows, never a choice of rows
        return write(u.template(), prepared, u.tables(), u.conditions(), u.nested(), false, u.choice(), u.assigned(),
                bindings, source, true);
    }

    private RoutePlan write(SqlTemplate template, Prepared prepared, List<TableRef> tables,
                            Map<TableRef, KeyCondition> conditions, boolean nested, boolean limited, RowChoice choice,
                            List<String> assigned, Bindings bindings, SourceText source) {
        return write(template, prepared, tables, conditions, nested, limited, choice, assigned, bindings, source, false);
    }

    private RoutePlan write(SqlTemplate template, Prepared prepared, List<TableRef> tables,
                            Map<TableRef, KeyCondition> conditions, boolean nested, boolean limited, RowChoice choice,
                            List<String> assigned, Bindings bindings, SourceText source, boolean movesAllowed) {
        Placement placement = prepared.placement;
        TableRef target = tables.get(0);
        TableRule targetRule = placement.ruleOf(target);
        if (targetRule instanceof TableRule.Broadcast b) {
            if (!placement.sharded().isEmpty()) {
                throw MergePlanner.unsupported("a write to broadcast table '" + b.name() + "' that reads sharded tables");
            }
            List<ExecutionUnit> units = new ArrayList<>();
            for (DataNode node : b.nodes()) {
                Renderer.Rendered r = render(prepared, template, source, RenderedTexts.singleSlot(), placement.singleNames(), bindings, List.of());
                units.add(unit(node.backend(), r, placement.singleLogical()));
            }
            return new RoutePlan(RouteKind.BROADCAST_WRITE, units, units.size() == 1 ? PASS_THROUGH : new MergeSpec.Concat(MergeSpec.Tail.NONE));
        }
        if (placement.sharded().isEmpty()) {
            String backend = placement.singleBackend() != null ? placement.singleBackend() : placement.readBackend(rule);
            Renderer.Rendered r = render(prepared, template, source, RenderedTexts.singleSlot(), placement.singleNames(), bindings, List.of());
            return new RoutePlan(RouteKind.UNSHARDED, List.of(unit(backend, r, placement.singleLogical())), PASS_THROUGH);
        }
        if (targetRule instanceof TableRule.Sharded sharded && !movesAllowed) {
            for (String column : assigned) {
                if (column.equalsIgnoreCase(sharded.keyColumn())) {
                    return keyMove(prepared, sharded, column, nested, choice, bindings);
                }
            }
        }
        Selection selection = select(placement, List.of(target), conditions, List.of(), bindings);
        if (selection.nodes.cardinality() > 1 && nested) {
            throw MergePlanner.unsupported("a subquery in a write to sharded table '" + target.name() + "' spanning shards");
        }
        if (selection.nodes.cardinality() > 1 && limited) {
            if (choice == null) {
                throw MergePlanner.unsupported("ORDER BY or LIMIT in a write to sharded table '" + target.name() + "' spanning shards");
            }
            // the rows are chosen first, as one MySQL chooses them; the session then writes them by key
            Select chooser = choice.select();
            RoutePlan rows = select(chooser, prepared.inner, new ShiftedBindings(bindings, choice.firstParam()),
                    SourceText.of(chooser.template().text()), java.util.Set.of());
            return new RoutePlan(RouteKind.KEYED_WRITE, rows.units(), rows.merge(), rows.starItem(), rows.assumedWidth(), List.of());
        }
        List<ExecutionUnit> units = units(template, source, prepared, selection, bindings, List.of(), true, null);
        return new RoutePlan(selection.kind, units, units.size() == 1 ? PASS_THROUGH : new MergeSpec.Concat(MergeSpec.Tail.NONE));
    }

    /**
     * A multi-table UPDATE or DELETE on the fast path: run as written on each node its FROM routes to, as a join
     * SELECT of the same tables would (bound sharded tables joined on their keys, pruned by their key conditions;
     * broadcast tables and single tables of those nodes' backend read in place). Exact only when every target row
     * is written on one node with every row it meets: a target broadcast table joined with sharded ones, a single
     * target over several nodes (its rows would be matched, and counted, once per node) and subqueries spanning
     * nodes are refused here, which hands the write to the third tier (one target) or names what is refused.
     */
    private RoutePlan multiWrite(SqlTemplate template, Prepared prepared, io.shardwise.core.sql.analyze.MultiTable multi,
                                 Map<TableRef, KeyCondition> conditions, boolean nested, boolean limited, Bindings bindings,
                                 SourceText source, boolean movesAllowed) {
        Placement placement = prepared.placement;
        String moved = movesAllowed ? null : assignedKey(multi);
        if (moved != null) {
            // written in place the rows would stay on nodes their new keys do not route to: the session moves them (KeyMoves)
            throw multiUnsupported(multi, moved + " (its rows move between shards)");
        }
        TableRef broadcastTarget = null;
        TableRef singleTarget = null;
        for (TableRef t : multi.targets()) {
            switch (placement.ruleOf(t)) {
                case TableRule.Broadcast b -> broadcastTarget = t;
                case TableRule.Single s -> singleTarget = t;
                case TableRule.Sharded s -> { }
            }
        }
        if (placement.sharded().isEmpty()) {
            if (broadcastTarget == null) {
                String backend = placement.singleBackend() != null ? placement.singleBackend() : placement.readBackend(rule);
                Renderer.Rendered r = render(prepared, template, source, RenderedTexts.singleSlot(), placement.singleNames(), bindings, List.of());
                return new RoutePlan(RouteKind.UNSHARDED, List.of(unit(backend, r, placement.singleLogical())), PASS_THROUGH);
            }
            if (!placement.single().isEmpty() || singleTarget != null) {
                throw multiUnsupported(multi, "a write to broadcast table '" + broadcastTarget.name() + "' joined with single tables");
            }
            List<ExecutionUnit> units = new ArrayList<>();
            for (DataNode node : placement.ruleOf(broadcastTarget).nodes()) {
                Renderer.Rendered r = render(prepared, template, source, RenderedTexts.singleSlot(), placement.singleNames(), bindings, List.of());
                units.add(unit(node.backend(), r, placement.singleLogical()));
            }
            return new RoutePlan(RouteKind.BROADCAST_WRITE, units, units.size() == 1 ? PASS_THROUGH : new MergeSpec.Concat(MergeSpec.Tail.NONE));
        }
        if (broadcastTarget != null) {
            throw multiUnsupported(multi, "a write to broadcast table '" + broadcastTarget.name() + "' that reads sharded tables");
        }
        Selection selection;
        try {
            selection = select(placement, multi.top(), conditions, multi.keyJoins(), bindings);
        } catch (ShardwiseException e) {
            throw e.code() == ErrorCode.UNSUPPORTED ? multiUnsupported(multi, e.getMessage()) : e;
        }
        int nodes = selection.nodes.cardinality();
        if (nodes > 1 && singleTarget != null) {
            throw multiUnsupported(multi, "a write to single table '" + singleTarget.name() + "' joined with sharded tables spanning shards");
        }
        if (nodes > 1 && nested) {
            throw multiUnsupported(multi, "a subquery in a write spanning shards");
        }
        if (nodes > 1 && limited) {
            throw multiUnsupported(multi, io.shardwise.core.sql.analyze.MultiTable.LIMITED_ACROSS_NODES);
        }
        List<ExecutionUnit> units = units(template, source, prepared, selection, bindings, List.of(), true, null);
        return new RoutePlan(selection.kind, units, units.size() == 1 ? PASS_THROUGH : new MergeSpec.Concat(MergeSpec.Tail.NONE));
    }

    /**
     * Why a multi-table write has no route: with one known target the third tier takes it (PlanRunner); with
     * several, or targets only the backend resolves, it is refused with this message, which says so.
     */
    /**
     * "UPDATE of sharding column 'c' of table 't'" when a multi-table UPDATE assigns a sharding column: its target's
     * (qualified), or, unqualified, one named like the key of any sharded table of the FROM (which table it is only
     * the backend knows; the session resolves it first); else null.
     */
    private String assignedKey(io.shardwise.core.sql.analyze.MultiTable multi) {
        if (multi.spans() == null) {
            return null;
        }
        for (io.shardwise.core.sql.analyze.MultiTable.Assigned a : multi.spans().assignments()) {
            for (TableRef t : multi.top()) {
                if ((a.target() == null || a.target() == t) && ruleOf(t) instanceof TableRule.Sharded s
                        && s.keyColumn().equalsIgnoreCase(a.column())) {
                    return "UPDATE of sharding column '" + a.column() + "' of table '" + s.name() + "'";
                }
            }
        }
        return null;
    }

    /** What {@link ErrorCode#UNSUPPORTED}'s message says before the unsupported thing. */
    private static final String UNSUPPORTED_PREFIX = ErrorCode.UNSUPPORTED.format().substring(0, ErrorCode.UNSUPPORTED.format().indexOf("%s"));

    private static ShardwiseException multiUnsupported(io.shardwise.core.sql.analyze.MultiTable multi, String reason) {
        String detail = reason.startsWith(UNSUPPORTED_PREFIX) && reason.endsWith("'")
                ? reason.substring(UNSUPPORTED_PREFIX.length(), reason.length() - 1) : reason; // the apostrophe of "doesn't" is not the quote
        if (multi.targetsKnown() && multi.targets().size() == 1) {
            return MergePlanner.unsupported("a multi-table write: " + detail);
        }
        String targets = multi.targetsKnown() ? "several tables " + names(multi.targets())
                : "tables it does not name by their reference (qualify each SET column by its table)";
        return MergePlanner.unsupported("a multi-table UPDATE or DELETE writing " + targets + " whose rows do not meet on one node ("
                + detail + "); only a write to one table is made on copies of the others");
    }

    private static String names(List<TableRef> refs) {
        StringBuilder sb = new StringBuilder();
        for (TableRef t : refs) {
            sb.append(sb.isEmpty() ? "" : ", ").append(t.exposedName());
        }
        return sb.toString();
    }

    /** The nodes a statement's sharded tables route to (never empty: an empty match still needs one node's answer). */
    private Selection select(Placement placement, List<TableRef> top, Map<TableRef, KeyCondition> conditions,
                             List<Select.KeyJoin> keyJoins, Bindings bindings) {
        TableRule.Sharded first = (TableRule.Sharded) placement.ruleOf(placement.sharded().get(0));
        for (TableRef t : placement.sharded()) {
            TableRule.Sharded r = (TableRule.Sharded) placement.ruleOf(t);
            if (!r.isBoundTo(first)) {
                throw MergePlanner.unsupported("a join of sharded tables that are not bound to each other: '" + first.name()
                        + "' and '" + r.name() + "' (bind one to the other, or make one broadcast)");
            }
        }
        // only the outermost FROM narrows the route; subquery tables follow it on each node
        int nodeCount = first.nodes().size();
        TableRef sole = null;
        int count = 0;
        for (TableRef t : top) {
            if (placement.ruleOf(t) instanceof TableRule.Sharded) {
                sole = t;
                count++;
            }
        }
        BitSet nodes;
        KeyCondition kindCondition;
        if (count <= 1) { // one sharded table (the usual case): no per-table lists
            TableRef t = count == 0 ? placement.sharded().get(0) : sole;
            kindCondition = conditions.getOrDefault(t, KeyCondition.ANY);
            nodes = NodeSelector.nodes(kindCondition, first.algorithm(), nodeCount, bindings);
        } else {
            Narrowed n = joined(placement, top, conditions, keyJoins, first, bindings);
            nodes = n.nodes();
            kindCondition = n.condition();
        }
        RouteKind kind = NodeSelector.kind(kindCondition, nodes.cardinality(), nodeCount);
        if (nodes.isEmpty()) {
            nodes.set(0); // no node can match: one node still answers with the right columns
            kind = RouteKind.POINT;
        }
        String single = placement.singleBackend();
        if (single != null) {
            for (int i = nodes.nextSetBit(0); i >= 0; i = nodes.nextSetBit(i + 1)) {
                if (!first.nodes().get(i).backend().equals(single)) {
                    throw MergePlanner.unsupported("a join of single table '" + placement.single().get(0).name() + "' (on "
                            + single + ") with sharded table '" + first.name() + "' on other backends");
                }
            }
        }
        return new Selection(nodes, kind);
    }

    /** Nodes of several sharded tables in one FROM: the intersection when joined on their keys, else one node at most. */
    private static Narrowed joined(Placement placement, List<TableRef> top, Map<TableRef, KeyCondition> conditions,
                                   List<Select.KeyJoin> keyJoins, TableRule.Sharded first, Bindings bindings) {
        List<TableRef> sharded = new ArrayList<>();
        for (TableRef t : top) {
            if (placement.ruleOf(t) instanceof TableRule.Sharded) {
                sharded.add(t);
            }
        }
        int nodeCount = first.nodes().size();
        List<BitSet> perTable = new ArrayList<>();
        KeyCondition kindCondition = KeyCondition.ANY;
        for (TableRef t : sharded) {
            KeyCondition c = conditions.getOrDefault(t, KeyCondition.ANY);
            if (!(c instanceof KeyCondition.Any)) {
                kindCondition = c;
            }
            perTable.add(NodeSelector.nodes(c, first.algorithm(), nodeCount, bindings));
        }
        BitSet nodes = perTable.get(0); // made for this execution: and-ing into it changes nothing shared
        if (connected(sharded, keyJoins)) {
            for (BitSet b : perTable) {
                nodes.and(b);
            }
            return new Narrowed(nodes, kindCondition);
        }
        BitSet union = new BitSet();
        for (BitSet b : perTable) {
            union.or(b);
        }
        if (union.cardinality() > 1) {
            throw MergePlanner.unsupported("a join of sharded tables not joined on their sharding columns ("
                    + sharded + "), spanning shards");
        }
        return new Narrowed(union, kindCondition);
    }

    private record Narrowed(BitSet nodes, KeyCondition condition) {}

    private static boolean connected(List<TableRef> tables, List<Select.KeyJoin> joins) {
        Map<TableRef, TableRef> parent = new HashMap<>();
        for (TableRef t : tables) {
            parent.put(t, t);
        }
        for (Select.KeyJoin j : joins) {
            if (parent.containsKey(j.left()) && parent.containsKey(j.right())) {
                parent.put(find(parent, j.left()), find(parent, j.right()));
            }
        }
        TableRef root = find(parent, tables.get(0));
        for (TableRef t : tables) {
            if (find(parent, t) != root) {
                return false;
            }
        }
        return true;
    }

    private static TableRef find(Map<TableRef, TableRef> parent, TableRef t) {
        while (parent.get(t) != t) {
            t = parent.get(t);
        }
        return t;
    }

    /** {@code keptEdits}: {@code edits} are the statement's own (none, or its kept merge's), the same at every execution. */
    private List<ExecutionUnit> units(SqlTemplate template, SourceText source, Prepared prepared, Selection selection,
                                      Bindings bindings, List<Renderer.Edit> edits, boolean keptEdits, Select select) {
        Placement placement = prepared.placement;
        int count = selection.nodes.cardinality();
        if (count == 1) {
            // a point read: the one unit as an immutable list, which RoutePlan keeps as it is (an ArrayList it would copy)
            int i = selection.nodes.nextSetBit(0);
            Map<String, String> names = placement.namesAt(i);
            List<Renderer.Edit> all = select == null ? edits : withLabels(select, names, edits);
            return List.of(unit(placement.backendAt(i), render(texts(prepared, edits, keptEdits, all), template, source,
                    RenderedTexts.nodeSlot(i), names, bindings, all), placement.logicalAt(i)));
        }
        List<ExecutionUnit> units = new ArrayList<>(count);
        for (int i = selection.nodes.nextSetBit(0); i >= 0; i = selection.nodes.nextSetBit(i + 1)) {
            Map<String, String> names = placement.namesAt(i);
            List<Renderer.Edit> all = select == null ? edits : withLabels(select, names, edits);
            Renderer.Rendered r = render(texts(prepared, edits, keptEdits, all), template, source, RenderedTexts.nodeSlot(i),
                    names, bindings, all);
            String backend = placement.backendAt(i);
            units.add(unit(backend, r, placement.logicalAt(i)));
        }
        return units;
    }

    /**
     * Where a unit rendered with {@code all} (the merge's {@code edits} and the node's labels) is kept: without edits, in
     * {@link Prepared#texts}; with labels only, or the kept merge's edits, in their own store (a node's unit of a point
     * read and of a scatter differ); with edits a value made (a scatter's LIMIT), nowhere.
     */
    private static RenderedTexts texts(Prepared prepared, List<Renderer.Edit> edits, boolean keptEdits, List<Renderer.Edit> all) {
        return all.isEmpty() ? prepared.texts : !keptEdits ? null : edits.isEmpty() ? prepared.labelled : prepared.merged;
    }

    /**
     * {@code edits} plus, for each item {@link ItemLabels#changedByRenaming} on this node ({@code orders.amount + 1},
     * {@code COUNT(orders.order_id)}, a subquery) and not already replaced by an edit, an alias of its own
     * source text: MySQL labels such an item by the text the user wrote, the backend would label it by
     * the physical name it received. (A merge's edits that replace an item, such as a DISTINCT
     * aggregate's argument, alias it themselves.)
     */
    private static List<Renderer.Edit> withLabels(Select select, Map<String, String> names, List<Renderer.Edit> edits) {
        if (select.shape() == null) {
            return edits; // a set operation: its labels come from its first branch, not read here
        }
        List<Renderer.Edit> out = null;
        List<SelectShape.Item> items = select.shape().items();
        for (int i = 0; i < items.size(); i++) {
            SelectShape.Item item = items.get(i);
            if (ItemLabels.changedByRenaming(select.template(), item, names) && !overlaps(edits, item)) {
                if (out == null) {
                    out = new ArrayList<>(edits);
                }
                out.add(new Renderer.Edit(item.start(), item.end(), List.of(new Renderer.Piece.Copy(item.start(), item.end())), true));
            }
        }
        if (out == null) {
            return edits;
        }
        out.sort(java.util.Comparator.comparingInt(Renderer.Edit::start));
        return out;
    }

    /** Whether an edit replaces part of the item, or inserts inside it (an insert at its end, the hidden columns', follows it). */
    private static boolean overlaps(List<Renderer.Edit> edits, SelectShape.Item item) {
        for (int i = 0; i < edits.size(); i++) {
            Renderer.Edit e = edits.get(i);
            if (e.start() < item.end() && item.start() < e.end() || e.start() == e.end() && e.start() > item.start() && e.start() < item.end()) {
                return true;
            }
        }
        return false;
    }

    /** A unit rendered with the statement's own edits: its SQL, and which values its {@code ?}s take, in order. */
    private record Ordered(String sql, int[] values) {
        List<Object> params(Bindings bindings) {
            List<Object> params = new ArrayList<>(values.length);
            for (int v : values) {
                params.add(bindings.value(v));
            }
            return params;
        }
    }

    /** Bindings that note which values a render binds, in order. */
    private static final class Recorded implements Bindings {
        private final Bindings bindings;
        private int[] values = new int[8];
        private int count;

        Recorded(Bindings bindings) {
            this.bindings = bindings;
        }

        @Override
        public int size() {
            return bindings.size();
        }

        @Override
        public Object value(int ordinal) {
            if (count == values.length) {
                values = java.util.Arrays.copyOf(values, count * 2);
            }
            values[count++] = ordinal;
            return bindings.value(ordinal);
        }

        @Override
        public String text(int ordinal) {
            return bindings.text(ordinal);
        }

        @Override
        public boolean inline(int ordinal) {
            return bindings.inline(ordinal);
        }

        @Override
        public boolean hasParameters() {
            return bindings.hasParameters();
        }
    }

    /**
     * One unit's SQL and values; from {@code texts} ({@link #texts}) for a prepared statement's execution whose edits are
     * none or the statement's own: its SQL then depends on the text and the node, not the values — unless the render
     * read a value for anything but binding it (a label spelling a parameter), which keeps it out of the cache.
     */
    private static Renderer.Rendered render(RenderedTexts texts, SqlTemplate template, SourceText source, int slot,
                                            Map<String, String> names, Bindings bindings, List<Renderer.Edit> edits) {
        if (texts == null || !bindings.hasParameters() || !source.hasValues()) {
            // a statement rendered from its digest (an INSERT's SELECT, a write's choice) takes its literals' text from
            // the bindings: texts of one digest differing by a literal would share the key
            return Renderer.render(template, source, names, bindings, edits);
        }
        String text = source.text();
        if (edits.isEmpty()) {
            String sql = (String) texts.get(text, slot);
            if (sql != null) {
                return new Renderer.Rendered(sql, Renderer.parameters(template, bindings));
            }
            Renderer.Rendered r = Renderer.render(template, source, names, bindings, edits);
            texts.put(text, slot, r.sql());
            return r;
        }
        if (texts.get(text, slot) instanceof Ordered o) {
            return new Renderer.Rendered(o.sql(), o.params(bindings));
        }
        Recorded recorded = new Recorded(bindings);
        Renderer.Rendered r = Renderer.render(template, source, names, recorded, edits);
        if (recorded.count == r.params().size()) { // every value read was bound: none is spelled into the text
            texts.put(text, slot, new Ordered(r.sql(), java.util.Arrays.copyOf(recorded.values, recorded.count)));
        }
        return r;
    }

    /** A unit of the statement's own text for one slot: no edits, kept in the plan's {@link Prepared#texts} (passthrough, writes). */
    private static Renderer.Rendered render(Prepared prepared, SqlTemplate template, SourceText source, int slot,
                                            Map<String, String> names, Bindings bindings, List<Renderer.Edit> edits) {
        return render(edits.isEmpty() ? prepared.texts : null, template, source, slot, names, bindings, edits);
    }

    static ExecutionUnit unit(String backend, Renderer.Rendered r, Map<String, String> logical) {
        return new ExecutionUnit(backend, r.sql(), r.params(), logical);
    }

    private record Selection(BitSet nodes, RouteKind kind) {}
}
