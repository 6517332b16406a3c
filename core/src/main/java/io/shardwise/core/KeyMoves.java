package io.shardwise.core;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.federate.FederatedWrite;
import io.shardwise.core.federate.Federation;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.rule.ShardingAlgorithm;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.RowChoice;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The session's half of a {@link RouteKind#KEY_MOVE}: an UPDATE that assigns its table's sharding
 * column, run as one MySQL runs it, with each row ending on the node its new key belongs to.
 *
 * <ol>
 *   <li>The route's SELECT chooses the rows (every node it reaches, locked {@code FOR UPDATE}, merged
 *   with the user's ORDER BY / LIMIT), each with its assignments' values computed on its old row.</li>
 *   <li>The user's UPDATE runs in place on those rows (its WHERE and-ed with their primary keys, as a
 *   {@link KeyedWrites keyed write}): the backends evaluate SET as MySQL does (left to right, ON UPDATE
 *   columns, conversions, errors), and their counts are the statement's.</li>
 *   <li>Each node's updated rows are read again by their new primary keys (every column but generated
 *   ones); those whose sharding key now belongs to another node are deleted from this one and inserted
 *   by the rule, as an INSERT of those values would be.</li>
 * </ol>
 * All in one transaction (the caller's, or one of its own in autocommit mode), so a duplicate key on
 * the new node (1062) undoes the whole statement. Memory: the chosen rows' keys and the moved rows.
 */
final class KeyMoves {
    /** Values weighed by one SELECT (one column each; MySQL allows 4096). */
    private static final int WEIGHED_PER_STATEMENT = 500;

    private final Engine engine;
    private final EngineSession session;
    private final PlanRunner runner;

    KeyMoves(Engine engine, EngineSession session, PlanRunner runner) {
        this.engine = engine;
        this.session = session;
        this.runner = runner;
    }

    StatementResult run(io.shardwise.core.sql.analyze.TableRef target, RowChoice choice, NormalizedSql normalized, CachedPlan plan, List<Object> params, RoutePlan route) {
        String table = target.name();
        if (!(engine.rule().table(table) instanceof TableRule.Sharded rule)) {
            throw new ShardwiseException(ErrorCode.BUG, "key move of a table that is not sharded: " + table);
        }
        List<Column> columns;
        List<byte[][]> rows;
        try (ResultCursor chosen = ((StatementResult.Rows) runner.run(route)).cursor()) {
            columns = chosen.columns();
            rows = KeyedWrites.read(chosen);
        }
        return moved(target, rule, choice, normalized, plan, params, columns, null, rows);
    }

    /**
     * Whether {@code update} is a key move with subqueries this class runs ({@link #runWithSubqueries}): not
     * UPDATE IGNORE (refused as without subqueries), no subquery reading the target itself (MySQL's 1093 stays the
     * router's refusal).
     */
    static boolean withSubqueries(io.shardwise.core.sql.analyze.Update update, io.shardwise.core.rule.ShardingRule shardingRule) {
        RowChoice choice = update.choice();
        if (!update.nested() || update.multi() != null || choice == null || choice.moves() == null || choice.moves().ignore()
                || !(shardingRule.table(update.tables().get(0).name()) instanceof TableRule.Sharded)) {
            return false;
        }
        for (io.shardwise.core.sql.analyze.TableRef t : update.tables().subList(1, update.tables().size())) {
            if (t.name().equalsIgnoreCase(update.tables().get(0).name())) {
                return false;
            }
        }
        return true;
    }

    /**
     * A key move whose WHERE or values have subqueries: step 1's SELECT ({@link RowChoice#movesText}) answered by
     * the tier that answers it (the federated one when its subqueries read other shards), the key found by the
     * target's declared columns (a federated result carries no key flags); step 2's UPDATE has its WHERE replaced
     * by the chosen rows' keys, as the choice applied it already in the same transaction. With a subquery in a SET
     * value, that UPDATE runs on the third tier ({@link FederatedWrite#planInPlace}): each row's value over whole tables.
     */
    StatementResult runWithSubqueries(io.shardwise.core.sql.analyze.TableRef target, RowChoice choice, NormalizedSql normalized,
                                      CachedPlan plan, List<Object> params) {
        TableRule.Sharded rule = (TableRule.Sharded) engine.rule().table(target.name());
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        NormalizedSql chooser = session.normalize(choice.movesText(source.text(), source::at));
        CachedPlan chooserPlan = engine.plan(chooser);
        List<Column> declared = runner.declared(choice.target(source.text(), source::at));
        List<Column> columns;
        List<byte[][]> rows;
        StatementResult chosen = runner.select((io.shardwise.core.sql.analyze.Select) chooserPlan.statement(), chooser, chooserPlan, params);
        try (ResultCursor cursor = ((StatementResult.Rows) chosen).cursor()) {
            columns = cursor.columns();
            rows = KeyedWrites.read(cursor);
        }
        return moved(target, rule, choice, normalized, plan, params, columns, declared, rows);
    }

    /**
     * Whether {@code update} is a multi-table UPDATE of one target whose own sharding column it assigns ({@link
     * #runMultiTable}); several targets, or unqualified SET columns, are first split and resolved by {@code
     * MultiTargetWrites}, whose one-target writes come here.
     */
    static boolean multiTable(io.shardwise.core.sql.analyze.Update update, io.shardwise.core.rule.ShardingRule shardingRule) {
        io.shardwise.core.sql.analyze.MultiTable multi = update.multi();
        if (multi == null || !multi.targetsKnown() || multi.targets().size() != 1 || multi.spans() == null
                || !(shardingRule.table(multi.targets().get(0).name()) instanceof TableRule.Sharded s)) {
            return false;
        }
        for (io.shardwise.core.sql.analyze.MultiTable.Assigned a : multi.spans().assignments()) {
            if (a.column().equalsIgnoreCase(s.keyColumn())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Step 1 of {@link #runMultiTable}: the choosing SELECT ({@code SELECT t.*, (new primary key values) FROM <the FROM>
     * WHERE … FOR UPDATE}) and its {@code ?} values; the target's declared columns, their primary key ({@code key}) and
     * where each row's primary key is after the write ({@code located}: a column of the row, or a value selected beside it,
     * {@code values} of them). PREVIEW and EXPLAIN show this SELECT's plan as the move's first step.
     */
    record MultiChoice(String text, List<Object> params, String what, String logical, List<Column> declared, List<Integer> key,
                       List<Integer> located, int values) {}

    /** {@link MultiChoice} of {@code update}, or its refusal (the target's columns read, nothing run). */
    MultiChoice multiChoice(io.shardwise.core.sql.analyze.Update update, NormalizedSql normalized, CachedPlan plan,
                            List<Object> params) {
        io.shardwise.core.sql.analyze.MultiTable multi = update.multi();
        io.shardwise.core.sql.analyze.TableRef target = multi.targets().get(0);
        TableRule.Sharded rule = (TableRule.Sharded) engine.rule().table(target.name());
        String table = target.name();
        String what = "UPDATE of sharding column '" + rule.keyColumn() + "' of table '" + table + "' in a multi-table UPDATE";
        if (update.limited()) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, what + " with ORDER BY or LIMIT (MariaDB sorts the join's rows, LIMIT"
                    + " counting join rows, and writes each target row once from the first join row meeting it; the moved rows are"
                    + " chosen by a SELECT of the whole join, which does not repeat that choice)");
        }
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        String text = source.text();
        int refsStart = source.at(multi.spans().refsStart());
        if (text.substring(0, refsStart).toLowerCase(java.util.Locale.ROOT).matches("(?s).*\\bignore\\b.*")) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "UPDATE IGNORE of sharding column '" + rule.keyColumn()
                    + "' of table '" + table + "' (a moved row meeting a duplicate key on its new shard would be lost, not left as it was)");
        }
        String logical = target.schema() == null ? KeyedWrites.quoted(table) : KeyedWrites.quoted(target.schema()) + "." + KeyedWrites.quoted(table);
        List<Column> declared = runner.declared(logical);
        List<Integer> key = KeyedWrites.primaryKey(declared);
        if (key.isEmpty()) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, what + ", whose table has no primary key to find the rows it moves by");
        }
        // a primary key the statement assigns: its new values selected beside each row, as the one-table key move selects them
        List<io.shardwise.core.sql.analyze.MultiTable.Assigned> assignments = multi.spans().assignments();
        List<io.shardwise.core.sql.analyze.MultiTable.Assigned> keyValues = new ArrayList<>();
        List<String> keyTexts = new ArrayList<>();
        List<Integer> located = new ArrayList<>();
        for (int k : key) {
            int last = -1;
            for (int i = 0; i < assignments.size(); i++) {
                last = KeyedWrites.name(declared.get(k)).equalsIgnoreCase(assignments.get(i).column()) ? i : last;
            }
            if (last < 0) {
                located.add(k);
                continue;
            }
            io.shardwise.core.sql.analyze.MultiTable.Assigned a = assignments.get(last);
            String value = text.substring(source.at(a.columnEnd()), source.at(a.end())).replaceFirst("^\\s*=", "");
            for (io.shardwise.core.sql.analyze.MultiTable.Assigned before : assignments.subList(0, last)) {
                if (java.util.regex.Pattern.compile("(?i)(?<![\\w$])`?" + java.util.regex.Pattern.quote(before.column()) + "`?(?![\\w$])")
                        .matcher(value).find()) {
                    throw new ShardwiseException(ErrorCode.UNSUPPORTED, what + " whose new primary key value reads a column the"
                            + " statement assigns before it ('" + before.column() + "': computed on the old row it would differ)");
                }
            }
            located.add(declared.size() + keyValues.size());
            keyValues.add(a);
            keyTexts.add(value);
        }
        // step 1: the target's rows the join matches, locked, before any is changed
        int refsEnd = source.at(multi.spans().refsEnd());
        int tail = source.at(multi.spans().tailStart());
        StringBuilder select = new StringBuilder("SELECT ").append(KeyedWrites.quoted(target.exposedName())).append(".*");
        for (String value : keyTexts) {
            select.append(", (").append(value).append(')');
        }
        String chooser = select.append(" FROM ").append(text, refsStart, refsEnd).append(' ').append(text.substring(tail))
                .append(" FOR UPDATE").toString();
        List<Object> chooserParams = new ArrayList<>();
        for (io.shardwise.core.sql.analyze.MultiTable.Assigned a : keyValues) {
            chooserParams.addAll(params(normalized, params, source.at(a.columnEnd()), source.at(a.end())));
        }
        chooserParams.addAll(params(normalized, params, refsStart, refsEnd));
        chooserParams.addAll(params(normalized, params, tail, Integer.MAX_VALUE));
        return new MultiChoice(chooser, chooserParams, what, logical, declared, key, located, keyValues.size());
    }

    /**
     * A multi-table UPDATE of its one target's sharding column, as one MySQL runs it: (1) the target rows the join
     * matches are chosen ({@code SELECT t.* FROM <the FROM> WHERE … FOR UPDATE}, answered by the tier that answers it:
     * the join's rows read before any is changed, as MySQL reads them); (2) the user's UPDATE runs where the rows are,
     * the sharding column written in place (co-located on each node, else on the third tier over copies of the other
     * tables), so MySQL evaluates SET over the join and its matched/changed counts are the statement's; (3) on each
     * node the chosen rows are read again by their primary keys and those whose new key belongs to another node moved
     * there ({@link #move}). A target whose primary key the statement assigns too has the new key computed beside each
     * chosen row (step 1), its rows found again by it, as the one-table key move does; refused when a target row met by
     * several join rows gets different new keys from them (MySQL's is the value of the join row it meets first), or when
     * the value reads a column assigned before it.
     */
    StatementResult runMultiTable(io.shardwise.core.sql.analyze.Update update, NormalizedSql normalized, CachedPlan plan,
                                  List<Object> params) {
        MultiChoice choice = multiChoice(update, normalized, plan, params);
        TableRule.Sharded rule = (TableRule.Sharded) engine.rule().table(update.multi().targets().get(0).name());
        String table = update.multi().targets().get(0).name();
        String what = choice.what();
        String logical = choice.logical();
        List<Column> declared = choice.declared();
        List<Integer> key = choice.key();
        List<Integer> located = choice.located();
        NormalizedSql chooser = session.normalize(choice.text());
        CachedPlan chooserPlan = engine.plan(chooser);
        List<Object> chooserParams = choice.params();
        List<Column> columns;
        List<byte[][]> rows;
        StatementResult chosen = runner.select((io.shardwise.core.sql.analyze.Select) chooserPlan.statement(), chooser, chooserPlan,
                chooserParams);
        try (ResultCursor cursor = ((StatementResult.Rows) chosen).cursor()) {
            columns = cursor.columns();
            rows = KeyedWrites.read(cursor);
        }
        if (columns.size() != declared.size() + choice.values()) {
            throw new ShardwiseException(ErrorCode.BUG, "the rows chosen to move have " + columns.size() + " columns, the table "
                    + declared.size());
        }
        int shard = indexOf(declared, rule.keyColumn());
        LexicalMode mode = normalized.lexicalMode();
        // a row the join meets several times is chosen (and changed) once; its new key must be one
        rows = KeyShifts.distinct(rows, key, located, key, declared, what);
        KeyShifts.check(rows, key, located, key, declared, false, weigher(rule));
        Map<Integer, List<String>> byNode = new LinkedHashMap<>();
        for (byte[][] row : rows) {
            byNode.computeIfAbsent(node(rule, row[shard], declared.get(shard)), n -> new ArrayList<>())
                    .add(KeyedWrites.tuple(row, located, key, declared, mode));
        }
        // step 2: the user's UPDATE where the rows are, its counts the statement's
        StatementResult.Update updated = multiInPlace(update, normalized, plan, params);
        // step 3: each node's chosen rows read again; those whose key now belongs elsewhere moved there
        for (Map.Entry<Integer, List<String>> e : byNode.entrySet()) {
            move(table, logical, rule, e.getKey(), declared, key, e.getValue(), mode);
        }
        return updated;
    }

    /** The client's values of the {@code ?} in [{@code from}, {@code to}) of the statement's original text, in order. */
    private static List<Object> params(NormalizedSql normalized, List<Object> params, int from, int to) {
        List<Object> values = new ArrayList<>();
        int p = 0;
        for (io.shardwise.core.sql.normalize.Literal l : normalized.literals()) {
            if (l.isParameter()) {
                if (l.start() >= from && l.start() < to) {
                    values.add(params.get(p));
                }
                p++;
            }
        }
        return values;
    }

    /** Step 2 of {@link #runMultiTable}: co-located on each node where the FROM meets there, else on the third tier. */
    private StatementResult.Update multiInPlace(io.shardwise.core.sql.analyze.Update update, NormalizedSql normalized, CachedPlan plan,
                                                List<Object> params) {
        Federation.Decision decision = io.shardwise.core.federate.MultiTableFederation.planInPlace(update, engine.rule());
        if (!(decision instanceof FederatedWrite federated && federated.readsShards())) {
            try {
                RoutePlan route = engine.router().routeInPlace(plan.prepared(), new StatementBindings(normalized, params),
                        SourceText.original(normalized, plan.digestTokenOffsets()));
                return (StatementResult.Update) runner.run(route);
            } catch (ShardwiseException refused) {
                if (refused.code() != ErrorCode.UNSUPPORTED || !(decision instanceof FederatedWrite)) {
                    throw refused;
                }
            }
        }
        return (StatementResult.Update) runner.federatedInPlace((FederatedWrite) decision, update, normalized, plan, params);
    }

    /** Steps 2 and 3 for the chosen rows; {@code declared} the target's columns with their key flags, or null: the rows' own. */
    private StatementResult moved(io.shardwise.core.sql.analyze.TableRef target, TableRule.Sharded rule, RowChoice choice,
                                  NormalizedSql normalized, CachedPlan plan, List<Object> params, List<Column> columns,
                                  List<Column> declared, List<byte[][]> rows) {
        String table = target.name();
        String logical = target.schema() == null ? KeyedWrites.quoted(table) : KeyedWrites.quoted(target.schema()) + "." + KeyedWrites.quoted(table);
        LexicalMode mode = normalized.lexicalMode();
        RowChoice.Moves moves = choice.moves();
        int width = columns.size() - moves.assigned().size();
        List<Column> rowColumns = columns.subList(0, width);
        List<Column> flags = declared != null && declared.size() == width ? declared : rowColumns;
        List<Integer> key = KeyedWrites.primaryKey(flags);
        if (key.isEmpty()) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "UPDATE of sharding column '" + rule.keyColumn() + "' of table '"
                    + table + "', which has no primary key to find the rows it moves by");
        }
        // where each row's primary key is after the update: its new value where the statement assigns it
        List<Integer> located = new ArrayList<>();
        for (int k : key) {
            int assignment = lastIndexOf(moves.assigned(), KeyedWrites.name(rowColumns.get(k)));
            if (assignment >= 0 && !moves.standalone().get(assignment)) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "UPDATE of sharding column '" + rule.keyColumn() + "' of table '"
                        + table + "' whose new primary key value reads a column the statement assigns before it");
            }
            located.add(assignment >= 0 ? width + assignment : k);
        }
        int shard = indexOf(rowColumns, rule.keyColumn());
        if (shard < 0) {
            throw new ShardwiseException(ErrorCode.BUG, "the rows chosen to move lack sharding column " + rule.keyColumn());
        }
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        boolean ordered = source.text().substring(source.at(choice.orderLimitStart())).strip().toLowerCase(java.util.Locale.ROOT)
                .startsWith("order");
        // MySQL checks the primary key row by row in its order: a row taking a key another chosen row still holds is 1062
        KeyShifts.check(rows, key, located, key, rowColumns, ordered, weigher(rule));
        Map<Integer, List<String>> byNode = new LinkedHashMap<>();
        for (byte[][] row : rows) {
            int node = node(rule, row[shard], rowColumns.get(shard));
            byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(KeyedWrites.tuple(row, located, key, rowColumns, mode));
        }
        // in place, each node's rows are updated in the order just checked, so no node meets a duplicate MySQL's order avoids
        String order = located.equals(key) || rows.isEmpty() ? "" : inPlaceOrder(rowColumns, key, rows, ordered, mode);

        StatementResult.Update updated = inPlace(table, rule, choice, normalized, plan, params, rowColumns, flags, rows, mode,
                declared != null, order);

        for (Map.Entry<Integer, List<String>> e : byNode.entrySet()) {
            move(table, logical, rule, e.getKey(), rowColumns, key, e.getValue(), mode);
        }
        return updated;
    }

    /** Step 2: the user's UPDATE on the chosen rows, where they are. */
    private StatementResult.Update inPlace(String table, TableRule.Sharded rule, RowChoice choice, NormalizedSql normalized,
                                           CachedPlan plan, List<Object> params, List<Column> rowColumns, List<Column> flags,
                                           List<byte[][]> rows, LexicalMode mode, boolean replacesWhere, String order) {
        String predicate = KeyedWrites.predicate(rowColumns, flags, rows, table, rule.keyColumn(), mode);
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        String text;
        int markers = 0; // the client's ? before the statement's ORDER BY / LIMIT (before its WHERE when that is replaced)
        if (replacesWhere && choice.whereStart() >= 0) {
            // the WHERE (its subqueries perhaps reading other shards) was the choice's: the chosen keys stand for it
            String original = source.text();
            int whereStart = source.at(choice.whereStart());
            text = original.substring(0, whereStart) + predicate + " " + original.substring(source.at(choice.whereEnd()),
                    source.at(choice.orderLimitStart()));
            for (io.shardwise.core.sql.normalize.Literal l : normalized.literals()) {
                markers += l.isParameter() && l.start() < whereStart ? 1 : 0;
            }
        } else {
            text = KeyedWrites.text(source, choice, predicate);
            for (int i = 0; i < choice.paramsBefore(); i++) {
                if (normalized.literals().get(i).isParameter()) {
                    markers++;
                }
            }
        }
        NormalizedSql written = session.normalize(text);
        CachedPlan writePlan = engine.plan(written);
        if (replacesWhere && writePlan.statement() instanceof io.shardwise.core.sql.analyze.Update u && u.nested()) {
            // a subquery in a SET value: run where the rows are, each node would compute it over its own rows only; on the
            // third tier it reads whole tables (copies), so each chosen row gets MySQL's own value (NULL for no row, 1242
            // for several), and step 3 moves the rows by what they then hold
            Federation.Decision decision = FederatedWrite.planInPlace(u, engine.rule());
            if (!(decision instanceof FederatedWrite federated)) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "UPDATE of sharding column '" + rule.keyColumn() + "' of table '"
                        + table + "' with a subquery in its SET values (" + ((Federation.Declined) decision).reason() + ")");
            }
            return (StatementResult.Update) runner.federatedInPlace(federated, u, written, writePlan, params.subList(0, markers));
        }
        if (!order.isEmpty()) {
            written = session.normalize(text + order);
            writePlan = engine.plan(written);
        }
        RoutePlan route = engine.router().routeInPlace(writePlan.prepared(), new StatementBindings(written, params.subList(0, markers)),
                SourceText.original(written, writePlan.digestTokenOffsets()));
        return (StatementResult.Update) runner.run(route);
    }

    /**
     * The ORDER BY of an in-place UPDATE that assigns primary keys: the primary key's, or (the statement ordered) the
     * chosen rows' own order, by their old keys.
     */
    private static String inPlaceOrder(List<Column> columns, List<Integer> key, List<byte[][]> rows, boolean ordered, LexicalMode mode) {
        if (!ordered) {
            StringBuilder by = new StringBuilder(" ORDER BY ");
            for (int k = 0; k < key.size(); k++) {
                by.append(k == 0 ? "" : ", ").append(KeyedWrites.quoted(KeyedWrites.name(columns.get(key.get(k)))));
            }
            return by.toString();
        }
        StringBuilder by = new StringBuilder(" ORDER BY CASE");
        String keyColumns = KeyedWrites.keyColumns(columns, key);
        for (int i = 0; i < rows.size(); i++) {
            by.append(" WHEN ").append(keyColumns).append(" = ").append(KeyedWrites.tuple(rows.get(i), key, key, columns, mode))
                    .append(" THEN ").append(i);
        }
        return by.append(" END").toString();
    }

    /** Step 3 for one node: its updated rows read again; those whose key now belongs elsewhere deleted and inserted by the rule. */
    private void move(String table, String logical, TableRule.Sharded rule, int node, List<Column> rowColumns, List<Integer> key, List<String> tuples,
                      LexicalMode mode) {
        DataNode dataNode = rule.nodes().get(node);
        List<String> plain = plainColumns(dataNode);
        String where = " WHERE " + KeyedWrites.keyColumns(rowColumns, key) + " IN (" + String.join(", ", tuples) + ")";
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < plain.size(); i++) {
            select.append(i == 0 ? "" : ", ").append(KeyedWrites.quoted(plain.get(i)));
        }
        select.append(" FROM ").append(KeyedWrites.quoted(dataNode.table())).append(where).append(" FOR UPDATE");
        List<Column> columns;
        List<byte[][]> rows;
        try (ResultCursor cursor = ((StatementResult.Rows) runner.run(one(dataNode, table, select.toString()))).cursor()) {
            columns = cursor.columns();
            rows = KeyedWrites.read(cursor);
        }
        if (rows.size() != tuples.size()) {
            // a new key the backend computed otherwise than the choice did (RAND(), UUID() ...): the rows are not where they should be
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "UPDATE of sharding column '" + rule.keyColumn() + "' of table '"
                    + table + "' whose new primary key is not the same when computed twice (" + rows.size() + " of " + tuples.size()
                    + " updated rows found again)");
        }
        int shard = indexOf(columns, rule.keyColumn());
        List<Integer> rowKey = new ArrayList<>();
        for (int k : key) {
            rowKey.add(indexOf(columns, KeyedWrites.name(rowColumns.get(k))));
        }
        List<String> movedKeys = new ArrayList<>();
        List<Object[]> moved = new ArrayList<>();
        for (byte[][] row : rows) {
            if (node(rule, row[shard], columns.get(shard)) == node) {
                continue;
            }
            movedKeys.add(KeyedWrites.tuple(row, rowKey, key, rowColumns, mode));
            Object[] values = new Object[row.length];
            for (int i = 0; i < row.length; i++) {
                values[i] = InsertBatches.value(row[i], columns.get(i));
            }
            moved.add(values);
        }
        if (moved.isEmpty()) {
            return;
        }
        runner.run(one(dataNode, table, "DELETE FROM " + KeyedWrites.quoted(dataNode.table()) + " WHERE "
                + KeyedWrites.keyColumns(rowColumns, key) + " IN (" + String.join(", ", movedKeys) + ")"));
        StringBuilder head = new StringBuilder("INSERT INTO ").append(logical).append(" (");
        for (int i = 0; i < plain.size(); i++) {
            head.append(i == 0 ? "" : ", ").append(KeyedWrites.quoted(plain.get(i)));
        }
        head.append(')');
        for (List<Object[]> batch : InsertBatches.batches(moved)) {
            NormalizedSql text = session.normalize(InsertBatches.text(head.toString(), batch.size(), plain.size()));
            runner.run(runner.route(text, engine.plan(text), InsertBatches.params(batch)));
        }
    }

    /**
     * Key values' weights under their column's collation, as the table's first node computes them: the column's
     * character set and collation read from information_schema (a result's column description names the results'
     * character set, not the column's), then {@code WEIGHT_STRING} of each value converted to them, as the column would
     * store it. Trailing spaces are trimmed first except under a NO PAD collation (MariaDB's {@code _nopad_}, MySQL's
     * {@code _0900_}): under PAD SPACE 'a ' and 'a' are one key, but WEIGHT_STRING keeps the spaces.
     */
    private KeyShifts.Weigher weigher(TableRule.Sharded rule) {
        DataNode node = rule.nodes().get(0);
        return (column, values) -> {
            RoutePlan read = new RoutePlan(RouteKind.UNSHARDED, List.of(new ExecutionUnit(node.backend(),
                    "SELECT CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()"
                            + " AND TABLE_NAME = ? AND COLUMN_NAME = ?",
                    List.of(node.table(), KeyedWrites.name(column)), Map.of())), new MergeSpec.PassThrough());
            String charset = null;
            String collation = null;
            try (ResultCursor cursor = ((StatementResult.Rows) runner.run(read)).cursor()) {
                while (cursor.next()) {
                    if (cursor.get(0) != null && cursor.get(1) != null) {
                        charset = new String(cursor.get(0), java.nio.charset.StandardCharsets.UTF_8);
                        collation = new String(cursor.get(1), java.nio.charset.StandardCharsets.UTF_8);
                    }
                }
            }
            if (collation == null) {
                return null; // not a character column there: its values compare as they are
            }
            String lower = collation.toLowerCase(java.util.Locale.ROOT);
            boolean padSpace = !lower.contains("_nopad_") && !lower.contains("_0900_");
            String weight = "WEIGHT_STRING(" + (padSpace ? "RTRIM(" : "") + "CONVERT(? USING " + charset + ") COLLATE "
                    + KeyedWrites.quoted(collation) + (padSpace ? ")" : "") + ")";
            List<byte[]> weights = new ArrayList<>(values.size());
            for (int from = 0; from < values.size(); from += WEIGHED_PER_STATEMENT) {
                List<String> chunk = values.subList(from, Math.min(values.size(), from + WEIGHED_PER_STATEMENT));
                StringBuilder select = new StringBuilder("SELECT ");
                for (int i = 0; i < chunk.size(); i++) {
                    select.append(i == 0 ? "" : ", ").append(weight);
                }
                RoutePlan weigh = new RoutePlan(RouteKind.UNSHARDED, List.of(new ExecutionUnit(node.backend(), select.toString(),
                        new ArrayList<>(chunk), Map.of())), new MergeSpec.PassThrough());
                try (ResultCursor cursor = ((StatementResult.Rows) runner.run(weigh)).cursor()) {
                    while (cursor.next()) {
                        for (int i = 0; i < chunk.size(); i++) {
                            weights.add(cursor.get(i));
                        }
                    }
                }
            }
            return weights;
        };
    }

    /** The node's columns a row can be given (not generated ones), in their order. */
    private List<String> plainColumns(DataNode node) {
        RoutePlan read = new RoutePlan(RouteKind.UNSHARDED, List.of(new ExecutionUnit(node.backend(),
                "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?"
                        + " AND COALESCE(GENERATION_EXPRESSION, '') = '' ORDER BY ORDINAL_POSITION",
                List.of(node.table()), Map.of())), new MergeSpec.PassThrough());
        List<String> names = new ArrayList<>();
        try (ResultCursor cursor = ((StatementResult.Rows) runner.run(read)).cursor()) {
            while (cursor.next()) {
                names.add(new String(cursor.get(0), java.nio.charset.StandardCharsets.UTF_8));
            }
        }
        return names;
    }

    /** {@code sql} on the node's backend, its physical table named as the logical one in errors. */
    private static RoutePlan one(DataNode node, String table, String sql) {
        return new RoutePlan(RouteKind.UNSHARDED, List.of(new ExecutionUnit(node.backend(), sql, List.of(), Map.of(node.table(), table))),
                new MergeSpec.PassThrough());
    }

    private static int node(TableRule.Sharded rule, byte[] key, Column column) {
        Object value = InsertBatches.value(key, column);
        int node;
        try {
            node = rule.algorithm().nodeFor(value);
        } catch (IllegalArgumentException e) {
            node = ShardingAlgorithm.NO_NODE;
        }
        if (node == ShardingAlgorithm.NO_NODE) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "UPDATE of sharding column '" + rule.keyColumn() + "' of table '"
                    + rule.name() + "' to a value no node holds (" + value + ")");
        }
        return node;
    }

    private static int indexOf(List<Column> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (KeyedWrites.name(columns.get(i)).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(List<String> names, String name) {
        for (int i = names.size() - 1; i >= 0; i--) {
            if (names.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }
}
