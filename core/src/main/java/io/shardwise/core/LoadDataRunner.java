package io.shardwise.core;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.BackendException;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.LocalData;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.rule.TableRule;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code LOAD DATA LOCAL INFILE} through Shardwise: the client's file is read as it arrives, split
 * into MySQL's rows ({@link LoadDataRecords}), each row's raw bytes appended to the batch of the node
 * its sharding key routes to (every node of a broadcast table, the one node of a single table), and
 * each batch of up to {@link #BATCH_BYTES} sent to its backend as a {@code LOAD DATA LOCAL} of the
 * physical table with the user's own clauses. Why forward LOAD DATA rather than INSERT the decoded
 * values: the backend then converts every field, applies SET, CHARACTER SET, REPLACE / IGNORE and
 * raises exactly the warnings one MySQL raises (1261/1262, truncation), with no second
 * implementation of LOAD DATA's conversion rules here.
 *
 * <p>The statement is one transaction (its own, in autocommit mode), so a failure leaves no batch
 * behind. Counts and warnings are summed over the batches (one copy of a broadcast table counts);
 * each warning's row number is mapped back to the row of the file it came from.
 *
 * <p>{@code LOAD XML LOCAL INFILE} goes the same way, its rows read by {@link LoadXmlRecords} and sent
 * as the backend's own LOAD XML.
 *
 * <p>Memory: one batch per node plus one row; the file is never held whole. Back-pressure: while a
 * batch runs, the file is not read, and the face stops reading its client.
 */
final class LoadDataRunner {
    /** Bytes of rows per backend statement. */
    static final int BATCH_BYTES = 1 << 20;
    private static final Pattern ROW = Pattern.compile("(\\bat row |^Row )(\\d+)");
    private static final Pattern DUPLICATE = Pattern.compile("^Duplicate entry '(.*)' for key");
    private static final Pattern INFO = Pattern.compile("Records: (\\d+)\\s+Deleted: (\\d+)\\s+Skipped: (\\d+)\\s+Warnings: (\\d+)");

    private final Engine engine;
    private final ExecutionSession execution;
    private final EngineSession session;

    LoadDataRunner(Engine engine, ExecutionSession execution, EngineSession session) {
        this.engine = engine;
        this.execution = execution;
        this.session = session;
    }

    StatementResult run(LoadDataStatement load, LocalFiles files, boolean mariaDb) {
        if (!load.local()) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, load.kind() + " INFILE of a file on the server's host (Shardwise reads no"
                    + " file of its host, and a backend's host holds another file: use " + load.kind() + " LOCAL INFILE)");
        }
        if (files == null) {
            throw new ShardwiseException(mariaDb ? ErrorCode.LOCAL_FILES_DISABLED_MARIADB : ErrorCode.LOCAL_FILES_DISABLED);
        }
        if (load.schema() == null && session.schema() == null) {
            throw new ShardwiseException(ErrorCode.NO_DATABASE_SELECTED);
        }
        String schema = engine.rule().schema();
        if (load.schema() != null && !load.schema().equalsIgnoreCase(schema)) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, load.kind() + " into a table of database '" + load.schema() + "'");
        }
        Target target = target(load);
        boolean own = execution.autocommit() && !execution.inTransaction();
        boolean started = false;
        boolean marked = false;
        RuntimeException failure;
        try (InputStream in = files.open(load.file())) {
            // a failing statement changes nothing, as in MySQL: in autocommit mode a transaction of its
            // own; inside one the statement savepoint, which no client's SAVEPOINT can name or move
            if (own) {
                execution.begin();
            } else {
                marked = execution.markStatement();
            }
            started = true;
            StatementResult result = load(load, target, in);
            if (own) {
                execution.commit();
            } else if (marked) {
                execution.statementEnded(null);
            }
            return result;
        } catch (IOException e) {
            failure = new ShardwiseException(e, ErrorCode.BACKEND_ERROR, "Error reading the " + load.kind() + " LOCAL file: " + e.getMessage());
        } catch (RuntimeException e) {
            failure = e;
        }
        if (own && started) {
            try {
                execution.rollback();
            } catch (RuntimeException suppressed) {
                failure.addSuppressed(suppressed); // the statement's own failure is what the client hears
            }
        } else if (marked) {
            execution.statementEnded(failure);
        }
        throw failure;
    }

    /** What the rows go to: the table's nodes, the field holding the key, the generated column. */
    private record Target(TableRule rule, int fields, int keyField, TableRule.GeneratedKey generated) {}

    private Target target(LoadDataStatement load) {
        TableRule rule = engine.rule().logicalTables().served(load.table());
        List<String> names = load.targets();
        if (names.isEmpty()) {
            names = ImplicitColumns.columns(execution, rule.nodes().get(0));
            if (names.isEmpty()) {
                throw new ShardwiseException(ErrorCode.NO_SUCH_TABLE, engine.rule().schema(), load.table());
            }
        }
        TableRule.GeneratedKey generated = rule.generatedKey();
        if (generated == null || load.targets().isEmpty() || indexOf(names, generated.column()) >= 0
                || load.setColumns().contains(generated.column().toLowerCase(Locale.ROOT))) {
            generated = null; // the file or SET gives the column
        }
        int keyField = -1;
        if (rule instanceof TableRule.Sharded s) {
            if (load.setColumns().contains(s.keyColumn().toLowerCase(Locale.ROOT))) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, load.kind() + " whose SET assigns sharding column '" + s.keyColumn()
                        + "' of table '" + s.name() + "' (name it in the column list)");
            }
            keyField = indexOf(names, s.keyColumn());
            if (keyField < 0 && (generated == null || !generated.column().equalsIgnoreCase(s.keyColumn()))) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, load.kind() + " into sharded table '" + s.name()
                        + "' without its sharding column '" + s.keyColumn() + "' in the column list");
            }
        }
        return new Target(rule, load.fieldCount(names.size()), keyField, generated);
    }

    private Batch[] batches(LoadDataStatement load, Target target) {
        List<DataNode> nodes = target.rule().nodes();
        Batch[] batches = new Batch[nodes.size()];
        String logical = target.rule().name();
        for (int n = 0; n < batches.length; n++) {
            DataNode node = nodes.get(n);
            String sql = load.forShard(node.table(), target.generated() == null ? null : target.generated().column());
            batches[n] = new Batch(new ExecutionUnit(node.backend(), sql), node.table(), logical, n == 0 || !(target.rule() instanceof TableRule.Broadcast));
        }
        return batches;
    }

    private StatementResult load(LoadDataStatement load, Target target, InputStream in) {
        if (load.xml()) {
            return loadXml(load, target, in);
        }
        LoadDataRecords rows = new LoadDataRecords(in, load, target.fields(), target.keyField());
        rows.skipLines(load.ignoreLines());
        Batch[] batches = batches(load, target);
        Totals totals = new Totals();
        List<Object> keys = new ArrayList<>();
        byte[] generatedField = null;
        long row = 0;
        while (rows.next()) {
            row++;
            if (target.generated() != null) {
                Object key = target.generated().generator().next();
                keys.add(key);
                byte[] value = String.valueOf(key).getBytes(StandardCharsets.UTF_8);
                generatedField = Arrays.copyOf(value, value.length + load.fieldTerm().length);
                System.arraycopy(load.fieldTerm(), 0, generatedField, value.length, load.fieldTerm().length);
            }
            switch (target.rule()) {
                case TableRule.Sharded s -> {
                    Object key = target.keyField() < 0 ? keys.getLast() : key(rows);
                    Batch batch = batches[node(s, key)];
                    add(batch, rows, generatedField, row, totals, key, batches);
                }
                case TableRule.Broadcast b -> {
                    for (Batch batch : batches) {
                        add(batch, rows, generatedField, row, totals, null, batches);
                    }
                }
                case TableRule.Single s -> add(batches[0], rows, generatedField, row, totals, null, batches);
            }
        }
        flushAll(batches, totals, null);
        return finish(totals, keys);
    }

    /**
     * LOAD XML: the rows as {@link LoadXmlRecords} writes them again, each node's batch opened by the
     * start tags of the elements enclosing its rows (MariaDB's reader gives a row their attributes),
     * a generated key column written as the row's last field (so it wins over any value of that column
     * the row carries, which one MariaDB ignores: the column is not in the statement's list).
     */
    private StatementResult loadXml(LoadDataStatement load, Target target, InputStream in) {
        String keyColumn = target.rule() instanceof TableRule.Sharded s && target.keyField() >= 0 ? s.keyColumn() : null;
        LoadXmlRecords rows = new LoadXmlRecords(in, load.rowTag(), keyColumn);
        rows.skip(load.ignoreLines());
        Batch[] batches = batches(load, target);
        Totals totals = new Totals();
        List<Object> keys = new ArrayList<>();
        long row = 0;
        while (rows.next()) {
            row++;
            byte[] xml;
            if (target.generated() != null) {
                Object key = target.generated().generator().next();
                keys.add(key);
                // the row is ISO-8859-1 (a char per byte): the key's UTF-8 bytes as such chars
                xml = rows.rowWith(target.generated().column(),
                        new String(String.valueOf(key).getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
            } else {
                xml = rows.row();
            }
            List<LoadXmlRecords.Ancestor> ancestors = rows.ancestors();
            switch (target.rule()) {
                case TableRule.Sharded s -> {
                    Object key = keyColumn == null ? keys.getLast() : xmlKey(rows.key());
                    addXml(batches[node(s, key)], xml, ancestors, row, totals, key, batches);
                }
                case TableRule.Broadcast b -> {
                    for (Batch batch : batches) {
                        addXml(batch, xml, ancestors, row, totals, null, batches);
                    }
                }
                case TableRule.Single s -> addXml(batches[0], xml, ancestors, row, totals, null, batches);
            }
        }
        flushAll(batches, totals, null);
        return finish(totals, keys);
    }

    /** The key as text (the file's bytes read as UTF-8, as LOAD DATA's); none (NULL) routes as 0, what MariaDB stores. */
    private static Object xmlKey(String key) {
        return key == null ? 0L : new String(key.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    private void addXml(Batch batch, byte[] xml, List<LoadXmlRecords.Ancestor> ancestors, long row, Totals totals, Object key, Batch[] all) {
        batch.enclose(ancestors);
        batch.append(xml, 0, xml.length);
        batch.rows(row, key);
        if (batch.length >= BATCH_BYTES) {
            try {
                flush(batch, totals);
            } catch (ShardwiseException e) {
                flushAll(all, totals, e);
            }
        }
    }

    private StatementResult finish(Totals totals, List<Object> keys) {
        Diagnostics area = new Diagnostics(1);
        totals.conditions.sort(Comparator.comparingLong(RowCondition::row));
        List<Condition> kept = new ArrayList<>();
        for (RowCondition c : totals.conditions) {
            if (kept.size() < Diagnostics.MAX_ERROR_COUNT) {
                kept.add(c.condition());
            }
        }
        area.unit(0, (int) Math.min(Integer.MAX_VALUE, totals.warnings), kept);
        session.diagnostics(area);
        String info = "Records: " + totals.records + "  Deleted: " + totals.deleted + "  Skipped: " + totals.skipped
                + "  Warnings: " + totals.warnings;
        return new StatementResult.Update(totals.affected, 0, keys, (int) Math.min(Integer.MAX_VALUE, totals.warnings), info);
    }

    /**
     * The key field as text; a NULL ({@code \N}) or missing field as 0, which is what LOAD DATA
     * LOCAL stores in a NOT NULL key column (with a warning the backend raises).
     */
    private static Object key(LoadDataRecords rows) {
        byte[] key = rows.key();
        return key == null ? 0L : new String(key, StandardCharsets.UTF_8);
    }

    /**
     * The node of a key; a text the algorithm cannot read as a key (LOAD DATA's fields are text)
     * routes as MySQL stores it in a numeric column: its leading number, else 0, rounded to an integer.
     */
    private static int node(TableRule.Sharded s, Object key) {
        int node = nodeOrNone(s, key);
        if (node < 0 && key instanceof String text) {
            node = nodeOrNone(s, new java.math.BigDecimal(leadingNumber(text)).setScale(0, java.math.RoundingMode.HALF_UP).toBigInteger());
        }
        if (node < 0) {
            throw new ShardwiseException(ErrorCode.NO_ROUTE, s.keyColumn(), "'" + key + "'", s.name());
        }
        return node;
    }

    private static int nodeOrNone(TableRule.Sharded s, Object key) {
        try {
            int node = s.algorithm().nodeFor(key);
            return node >= 0 && node < s.nodes().size() ? node : -1;
        } catch (IllegalArgumentException | ArithmeticException e) {
            return -1;
        }
    }

    private static final Pattern NUMBER = Pattern.compile("^[ \\t\\n\\r]*([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?)");

    /** MySQL's string-to-number conversion: the longest leading number, else 0. */
    static String leadingNumber(String text) {
        Matcher m = NUMBER.matcher(text);
        return m.find() ? m.group(1) : "0";
    }

    /** Appends the row's raw bytes (a generated field first, after any STARTING BY prefix); runs the batch once full. */
    private void add(Batch batch, LoadDataRecords rows, byte[] generatedField, long row, Totals totals, Object key, Batch[] all) {
        byte[] buf = rows.buffer();
        int start = rows.rowStart();
        int end = rows.rowEnd();
        if (generatedField == null) {
            batch.append(buf, start, end - start);
        } else {
            int fields = rows.fieldsStart();
            batch.append(buf, start, fields - start);
            batch.append(generatedField, 0, generatedField.length);
            batch.append(buf, fields, end - fields);
        }
        batch.rows(row, key);
        if (batch.length >= BATCH_BYTES) {
            try {
                flush(batch, totals);
            } catch (ShardwiseException e) {
                flushAll(all, totals, e);
            }
        }
    }

    /**
     * Runs every batch not yet sent. After a failure ({@code failed}, or the first here) the others
     * still run, to report the error of the earliest row of the file, as one MySQL stops at it: the
     * batches sent before held no failing row, and the pending ones hold every row read so far.
     */
    private void flushAll(Batch[] batches, Totals totals, ShardwiseException failed) {
        ShardwiseException first = failed;
        for (Batch batch : batches) {
            try {
                flush(batch, totals);
            } catch (ShardwiseException e) {
                if (first == null || rowOf(e) < rowOf(first)) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static long rowOf(ShardwiseException e) {
        Matcher m = ROW.matcher(e.getMessage() == null ? "" : e.getMessage());
        return m.find() ? Long.parseLong(m.group(2)) : Long.MAX_VALUE;
    }

    private void flush(Batch batch, Totals totals) {
        if (batch.count == 0) {
            return;
        }
        ExecutionUnit unit = new ExecutionUnit(batch.unit.backend(), batch.unit.sql(), List.of(new LocalData(batch.bytes, batch.length)),
                Map.of(batch.table, batch.logical));
        Diagnostics diagnostics = new Diagnostics(1);
        UnitResult result;
        try {
            result = execution.execute(List.of(unit), diagnostics).get(0);
        } catch (BackendException e) {
            Matcher r = ROW.matcher(e.getMessage());
            if (r.find() && e.getCause() instanceof SQLException cause) {
                String message = e.getMessage().substring(0, r.start(2)) + batch.fileRow(Integer.parseInt(r.group(2)))
                        + e.getMessage().substring(r.end(2));
                batch.clear();
                throw new BackendException(e.backend(), cause, message);
            }
            batch.clear();
            throw e;
        } catch (RuntimeException e) {
            batch.clear();
            throw e;
        }
        if (batch.counts && result instanceof UnitResult.Update u) {
            totals.affected += u.affectedRows();
            Matcher m = INFO.matcher(u.info());
            if (m.find()) {
                totals.records += Long.parseLong(m.group(1));
                totals.deleted += Long.parseLong(m.group(2));
                totals.skipped += Long.parseLong(m.group(3));
                totals.warnings += Long.parseLong(m.group(4));
            } else {
                totals.records += batch.count;
                totals.warnings += u.warnings();
            }
            int local = 1;
            for (Condition c : diagnostics.conditions()) {
                Matcher r = ROW.matcher(c.message());
                Condition mapped = c;
                if (r.find()) {
                    local = Integer.parseInt(r.group(2));
                    mapped = new Condition(c.level(), c.code(), c.message().substring(0, r.start(2)) + batch.fileRow(local)
                            + c.message().substring(r.end(2)));
                } else {
                    local = batch.duplicateRow(c.message(), local);
                }
                // one without a row number stays after the one before it (a duplicate key: at the row holding that key)
                totals.conditions.add(new RowCondition(batch.fileRow(local), mapped));
            }
        }
        batch.clear();
    }

    /** A warning and the row of the file it belongs to, for MySQL's order (by row) across batches. */
    private record RowCondition(long row, Condition condition) {}

    private static final class Totals {
        long affected;
        long records;
        long deleted;
        long skipped;
        long warnings;
        final List<RowCondition> conditions = new ArrayList<>();
    }

    /** One node's rows not yet sent, and the file's row number of each (to map warnings back). */
    private static final class Batch {
        final ExecutionUnit unit;
        final String table;
        final String logical;
        /** False for every copy of a broadcast table but the first: the same rows counted once. */
        final boolean counts;
        byte[] bytes = new byte[8 * 1024];
        int length;
        long[] rows = new long[256];
        /** The sharding key of each row (sharded tables), to place a duplicate-key warning, which names no row. */
        Object[] keys = new Object[256];
        int count;

        Batch(ExecutionUnit unit, String table, String logical, boolean counts) {
            this.unit = unit;
            this.table = table;
            this.logical = logical;
            this.counts = counts;
        }

        void append(byte[] from, int offset, int n) {
            if (length + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + n));
            }
            System.arraycopy(from, offset, bytes, length, n);
            length += n;
        }

        void rows(long row, Object key) {
            if (count == rows.length) {
                rows = Arrays.copyOf(rows, count * 2);
                keys = Arrays.copyOf(keys, count * 2);
            }
            keys[count] = key;
            rows[count++] = row;
        }

        void clear() {
            length = 0;
            count = 0;
            open.clear();
        }

        /** LOAD XML: the start tags of the elements enclosing the rows open in this batch, outermost first. */
        final List<LoadXmlRecords.Ancestor> open = new ArrayList<>();

        /** Closes the enclosing elements the next row is not in, and opens those it is in, as the file nests them. */
        void enclose(List<LoadXmlRecords.Ancestor> ancestors) {
            int common = 0;
            while (common < open.size() && common < ancestors.size() && open.get(common).id() == ancestors.get(common).id()) {
                common++;
            }
            while (open.size() > common) {
                byte[] end = ("</" + open.removeLast().name() + ">\n").getBytes(StandardCharsets.ISO_8859_1);
                append(end, 0, end.length);
            }
            for (int i = common; i < ancestors.size(); i++) {
                byte[] start = ancestors.get(i).startTag();
                append(start, 0, start.length);
                open.add(ancestors.get(i));
            }
        }

        /** The file's row of the batch's row {@code local} (1-based, as the backend numbers them). */
        long fileRow(int local) {
            return local >= 1 && local <= count ? rows[local - 1] : local;
        }

        /**
         * For "Duplicate entry 'k' for key ...", which names no row: the row from {@code from} on whose
         * sharding key is k, preferring a repeat within the batch; else {@code from}.
         */
        int duplicateRow(String message, int from) {
            Matcher m = DUPLICATE.matcher(message);
            if (!m.find()) {
                return from;
            }
            // the first row holding the key was written; a later one in the batch is the duplicate, if any
            int first = -1;
            for (int i = 0; i < count; i++) {
                if (keys[i] != null && keys[i].toString().equals(m.group(1))) {
                    if (first >= 0 && i >= from - 1) {
                        return i + 1;
                    }
                    first = first < 0 ? i : first;
                }
            }
            return first >= from - 1 ? first + 1 : from;
        }
    }

    private static int indexOf(List<String> names, String column) {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }
}
