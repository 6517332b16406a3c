package io.shardwise.core.execute;

import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.result.Field;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prepared statements kept open on one physical backend connection between checkouts, by SQL text:
 * a unit whose text the connection ran before re-binds that statement instead of building a new
 * Connector/J statement (its constructor reads a dozen connection properties and registers with
 * the connection; together about a tenth of a point select's allocation). Unit texts repeat: a
 * plan renders the same text per node for every execution whose values are parameters.
 *
 * <p>Why reuse is safe: these are client-side prepared statements ({@code useServerPrepStmts=false}),
 * holding no server resource; each execution sends its text and values anew, so a table changed by
 * DDL or a session charset changed since is seen as by a fresh statement. A statement is taken out
 * while a unit uses it and given back only after a clean end (result read or closed without a
 * kill, no error), so no two units share one and a failed statement is closed. Statements are
 * prepared on the physical connection, so HikariCP does not close them when the connection goes
 * back to the pool; they close with the connection (Connector/J closes its open statements), and a
 * closed one found here is dropped.
 *
 * <p>Also kept per text: the column records of the last result ({@link #columns}), reused only
 * when the backend describes every column exactly as before.
 *
 * <p>Bounded: at most {@link #MAX} texts per connection, the least recently used closed first.
 * Not thread-safe: only the thread holding the connection uses it, and HikariCP's hand-over
 * between borrowers publishes it (as {@link AppliedStates.AppliedState}).
 */
final class BackendStatements {
    static final int MAX = 32;

    private final LinkedHashMap<String, PreparedStatement> idle = new LinkedHashMap<>(16, 0.75f, true);
    /** The last result columns of each text, reused while the backend describes them alike. */
    private final LinkedHashMap<String, Columns.Shape> shapes = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Columns.Shape> eldest) {
            return size() > MAX;
        }
    };

    /** A prepared statement for {@code sql} on {@code physical}: an idle one, or a new one; the caller owns it. */
    PreparedStatement take(JdbcConnection physical, String sql) throws SQLException {
        PreparedStatement ps = idle.remove(sql);
        if (ps != null && !ps.isClosed()) {
            return ps;
        }
        ps = physical.prepareStatement(sql);
        // Connector/J streams rows one by one only with exactly this fetch size
        ps.setFetchSize(Integer.MIN_VALUE);
        return ps;
    }

    /** Keeps a statement that ended cleanly for the next unit with the same text. */
    void giveBack(String sql, PreparedStatement ps) {
        PreparedStatement previous = idle.put(sql, ps);
        if (previous != null && previous != ps) {
            BackendPools.closeQuietly(previous); // two units of one text ran at once: keep one
        }
        if (idle.size() > MAX) {
            Iterator<Map.Entry<String, PreparedStatement>> eldest = idle.entrySet().iterator();
            BackendPools.closeQuietly(eldest.next().getValue());
            eldest.remove();
        }
    }

    /**
     * The result columns of a statement of text {@code sql}: the previous result's when the backend
     * describes every column exactly as then (names, types, flags, collation all compared), so a
     * statement run again builds no column records; otherwise made anew and remembered.
     */
    List<Column> columns(String sql, Field[] fields, Map<String, String> logicalTables, String logicalSchema) {
        Columns.Shape shape = shapes.get(sql);
        if (shape != null && shape.sameAs(fields, logicalTables, logicalSchema)) {
            return shape.columns();
        }
        shape = Columns.Shape.of(fields, logicalTables, logicalSchema);
        shapes.put(sql, shape);
        return shape.columns();
    }

    /** Idle statements held (tests). */
    int size() {
        return idle.size();
    }
}
