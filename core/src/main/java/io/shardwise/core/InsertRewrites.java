package io.shardwise.core;

import io.shardwise.core.error.BackendException;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.ComputedKeys;
import io.shardwise.core.sql.analyze.Insert;
import io.shardwise.core.sql.analyze.InsertSelectUpdate;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.analyze.ValueRef;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * INSERTs whose rows the session must compute before they can be routed: INSERT ... SELECT ... ON DUPLICATE KEY UPDATE
 * ({@link #run}) and INSERT ... VALUES giving a sharding key as an expression ({@link #computedKeys}). Both end as
 * ordinary INSERT ... VALUES statements of literal rows, routed row by row by the target's rule.
 */
final class InsertRewrites {
    private final Engine engine;
    private final EngineSession session;
    private final PlanRunner plans;

    InsertRewrites(Engine engine, EngineSession session, PlanRunner plans) {
        this.engine = engine;
        this.session = session;
        this.plans = plans;
    }

    /**
     * INSERT ... SELECT ... ON DUPLICATE KEY UPDATE naming sharded or broadcast tables, as one MySQL runs it: the
     * SELECT's rows inserted in its order as {@code INSERT ... VALUES ... ON DUPLICATE KEY UPDATE} (routed row by row),
     * in one transaction with the SELECT. An assignment naming a column of the SELECT's tables (which MySQL reads from
     * the current source row when the SELECT neither groups nor aggregates) has that column selected too and bound in
     * its place, so such statements carry one row each; without one, batches of {@link InsertBatches#BATCH} rows.
     */
    StatementResult run(Insert insert, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        TableRef target = insert.table();
        if (engine.rule().logicalTables().served(target.name()) instanceof TableRule.Sharded s) {
            for (String c : insert.onDuplicateUpdate()) {
                if (c.equalsIgnoreCase(s.keyColumn())) {
                    // the row would have to move to the node of its new key (an UPDATE of the key does that, see KeyMoves)
                    throw new ShardwiseException(ErrorCode.UNSUPPORTED, "ON DUPLICATE KEY UPDATE of sharding column '" + c + "' of table '"
                            + target.name() + "'");
                }
            }
        }
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        int at = source.at(insert.source().update());
        String clause = source.text().substring(at).stripTrailing();
        if (clause.endsWith(";")) {
            clause = clause.substring(0, clause.length() - 1).stripTrailing();
        }
        String selectText = source.text().substring(source.at(insert.source().start()), at).stripTrailing();
        List<InsertSelectUpdate.Piece> pieces = InsertSelectUpdate.pieces(clause);
        int clauseParams = 0;
        for (var p : pieces) {
            clauseParams += p.isParam() ? 1 : 0;
        }
        List<Object> selectParams = params.subList(PlanRunner.markers(normalized, insert.source().firstParam()),
                params.size() - clauseParams);
        List<InsertSelectUpdate.Piece> refs = sourceColumns(insert.source().select(), InsertSelectUpdate.unwrapped(selectText), selectParams,
                target, pieces);
        List<String> items = new ArrayList<>();
        for (var r : refs) {
            items.add(clause.substring(r.start(), r.end()));
        }
        if (!refs.isEmpty()) {
            selectText = InsertSelectUpdate.withItems(InsertSelectUpdate.unwrapped(selectText), items);
            if (selectText == null) {
                throw new ShardwiseException(ErrorCode.BUG, "INSERT ... SELECT without a top-level FROM naming column '" + refs.get(0).column()
                        + "' in ON DUPLICATE KEY UPDATE");
            }
        }
        NormalizedSql selecting = session.normalize(selectText);
        CachedPlan selectPlan = engine.plan(selecting);
        if (!(selectPlan.statement() instanceof Select select)) {
            throw new ShardwiseException(ErrorCode.BUG, "INSERT ... SELECT read as " + selectPlan.statement());
        }
        String head = InsertBatches.head(source, insert.source().start());
        // the clause with each source column a ? of its own; a client's ? stays one
        StringBuilder tail = new StringBuilder(clause.length());
        int from = 0;
        for (var r : refs) {
            tail.append(clause, from, r.start()).append('?');
            from = r.end();
        }
        String clauseText = tail.append(clause, from, clause.length()).toString();
        List<Object[]> rows;
        int width;
        try (ResultCursor cursor = ((StatementResult.Rows) plans.select(select, selecting, selectPlan, selectParams)).cursor()) {
            width = cursor.columns().size() - refs.size();
            rows = InsertBatches.read(cursor);
        }
        List<Object> clauseValues = params.subList(params.size() - clauseParams, params.size());
        if (rows.isEmpty()) {
            checked(head, width, clauseText, pieces, refs, clauseValues);
        }
        List<List<Object[]>> batches = InsertBatches.batches(rows);
        if (!refs.isEmpty()) {
            batches = new ArrayList<>();
            for (Object[] row : rows) {
                batches.add(List.<Object[]>of(row));
            }
        }
        long affected = 0;
        long generatedId = 0;
        int warnings = 0;
        long duplicates = 0;
        List<Object> keys = new ArrayList<>();
        for (List<Object[]> batch : batches) {
            List<Object> values = new ArrayList<>();
            List<Object[]> owns = new ArrayList<>(batch.size());
            for (Object[] row : batch) {
                Object[] own = Arrays.copyOf(row, width);
                owns.add(own);
                values.addAll(Arrays.asList(own));
            }
            int client = 0;
            int ref = 0;
            for (var p : pieces) {
                if (p.isParam()) {
                    values.add(clauseValues.get(client++));
                } else if (ref < refs.size() && refs.get(ref) == p) {
                    values.add(batch.get(0)[width + ref++]);
                }
            }
            NormalizedSql text = session.normalize(InsertBatches.text(head, batch.size(), width) + " " + clauseText);
            CachedPlan batchPlan = engine.plan(text);
            StatementResult.Update u;
            try {
                u = (StatementResult.Update) plans.insertValues(plans.route(text, batchPlan, values), (Insert) batchPlan.statement(), text);
            } catch (BackendException e) {
                throw inUpdate(e);
            }
            affected += u.affectedRows();
            if (generatedId == 0) {
                // a batch's insert id is its first generated one, else its last row's own value (inserted or updated)
                generatedId = !u.generatedKeys().isEmpty() && u.generatedKeys().get(0) instanceof Long k ? k
                        : InsertBatches.given(owns, u.lastInsertId()) ? 0 : u.lastInsertId();
            }
            warnings += u.warnings();
            keys.addAll(u.generatedKeys());
            long d = u.info() == null || u.info().isEmpty() ? -1 : WriteInfo.value(u.info(), "Duplicates");
            // one row and no info: 2 for an updated row, as MySQL counts it
            duplicates += d >= 0 ? d : u.affectedRows() == 2 ? 1 : insert.source().ignore() && u.affectedRows() == 0 ? 1 : 0;
        }
        // MySQL's INSERT ... SELECT ... ON DUPLICATE KEY UPDATE reports its first generated id, else 0: a row's explicit
        // AUTO_INCREMENT value never counts, inserted or updated (unlike INSERT ... VALUES, which reports the last row's)
        session.insertIdGenerated(generatedId != 0);
        return new StatementResult.Update(affected, generatedId, keys, warnings,
                WriteInfo.format(new String[] {"Records", "Duplicates", "Warnings"}, new long[] {rows.size(), duplicates, warnings}));
    }

    /**
     * The rows of a plain INSERT ... SELECT's SELECT (no ON DUPLICATE KEY UPDATE) read as that SELECT alone is answered, by
     * {@link PlanRunner#select}: the federated tier for the shapes the route refuses across shards. The caller reads them
     * whole before it inserts any, as MySQL does when the SELECT reads the target.
     */
    StatementResult selected(Insert insert, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        String selectText = source.text().substring(source.at(insert.source().start())).stripTrailing();
        if (selectText.endsWith(";")) {
            selectText = selectText.substring(0, selectText.length() - 1).stripTrailing();
        }
        NormalizedSql selecting = session.normalize(selectText);
        CachedPlan selectPlan = engine.plan(selecting);
        if (!(selectPlan.statement() instanceof Select select)) {
            throw new ShardwiseException(ErrorCode.BUG, "INSERT ... SELECT read as " + selectPlan.statement());
        }
        return plans.select(select, selecting, selectPlan, params.subList(PlanRunner.markers(normalized, insert.source().firstParam()),
                params.size()));
    }

    /**
     * MySQL checks the clause of an INSERT ... SELECT ... ON DUPLICATE KEY UPDATE (unknown columns and functions) even when
     * the SELECT returns no row: the one-row {@code INSERT ... VALUES} the rows would have been written with is prepared on one
     * node of the target (never run), every value NULL, and its error is the statement's.
     */
    private void checked(String head, int width, String clauseText, List<InsertSelectUpdate.Piece> pieces,
            List<InsertSelectUpdate.Piece> refs, List<Object> clauseValues) {
        List<Object> values = new ArrayList<>(Arrays.asList(new Object[width]));
        int client = 0;
        for (var p : pieces) {
            if (p.isParam()) {
                values.add(clauseValues.get(client++));
            } else if (refs.contains(p)) {
                values.add(null);
            }
        }
        NormalizedSql text = session.normalize(InsertBatches.text(head, 1, width) + " " + clauseText);
        CachedPlan plan = engine.plan(text);
        try {
            plans.prepareOnly(engine.router().anyNode(plan.prepared(), new StatementBindings(text, values),
                    SourceText.original(text, plan.digestTokenOffsets())));
        } catch (BackendException e) {
            throw inUpdate(e);
        }
    }

    /**
     * A backend's error of a row's {@code INSERT ... VALUES ... ON DUPLICATE KEY UPDATE} as MariaDB words it for the user's
     * INSERT ... SELECT: an unknown column of the clause is "in 'UPDATE'" there, "in 'SELECT'" after VALUES.
     */
    private static BackendException inUpdate(BackendException e) {
        String message = e.getMessage();
        String values = "in 'SELECT'";
        if (e.errno() != ErrorCode.BAD_FIELD.errno() || message == null || !message.endsWith(values)
                || !(e.getCause() instanceof SQLException cause)) {
            return e;
        }
        return new BackendException(e.backend(), cause, message.substring(0, message.length() - values.length()) + "in 'UPDATE'");
    }

    /** An INSERT's text with its computed sharding keys replaced by {@code ?}, and the values to bind ({@link #computedKeys}). */
    record Evaluated(String sql, List<Object> params) {}

    /**
     * An INSERT ... VALUES into a sharded table giving its sharding key as an expression in some rows, or null when none does
     * (or the statement is not the user's VALUES text). The router needs each row's key value before the row goes anywhere, and
     * MySQL evaluates each row's expressions once: the key expressions are evaluated once, together, by {@code SELECT k1, k2, ...}
     * on a backend, and the rows are then inserted with those values bound in their place (the other values stay as written,
     * evaluated on the target as MySQL would). Refused (1235) when a key expression's value would not be the one MySQL inserts:
     * it names a column or a variable, reads a table, depends on the connection or the moment ({@link ComputedKeys#refusal}),
     * is a FLOAT or DOUBLE (its printed digits are not its value), or its evaluation warns (MySQL reports or fails on that
     * within the INSERT). {@code LAST_INSERT_ID()} is the session's value, which MySQL's statement reads.
     */
    Evaluated computedKeys(Insert insert, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        if (insert.source() != null || insert.columns().isEmpty()
                || !(engine.rule().logicalTables().served(insert.table().name()) instanceof TableRule.Sharded s)) {
            return null;
        }
        int keyIndex = -1;
        for (int c = 0; c < insert.columns().size(); c++) {
            keyIndex = insert.columns().get(c).equalsIgnoreCase(s.keyColumn()) ? c : keyIndex;
        }
        if (keyIndex < 0) {
            return null; // a generated key, or none: the router says which
        }
        boolean computed = false;
        for (List<ValueRef> row : insert.rows()) {
            computed |= keyIndex < row.size() && row.get(keyIndex) == null;
        }
        if (!computed) {
            return null; // the usual INSERT: nothing allocated
        }
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        if (insert.rewritten()) {
            // INSERT ... SET: its VALUES form, which MySQL reads the same way, runs instead (and has its keys evaluated)
            String values = ComputedKeys.setAsValues(source.text());
            return values == null ? null : new Evaluated(values, params);
        }
        String text = source.text();
        List<int[]> spans = new ArrayList<>(); // the computed keys' spans in the text, in order
        for (int r = 0; r < insert.rows().size(); r++) {
            List<ValueRef> row = insert.rows().get(r);
            if (keyIndex >= row.size() || row.get(keyIndex) != null) {
                continue;
            }
            int rowStart = source.at(insert.rowSpans().get(r)[0]);
            List<int[]> values = ComputedKeys.values(text.substring(rowStart, source.at(insert.rowSpans().get(r)[1])));
            if (keyIndex >= values.size()) {
                return null; // the router reports the row's count
            }
            spans.add(new int[] {rowStart + values.get(keyIndex)[0], rowStart + values.get(keyIndex)[1]});
        }
        if (spans.isEmpty()) {
            return null;
        }
        List<Integer> marks = ComputedKeys.params(text);
        StringBuilder select = new StringBuilder("SELECT ");
        List<Object> selectParams = new ArrayList<>();
        for (int k = 0; k < spans.size(); k++) {
            String expression = text.substring(spans.get(k)[0], spans.get(k)[1]);
            String refused = ComputedKeys.refusal(expression);
            if (refused != null) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a computed value for sharding column '" + s.keyColumn() + "' of table '"
                        + s.name() + "' naming " + refused + ": it cannot be evaluated apart from its row");
            }
            String evaluated = ComputedKeys.withLastInsertId(expression, session.lastInsertId());
            if (!evaluated.equals(expression) && !session.lastInsertIdExact()) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "LAST_INSERT_ID() in a computed value for sharding column '" + s.keyColumn()
                        + "' of table '" + s.name() + "' after a write whose insert id Shardwise cannot tell generated from a row's own value"
                        + " (so the session's LAST_INSERT_ID() is not known)");
            }
            select.append(k == 0 ? "" : ", ").append(evaluated);
            for (int m = 0; m < marks.size(); m++) {
                if (marks.get(m) >= spans.get(k)[0] && marks.get(m) < spans.get(k)[1]) {
                    selectParams.add(params.get(m));
                }
            }
        }
        NormalizedSql evaluating = session.normalize(select.toString());
        CachedPlan evaluatingPlan = engine.plan(evaluating);
        List<Object> keys = new ArrayList<>();
        try (ResultCursor cursor = ((StatementResult.Rows) plans.select((Select) evaluatingPlan.statement(), evaluating, evaluatingPlan,
                selectParams)).cursor()) {
            for (Column c : cursor.columns()) {
                if (c.mysqlType() == 4 || c.mysqlType() == 5) {
                    throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a computed FLOAT or DOUBLE value for sharding column '" + s.keyColumn()
                            + "' of table '" + s.name() + "' (its printed digits are not the value MySQL would insert)");
                }
            }
            while (cursor.next()) {
                for (int k = 0; k < spans.size(); k++) {
                    keys.add(InsertBatches.value(cursor.get(k), cursor.columns().get(k)));
                }
            }
        }
        if (session.diagnostics().warningCount() > 0) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a computed value for sharding column '" + s.keyColumn() + "' of table '"
                    + s.name() + "' whose evaluation warns (MySQL reports or fails on the warning within the INSERT)");
        }
        // the text with each key a ? of its own; the client's ? inside a key were the SELECT's
        StringBuilder sql = new StringBuilder(text.length());
        List<Object> bound = new ArrayList<>();
        int from = 0;
        int m = 0;
        for (int k = 0; k < spans.size(); k++) {
            for (; m < marks.size() && marks.get(m) < spans.get(k)[0]; m++) {
                bound.add(params.get(m));
            }
            for (; m < marks.size() && marks.get(m) < spans.get(k)[1]; m++) {
                // evaluated
            }
            sql.append(text, from, spans.get(k)[0]).append('?');
            bound.add(keys.get(k));
            from = spans.get(k)[1];
        }
        for (; m < marks.size(); m++) {
            bound.add(params.get(m));
        }
        return new Evaluated(sql.append(text.substring(from)).toString(), bound);
    }

    /**
     * The pieces of an INSERT ... SELECT's ON DUPLICATE KEY UPDATE that name a column of its SELECT's tables, resolved as
     * MySQL resolves them: among the target's columns and the SELECT's tables together (a name both have is ambiguous,
     * 1052), and only when the SELECT neither groups nor aggregates (else they are not visible: left for the backend's own
     * error). A qualified name is the SELECT's when its qualifier is one of the SELECT's tables and not the target. The
     * SELECT's tables are those of its top-level FROM: tables, derived tables, table functions, nested joins' tables, and
     * for a {@code WITH} SELECT the common table expressions its own query reads (MariaDB reads each of these per row).
     */
    private List<InsertSelectUpdate.Piece> sourceColumns(Select select, String selectText, List<Object> selectParams, TableRef target,
            List<InsertSelectUpdate.Piece> pieces) {
        // a WITH SELECT: its own query is analyzed alone (never run; the common table expressions read as tables), and
        // every column list is asked with the WITH in front
        String prefix = "";
        List<Object> prefixParams = List.of();
        String body = selectText;
        List<Object> bodyParams = selectParams;
        java.util.Set<String> ctes = java.util.Set.of();
        InsertSelectUpdate.With with = select.shape() == null ? InsertSelectUpdate.with(selectText) : null;
        if (with != null) {
            int before = InsertSelectUpdate.paramsBefore(selectText, with.bodyStart());
            prefix = selectText.substring(0, with.bodyStart());
            prefixParams = selectParams.subList(0, before);
            body = selectText.substring(with.bodyStart());
            bodyParams = selectParams.subList(before, selectParams.size());
            ctes = new java.util.HashSet<>(with.names());
            if (engine.plan(session.normalize(body)).statement() instanceof Select own && own.shape() != null) {
                select = own;
            }
        }
        List<InsertSelectUpdate.Piece> refs = new ArrayList<>();
        if (select.shape() != null && (!select.shape().groupBy().isEmpty() || select.shape().isAggregate())) {
            return refs;
        }
        List<InsertSelectUpdate.Derived> derived = select.shape() == null ? null : InsertSelectUpdate.derivedTables(body);
        // tables whose columns Shardwise does not list (a set operation's branches'), or a window's rows
        boolean opaque = select.shape() == null || !select.rowSource() || derived == null;
        List<List<String>> derivedColumns = null;
        List<String> targetColumns = null;
        List<List<String>> sourceColumns = null;
        for (var p : pieces) {
            if (p.isParam()) {
                continue;
            }
            if (p.qualifier() != null) {
                if (p.qualifier().equalsIgnoreCase(target.name())) {
                    for (TableRef t : select.topTables()) {
                        if (p.qualifier().equalsIgnoreCase(t.alias() != null ? t.alias() : t.name())) {
                            // the target and a SELECT table both answer to the name: MySQL's 1052
                            throw new ShardwiseException(ErrorCode.AMBIGUOUS_FIELD, p.qualifier() + "." + p.column(), "UPDATE");
                        }
                    }
                    continue; // the target's row
                }
                boolean top = false;
                for (TableRef t : select.topTables()) {
                    if (!top && p.qualifier().equalsIgnoreCase(t.alias() != null ? t.alias() : t.name())) {
                        if (cte(t, ctes) && !columnNames(t, ctes, prefix, prefixParams).contains(p.column().toLowerCase(Locale.ROOT))) {
                            throw new ShardwiseException(ErrorCode.BAD_FIELD, p.qualifier() + "." + p.column(), "UPDATE");
                        }
                        refs.add(p);
                        top = true;
                    }
                }
                for (int d = 0; !top && !opaque && d < derived.size(); d++) {
                    if (p.qualifier().equalsIgnoreCase(derived.get(d).alias())) {
                        derivedColumns = derivedColumns != null ? derivedColumns : derivedColumns(derived, body, bodyParams, prefix, prefixParams);
                        if (!derivedColumns.get(d).contains(p.column().toLowerCase(Locale.ROOT))) {
                            throw new ShardwiseException(ErrorCode.BAD_FIELD, p.qualifier() + "." + p.column(), "UPDATE");
                        }
                        refs.add(p);
                        top = true;
                    }
                }
                if (!top && opaque) {
                    throw opaque(select, p.qualifier() + "." + p.column()); // a branch's
                }
                continue;
            }
            if (targetColumns == null) {
                targetColumns = columnNames(target);
                sourceColumns = new ArrayList<>();
                for (TableRef t : select.topTables()) {
                    sourceColumns.add(columnNames(t, ctes, prefix, prefixParams));
                }
                if (!opaque && !derived.isEmpty()) {
                    derivedColumns = derivedColumns != null ? derivedColumns : derivedColumns(derived, body, bodyParams, prefix, prefixParams);
                    sourceColumns.addAll(derivedColumns);
                }
            }
            boolean inTarget = targetColumns.contains(p.column().toLowerCase(Locale.ROOT));
            int inSource = 0;
            for (List<String> columns : sourceColumns) {
                inSource += columns.contains(p.column().toLowerCase(Locale.ROOT)) ? 1 : 0;
            }
            if (inSource > 0 && (inTarget || inSource > 1)) {
                throw new ShardwiseException(ErrorCode.AMBIGUOUS_FIELD, p.column(), "UPDATE");
            }
            if (inSource == 1) {
                refs.add(p);
            } else if (!inTarget && opaque) {
                throw opaque(select, p.column()); // perhaps a branch's column
            }
        }
        if (!refs.isEmpty() && opaque) {
            throw opaque(select, refs.get(0).column());
        }
        if (!refs.isEmpty() && select.shape().distinct()) {
            // MariaDB reads the column from the row of the table its plan read last when it sends a distinct row (the first of
            // each group in its scan order when it removes duplicates on the fly): no other plan repeats that choice
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "ON DUPLICATE KEY UPDATE naming column '" + refs.get(0).column()
                    + "' of an INSERT's SELECT DISTINCT (MySQL reads it from whichever row of the group its plan read last, which no"
                    + " other plan can repeat)");
        }
        return refs;
    }

    /** Whether {@code t} names one of {@code ctes} (a WITH's common table expression, which no schema qualifies). */
    private static boolean cte(TableRef t, java.util.Set<String> ctes) {
        return t.schema() == null && ctes.contains(t.name().toLowerCase(Locale.ROOT));
    }

    /**
     * A name of the SELECT's FROM that Shardwise cannot bind per row: a set operation's or a window's (MySQL reads it from
     * the row its plan read last, the same for every inserted row: no other plan repeats it), or one of a FROM whose
     * parentheses Shardwise does not read.
     */
    private static ShardwiseException opaque(Select select, String name) {
        return new ShardwiseException(ErrorCode.UNSUPPORTED, "ON DUPLICATE KEY UPDATE naming '" + name + "' after an INSERT's SELECT with a"
                + (select.shape() == null ? " set operation (MySQL reads a set operation's column from the row its plan read last,"
                        + " after every branch ran, which no other plan can repeat)"
                        : " window function (MySQL sends a window's rows after it read every row, so it reads the column from the last"
                        + " one: no other plan repeats it), or a FROM whose parentheses hold neither a derived table's query, a nested join"
                        + " nor a join condition"));
    }

    /**
     * The column names of each derived table, as a {@code SELECT * FROM (query) alias LIMIT 0} of it returns them (one round
     * trip each; the tier that answers it runs it); {@code prefix} is the SELECT's WITH, if any, which they may read.
     */
    private List<List<String>> derivedColumns(List<InsertSelectUpdate.Derived> derived, String selectText, List<Object> selectParams,
            String prefix, List<Object> prefixParams) {
        List<List<String>> out = new ArrayList<>();
        for (var d : derived) {
            int before = InsertSelectUpdate.paramsBefore(selectText, d.start());
            int through = InsertSelectUpdate.paramsBefore(selectText, d.end());
            List<Object> params = new ArrayList<>(prefixParams);
            params.addAll(selectParams.subList(before, through));
            List<String> names = new ArrayList<>();
            for (Column c : plans.columnsOf(prefix + "SELECT * FROM " + selectText.substring(d.start(), d.end()) + " LIMIT 0", params)) {
                names.add(c.name().toLowerCase(Locale.ROOT));
            }
            out.add(names);
        }
        return out;
    }

    /** {@link #columnNames(TableRef)}, or of a common table expression of the WITH {@code prefix} (the one its reference names). */
    private List<String> columnNames(TableRef table, java.util.Set<String> ctes, String prefix, List<Object> prefixParams) {
        if (!cte(table, ctes)) {
            return columnNames(table);
        }
        List<String> names = new ArrayList<>();
        for (Column c : plans.columnsOf(prefix + "SELECT * FROM " + KeyedWrites.quoted(table.name()) + " LIMIT 0", prefixParams)) {
            names.add(c.name().toLowerCase(Locale.ROOT));
        }
        return names;
    }

    private List<String> columnNames(TableRef table) {
        List<String> names = new ArrayList<>();
        String text = table.schema() == null ? KeyedWrites.quoted(table.name())
                : KeyedWrites.quoted(table.schema()) + "." + KeyedWrites.quoted(table.name());
        for (Column c : plans.declared(text)) {
            names.add(c.name().toLowerCase(Locale.ROOT));
        }
        return names;
    }
}
