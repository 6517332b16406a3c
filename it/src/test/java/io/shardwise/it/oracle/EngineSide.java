package io.shardwise.it.oracle;

import io.shardwise.core.EngineSession;
import io.shardwise.core.StatementResult;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.it.oracle.Outcome.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The engine face: one {@link EngineSession} in process. Cursor cells are copied as they are read (a cursor's
 * arrays are valid only until the next row), and every cursor is closed, even when reading fails.
 */
final class EngineSide implements Side {
    private final EngineSession session;

    EngineSide(EngineSession session) {
        this.session = session;
    }

    @Override
    public Outcome run(OracleCase c) {
        try {
            StatementResult result = c.prepared() ? session.execute(c.sql(), clientSidePrepared(c.params())) : session.execute(c.sql());
            return outcome(result);
        } catch (ShardwiseException e) {
            return new Outcome.Failure(e.errno(), e.sqlState(), e.getMessage());
        } catch (RuntimeException | AssertionError e) {
            return new Outcome.Crash(e);
        }
    }

    /**
     * The parameters as this face's reference (Connector/J, client-side prepared) sends them: a real as
     * the literal {@code toString} writes, so 1.5 is a DECIMAL there, while the engine takes a Double
     * for a DOUBLE (the server faces bind one so). The Shardwise driver converts alike (its Parameters).
     */
    private static java.util.List<Object> clientSidePrepared(java.util.List<Object> params) {
        java.util.List<Object> out = new java.util.ArrayList<>(params.size());
        for (Object p : params) {
            String text = p instanceof Double || p instanceof Float ? p.toString() : null;
            out.add(text == null || !Character.isDigit(text.charAt(text.length() - 1)) ? p
                    : text.indexOf('E') >= 0 ? (Object) Double.valueOf(text) : new java.math.BigDecimal(text));
        }
        return out;
    }

    /** A CALL's several results compare by the first, as a JDBC client sees it before getMoreResults. */
    private static Outcome outcome(StatementResult result) {
        return switch (result) {
            case StatementResult.Rows r -> rows(r.cursor());
            case StatementResult.Update u -> new Outcome.Update(u.affectedRows(), u.lastInsertId());
            case StatementResult.Results all -> {
                for (StatementResult later : all.results().subList(1, all.results().size())) {
                    if (later instanceof StatementResult.Rows r) {
                        r.cursor().close();
                    }
                }
                yield outcome(all.results().get(0));
            }
        };
    }

    @Override
    public Inserted insertGeneratingKeys(String sql, String keysQuery) {
        StatementResult.Update u = (StatementResult.Update) session.execute(sql);
        return new Inserted(u.affectedRows(), u.generatedKeys());
    }

    /** The session belongs to the caller, who closes it with its engine. */
    @Override
    public void close() {}

    private static Outcome rows(ResultCursor cursor) {
        try (cursor) {
            List<Column> columns = cursor.columns();
            List<String> labels = new ArrayList<>(columns.size());
            List<Integer> types = new ArrayList<>(columns.size());
            List<Map<String, Object>> meta = new ArrayList<>(columns.size());
            for (Column col : columns) {
                labels.add(col.name());
                types.add(col.mysqlType());
                meta.add(Outcome.Meta.packet(col.schema(), col.table(), col.orgTable(), col.orgName(), col.collation(),
                        col.length(), col.decimals(), col.flags()));
            }
            List<Row> rows = new ArrayList<>();
            while (cursor.next()) {
                byte[][] cells = new byte[columns.size()][];
                for (int i = 0; i < cells.length; i++) {
                    byte[] v = cursor.get(i);
                    cells[i] = v == null ? null : v.clone();
                }
                rows.add(new Row(cells));
            }
            return new Outcome.Rows(labels, types, rows, meta);
        }
    }
}
