package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.MultiTable;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.analyze.Update;
import io.shardwise.core.sql.normalize.Literal;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A multi-table UPDATE or DELETE whose rows do not meet on one node and that writes several tables, or names a
 * SET column without its table, run as one MySQL runs it, inside the caller's transaction (its own in autocommit
 * mode, opened by {@link PlanRunner}), each step answered by the tier that answers it:
 * <ul>
 *   <li>UPDATE: each unqualified SET column resolved to the one table of the FROM that has it, as MySQL
 *   resolves it (none: 1054, several: 1052); then one UPDATE per target, the user's FROM and WHERE with
 *   that target's assignments only — a one-target write (co-located, or the third tier's). MySQL reads every
 *   target's join rows before it changes the tables it buffers, and which table it changes while reading is
 *   its join order's choice; so the split is exact only when no part of the statement reads a column
 *   another target assigns (by name, conservatively), and otherwise refused: its answer would depend on an
 *   order MySQL does not define.</li>
 *   <li>DELETE: first every target's rows chosen ({@code SELECT t.* FROM <the user's FROM> WHERE …}), all
 *   before any is deleted, as MySQL reads the join before deleting; then each target's rows deleted by
 *   primary key ({@link KeyedWrites}). A target without a primary key is refused: no other statement can
 *   name its chosen rows.</li>
 * </ul>
 * Counts are the sums of the targets' (MySQL counts the changed or deleted rows of every table). The DELETE's
 * choice is a locking read ({@code FOR UPDATE}, stronger than the shared locks MySQL takes on the tables it only
 * reads: it may make a concurrent reader wait longer, never see other rows). Not thread-safe, as its session.
 */
final class MultiTargetWrites {
    private final Engine engine;
    private final EngineSession session;
    private final PlanRunner runner;

    MultiTargetWrites(Engine engine, EngineSession session, PlanRunner runner) {
        this.engine = engine;
        this.session = session;
        this.runner = runner;
    }

    /** Whether {@code statement} is a multi-table write run here when its tables do not meet on one node. */
    static boolean handles(Statement statement) {
        return switch (statement) {
            case Update u -> u.multi() != null && !u.limited() && (u.multi().targets().size() > 1 || !u.multi().targetsKnown());
            case Delete d -> d.multi() != null && !d.limited() && d.multi().targetsKnown() && d.multi().targets().size() > 1;
            default -> false;
        };
    }

    StatementResult run(Statement statement, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        return switch (statement) {
            case Update u -> update(u.multi(), normalized, source, params);
            case Delete d -> delete(d.multi(), normalized, source, params);
            default -> throw new ShardwiseException(ErrorCode.BUG, "a multi-target write of " + statement.getClass().getSimpleName());
        };
    }

    private StatementResult update(MultiTable multi, NormalizedSql normalized, SourceText source, List<Object> params) {
        MultiTable.Spans spans = multi.spans();
        String text = source.text();
        int refsStart = source.at(spans.refsStart());
        int refsEnd = source.at(spans.refsEnd());
        int tail = source.at(spans.tailStart());
        List<MultiTable.Assigned> assignments = spans.assignments();
        List<TableRef> owners = new ArrayList<>();
        Map<TableRef, Set<String>> columns = new HashMap<>();
        for (MultiTable.Assigned a : assignments) {
            owners.add(a.target() != null ? a.target() : owner(a.column(), multi, normalized, params, source,
                    text.substring(refsStart, refsEnd), columns));
        }
        List<TableRef> targets = new ArrayList<>();
        for (TableRef t : owners) {
            if (indexOf(targets, t) < 0) {
                targets.add(t);
            }
        }
        refuseCrossReads(normalized, source, spans, owners, targets);
        List<StatementResult.Update> results = new ArrayList<>();
        for (TableRef target : targets) {
            StringBuilder sql = new StringBuilder(text.length() + 16).append(text, 0, refsEnd).append("SET ");
            List<int[]> pieces = new ArrayList<>();
            pieces.add(new int[] {0, refsEnd});
            boolean first = true;
            for (int i = 0; i < assignments.size(); i++) {
                if (owners.get(i) != target) {
                    continue;
                }
                MultiTable.Assigned a = assignments.get(i);
                int start = source.at(a.start());
                int end = source.at(a.end());
                sql.append(first ? "" : ", ");
                if (a.target() == null) {
                    sql.append(KeyedWrites.quoted(target.exposedName())).append('.');
                }
                sql.append(text, start, end);
                pieces.add(new int[] {start, end});
                first = false;
            }
            sql.append(' ').append(text, tail, text.length());
            pieces.add(new int[] {tail, text.length()});
            results.add(written(sql.toString(), params(normalized, params, pieces)));
        }
        return sum(results);
    }

