package io.shardwise.core.execute;

import com.mysql.cj.conf.PropertyKey;
import com.mysql.cj.conf.RuntimeProperty;
import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.jdbc.JdbcStatement;
import java.io.ByteArrayInputStream;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The rows a {@code LOAD DATA LOCAL INFILE} unit sends its backend when the backend asks for the
 * file: the unit's only parameter (see {@link io.shardwise.core.route.ExecutionUnit}), never bound.
 * One batch of raw rows, in the file's own format, so the backend reads them as it would read the
 * client's file.
 */
public record LocalData(byte[] bytes, int length) {
    /**
     * Connector/J's {@code allowLoadLocalInfileInPath} for every backend connection: a path that
     * exists nowhere, so the handshake offers CLIENT_LOCAL_FILES but no file of this host can be read.
     */
    static final String NO_FILES = "/nonexistent/shardwise/no-local-files";

    /** The rows {@code unit} sends as its file: its one parameter when that is a batch, else null (any other unit). */
    public static LocalData of(io.shardwise.core.route.ExecutionUnit unit) {
        return unit.params().size() == 1 && unit.params().get(0) instanceof LocalData data ? data : null;
    }

    /** Runs {@code sql} with this batch as its file: the driver sends it instead of opening any file. */
    static boolean execute(JdbcConnection connection, Statement statement, String sql, LocalData data) throws SQLException {
        @SuppressWarnings("unchecked")
        RuntimeProperty<Boolean> allow = connection.getPropertySet().getBooleanProperty(PropertyKey.allowLoadLocalInfile);
        JdbcStatement s = statement.unwrap(JdbcStatement.class);
        s.setLocalInfileInputStream(new ByteArrayInputStream(data.bytes(), 0, data.length()));
        allow.setValue(true); // only while this statement runs: a stream is set, so no file is opened
        try {
            return statement.execute(sql);
        } finally {
            allow.setValue(false);
            s.setLocalInfileInputStream(null);
        }
    }
}