    private StatementResult delete(MultiTable multi, NormalizedSql normalized, SourceText source, List<Object> params) {
        String text = source.text();
        int refsStart = source.at(multi.spans().refsStart());
        List<Object> fromParams = params(normalized, params, List.of(new int[] {refsStart, text.length()}));
        List<String> deletes = new ArrayList<>();
        // every target's rows chosen before any is deleted: MySQL reads the whole join first
        for (TableRef target : multi.targets()) {
            String table = tableText(target);
            List<Column> declared = runner.declared(table);
            if (KeyedWrites.primaryKey(declared).isEmpty()) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a multi-table DELETE across shards of table '" + target.name()
                        + "', which has no primary key to delete the joined rows by");
            }
            // a locking read: MySQL's DELETE locks the join rows it reads until the transaction ends, so neither a
            // chosen row nor a row it was chosen by changes before the delete by key (on the third tier the copies'
            // source reads lock them on their own nodes)
            NormalizedSql chooser = session.normalize("SELECT " + KeyedWrites.quoted(target.exposedName()) + ".* FROM "
                    + text.substring(refsStart) + " FOR UPDATE");
            CachedPlan chooserPlan = engine.plan(chooser);
            String shardingColumn = engine.rule().table(target.name()) instanceof TableRule.Sharded s ? s.keyColumn() : "";
            String predicate;
            StatementResult chosen = runner.select((Select) chooserPlan.statement(), chooser, chooserPlan, fromParams);
            try (ResultCursor rows = ((StatementResult.Rows) chosen).cursor()) {
                predicate = KeyedWrites.predicate(rows, declared, target.name(), shardingColumn, normalized.lexicalMode());
            }
            if (!predicate.equals("FALSE")) {
                deletes.add("DELETE FROM " + table + " WHERE " + predicate);
            }
        }
        List<StatementResult.Update> results = new ArrayList<>();
        for (String delete : deletes) {
            results.add(written(delete, List.of()));
        }
        return sum(results);
    }

    /** One target's write, through the engine as a statement of its own (in the same transaction). */
    private StatementResult.Update written(String sql, List<Object> params) {
        NormalizedSql written = session.normalize(sql);
        CachedPlan writePlan = engine.plan(written);
        return (StatementResult.Update) runner.keyable(writePlan.statement(), null, written, writePlan, params);
    }

    /**
     * The reference whose table has {@code column}, as MySQL resolves a SET column without a qualifier among the
     * FROM's tables and derived tables (a derived table's columns as a query of it names them, or its own column
     * list): 1054 when none has it, 1052 when several do. A column only a derived table has is refused: MySQL
     * writes through a derived table it merges into the statement and refuses one it materializes (1288), a choice
     * of its optimizer's.
     */
    private TableRef owner(String column, MultiTable multi, NormalizedSql normalized, List<Object> params, SourceText source,
                           String refs, Map<TableRef, Set<String>> columns) {
        List<TableRef> top = multi.top();
        String lower = column.toLowerCase(Locale.ROOT);
        boolean inDerived = false;
        for (MultiTable.Derived d : multi.derived()) {
            boolean has = false;
            if (d.start() < 0) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a multi-table UPDATE over a derived table whose SET column '"
                        + column + "' names no table, spanning shards");
            } else if (d.columns() != null) {
                for (String c : d.columns()) {
                    has |= c.equalsIgnoreCase(column);
                }
            } else {
                int start = source.at(d.start());
                int end = source.at(d.end());
                // its ? bound to the statement's values: the names a query of it returns with them (read per execution, never
                // kept with the plan, so another execution's values name its own columns)
                List<Object> derivedParams = params(normalized, params, List.of(new int[] {start, end}));
                for (Column c : runner.declared(source.text().substring(start, end) + " AS " + KeyedWrites.quoted(d.alias()),
                        derivedParams)) {
                    has |= KeyedWrites.name(c).equalsIgnoreCase(column);
                }
            }
            if (has && inDerived) {
                throw new ShardwiseException(ErrorCode.AMBIGUOUS_FIELD, column, "field list");
            }
            inDerived |= has;
        }
        if (multi.derived().isEmpty() && refs.toLowerCase(Locale.ROOT).matches("(?s).*\\bselect\\b.*")) {
            // a query in the FROM that is no aliased derived table read by the analyzer: its columns are unknown here
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a multi-table UPDATE over a derived table whose SET column '"
                    + column + "' names no table, spanning shards");
        }
        TableRef owner = null;
        for (TableRef t : top) {
            Set<String> names = columns.computeIfAbsent(t, r -> {
                Set<String> out = new HashSet<>();
                for (Column c : runner.declared(tableText(r))) {
                    out.add(KeyedWrites.name(c).toLowerCase(Locale.ROOT));
                }
                return out;
            });
            if (names.contains(lower)) {
                if (owner != null || inDerived) {
                    throw new ShardwiseException(ErrorCode.AMBIGUOUS_FIELD, column, "field list");
                }
                owner = t;
            }
        }
        if (owner == null && inDerived) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a multi-table UPDATE spanning shards whose SET column '" + column
                    + "' is a derived table's (MySQL writes through a derived table it merges, and refuses one it materializes)");
        }
        if (owner == null) {
            throw new ShardwiseException(ErrorCode.BAD_FIELD, column, "field list");
        }
        return owner;
    }

    /**
     * Refuses the split when a part one target's write reads (the FROM, the WHERE, its own values) names a column
     * another target assigns: an identifier of that name, unqualified or qualified by that target's reference.
     */
    private static void refuseCrossReads(NormalizedSql normalized, SourceText source, MultiTable.Spans spans, List<TableRef> owners,
                                         List<TableRef> targets) {
        if (targets.size() < 2) {
            return;
        }
        List<MultiTable.Assigned> assignments = spans.assignments();
        int[] starts = new int[assignments.size()];
        int[] columnEnds = new int[assignments.size()];
        int[] ends = new int[assignments.size()];
        for (int i = 0; i < assignments.size(); i++) {
            starts[i] = source.at(assignments.get(i).start());
            columnEnds[i] = source.at(assignments.get(i).columnEnd());
            ends[i] = source.at(assignments.get(i).end());
        }
        int refsStart = source.at(spans.refsStart());
        String sql = source.text();
        for (int k = 0; k < normalized.tokenCount(); k++) {
            int at = normalized.tokenStart(k);
            if (at < refsStart) {
                continue;
            }
            String name = identifier(sql.substring(at, normalized.tokenEnd(k)));
            if (name == null) {
                continue;
            }
            String qualifier = k >= 2 && sql.startsWith(".", normalized.tokenStart(k - 1))
                    ? identifier(sql.substring(normalized.tokenStart(k - 2), normalized.tokenEnd(k - 2))) : null;
            int in = -1; // the assignment the token is in, or -1: the FROM or the WHERE, read by every target's write
            for (int i = 0; i < starts.length && in < 0; i++) {
                if (at >= starts[i] && at < ends[i]) {
                    in = i;
                }
            }
            if (in >= 0 && at < columnEnds[in]) {
                continue; // the assigned column itself
            }
            for (int i = 0; i < assignments.size(); i++) {
                TableRef assigner = owners.get(i);
                boolean readByOther = in < 0 || owners.get(in) != assigner;
                if (readByOther && assignments.get(i).column().equalsIgnoreCase(name)
                        && (qualifier == null || qualifier.equalsIgnoreCase(assigner.exposedName()))) {
                    throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a multi-table UPDATE spanning shards that reads column '" + name
                            + "', which it assigns in table '" + assigner.exposedName() + "' (MySQL reads it before or after the change"
                            + " as its join order falls)");
                }
            }
        }
    }

    /** A token's identifier (backticks removed), or null when it is no name (a literal, an operator). */
    private static String identifier(String token) {
        if (token.length() > 1 && token.charAt(0) == '`') {
            return token.substring(1, token.length() - 1).replace("``", "`");
        }
        if (token.isEmpty() || !(Character.isLetter(token.charAt(0)) || token.charAt(0) == '_' || token.charAt(0) == '$')) {
            return null;
        }
        return token;
    }

    /** The client's {@code ?} values of the statement's parts spanning {@code pieces} (original offsets), in their order. */
    private static List<Object> params(NormalizedSql normalized, List<Object> params, List<int[]> pieces) {
        if (params.isEmpty()) {
            return params;
        }
        List<Object> out = new ArrayList<>();
        for (int[] piece : pieces) {
            int p = 0;
            for (Literal l : normalized.literals()) {
                if (l.isParameter()) {
                    if (l.start() >= piece[0] && l.start() < piece[1]) {
                        out.add(params.get(p));
                    }
                    p++;
                }
            }
        }
        return out;
    }

    private static String tableText(TableRef t) {
        return t.schema() == null ? KeyedWrites.quoted(t.name()) : KeyedWrites.quoted(t.schema()) + "." + KeyedWrites.quoted(t.name());
    }

    private static int indexOf(List<TableRef> refs, TableRef ref) {
        for (int i = 0; i < refs.size(); i++) {
            if (refs.get(i) == ref) {
                return i;
            }
        }
        return -1;
    }

    /** The targets' results as one: counts, warnings and the info string's numbers summed. */
    private static StatementResult.Update sum(List<StatementResult.Update> results) {
        long affected = 0;
        int warnings = 0;
        String[] labels = null;
        long[] sums = null;
        boolean infos = true;
        for (StatementResult.Update u : results) {
            affected += u.affectedRows();
            warnings += u.warnings();
            if (labels == null && !u.info().isEmpty()) {
                labels = WriteInfo.labels(u.info());
                sums = labels == null ? null : new long[labels.length];
            }
            infos &= labels != null && WriteInfo.add(u.info(), labels, sums);
        }
        return new StatementResult.Update(affected, 0, List.of(), warnings, infos && labels != null ? WriteInfo.format(labels, sums) : "");
    }
}
