package io.shardwise.jdbc;

import io.shardwise.core.Engine;
import io.shardwise.core.EngineSession;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.Column;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.StatementResult;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A JDBC connection: one {@link EngineSession} over the shared engine. Transactions and settings
 * are statements to the session ({@code SET autocommit = 0}, {@code SAVEPOINT s} ...), so a
 * statement the application sends itself and the equivalent JDBC call have one effect.
 *
 * <p>Threads: statements run one at a time under a lock, as the session is not thread-safe; only
 * {@link Statement#cancel()} and {@link #abort} come from other threads.
 *
 * <p>Invariant: before a statement runs inside a transaction, every result set still open on this
 * connection reads its remaining rows into memory, because the session's next command on a
 * transaction connection would otherwise cancel them. Connector/J buffers whole results by default,
 * so an application that updates while iterating keeps working; outside transactions, results
 * stream from their own pooled backend connections.
 */
final class ShardwiseConnection implements Connection {
    private static final AtomicInteger SAVEPOINT_IDS = new AtomicInteger();

    private final Engine engine;
    private final EngineSession session;
    private final String url;
    /**
     * Set by {@link #setReadOnly}: Connector/J then refuses writes itself, with its own message and
     * S1009. Not session state (the session's read-only mode is the engine's, {@link #isReadOnly}
     * reads it there): only which API call asked for it, which decides the error's wording.
     */
    private volatile boolean readOnlyByApplication;
    private final ReentrantLock lock = new ReentrantLock();
    private final Set<ShardwiseStatement> statements = ConcurrentHashMap.newKeySet();
    private final Set<ShardwiseResultSet> openResults = ConcurrentHashMap.newKeySet();
    private final Properties clientInfo = new Properties();
    private final PreparedTexts preparedTexts = new PreparedTexts();
    private volatile boolean closed;
    /** See {@link #checkNotReleased}. */
    private volatile boolean released;
    private int holdability = ResultSet.HOLD_CURSORS_OVER_COMMIT;
    private int networkTimeout;

    ShardwiseConnection(Engine engine, String url, boolean useAffectedRows) {
        this.engine = engine;
        this.url = url;
        this.session = engine.openSession(!useAffectedRows);
    }

    Engine engine() {
        return engine;
    }

    /**
     * {@code allowLoadLocalInfile=true}: LOAD DATA LOCAL INFILE reads the named file here, in the
     * application's process, as Connector/J reads it for a MySQL server.
     */
    void allowLocalFiles() {
        session.localFiles(name -> {
            try {
                return java.nio.file.Files.newInputStream(java.nio.file.Path.of(name));
            } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
                throw new io.shardwise.core.error.ShardwiseException(io.shardwise.core.error.ErrorCode.BACKEND_ERROR,
                        "Unable to open file '" + name + "' for 'LOAD DATA LOCAL INFILE': " + e.getMessage());
            }
        });
    }

    /** A prepared statement's text, read once in the session's current sql_mode (as MySQL's PREPARE reads it). */
    NormalizedSql normalizePrepared(String sql) {
        return preparedTexts.normalize(sql, session.lexicalMode(), session::normalize);
    }

    String url() {
        return url;
    }

    /** The last statement's diagnostics area, connection-wide as Connector/J's warning count is. */
    /** Whether the last statement read the previous statement's warnings (SHOW WARNINGS) and added none. */
    boolean keptDiagnostics() {
        return session.keptDiagnostics();
    }

    Diagnostics diagnostics() {
        return session.diagnostics();
    }

    /** Runs one statement; the caller owns a Rows result's cursor. */
    StatementResult run(String sql, List<Object> params) throws SQLException {
        return run(sql, null, params);
    }

    /** As {@link #run(String, List)}, with the text already normalized when {@code normalized} is not null. */
    StatementResult run(String sql, NormalizedSql normalized, List<Object> params) throws SQLException {
        return run(sql, normalized, params, null);
    }

    /** As {@link #run(String, NormalizedSql, List)}; {@code out}: the markers that are OUT parameters of a CALL, or null. */
    StatementResult run(String sql, NormalizedSql normalized, List<Object> params, java.util.BitSet out) throws SQLException {
        checkOpen();
        checkNotReleased();
        lock.lock();
        try {
            if (session.inTransaction() || !session.autocommit()) {
                for (ShardwiseResultSet rs : openResults) {
                    rs.bufferRemainingRows();
                }
            }
            if (out != null && !out.isEmpty()) {
                return session.call(normalized == null ? session.normalize(sql) : normalized, params, out);
            }
            StatementResult result = normalized == null ? session.execute(sql, params) : session.execute(normalized, params);
            if (session.released()) {
                released = true; // its OK is this statement's answer; the next use finds the connection gone
            }
            return result;
        } catch (ShardwiseException e) {
            if (readOnlyByApplication && ErrorCode.READ_ONLY_TRANSACTION.is(e.errno())) {
                // Connector/J refuses a write itself on a connection the application made read-only, before any server sees it
                throw SqlErrors.illegal("Connection is read-only. Queries leading to data modification are not allowed.");
            }
            throw SqlErrors.translate(e);
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        } finally {
            lock.unlock();
        }
    }

    /** The result columns of a statement, described without running it ({@link EngineSession#describe}). */
    List<Column> describe(String sql) throws SQLException {
        checkOpen();
        checkNotReleased();
        lock.lock();
        try {
            return session.describe(sql);
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        } finally {
            lock.unlock();
        }
    }

    private void command(String sql) throws SQLException {
        StatementResult r = run(sql, List.of());
        if (r instanceof StatementResult.Rows rows) {
            rows.cursor().close();
        }
    }

    void cancel() {
        session.cancel();
    }

    void opened(ShardwiseResultSet rs) {
        openResults.add(rs);
    }

    void closed(ShardwiseResultSet rs) {
        openResults.remove(rs);
    }

    void closed(ShardwiseStatement st) {
        statements.remove(st);
    }

    /**
     * After a COMMIT or ROLLBACK RELEASE (or one with completion_type RELEASE) the next use that would reach the
     * server fails as Connector/J's does once MariaDB closed the connection after that OK: a communications
     * failure (08S01, errno 0), which closes the connection; every later use is 08003, as after close().
     */
    private void checkNotReleased() throws SQLException {
        if (released) {
            close();
            throw new java.sql.SQLRecoverableException("Communications link failure\n\nThe server closed the connection:"
                    + " COMMIT or ROLLBACK RELEASE ended the session.", "08S01", 0);
        }
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw SqlErrors.closed("connection");
        }
    }

    @Override
    public Statement createStatement() throws SQLException {
        return register(new ShardwiseStatement(this));
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency);
        return createStatement();
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency);
        return createStatement();
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        return register(new ShardwisePreparedStatement(this, sql, false));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return register(new ShardwisePreparedStatement(this, sql, autoGeneratedKeys == Statement.RETURN_GENERATED_KEYS));
    }

    /** As Connector/J: asking for keys by column index or name asks for the generated keys. */
    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return register(new ShardwisePreparedStatement(this, sql, columnIndexes != null && columnIndexes.length > 0));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return register(new ShardwisePreparedStatement(this, sql, columnNames != null && columnNames.length > 0));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency);
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        checkResultSetKind(resultSetType, resultSetConcurrency);
        return prepareStatement(sql);
    }

    private <T extends ShardwiseStatement> T register(T statement) throws SQLException {
        checkOpen();
        statements.add(statement);
        return statement;
    }

    /** Only forward-only, read-only results exist; asking for more is refused rather than downgraded silently. */
    private static void checkResultSetKind(int type, int concurrency) throws SQLException {
        if (type != ResultSet.TYPE_FORWARD_ONLY) {
            throw SqlErrors.unsupported("result set type " + type + " (only TYPE_FORWARD_ONLY)");
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            throw SqlErrors.unsupported("updatable result sets (only CONCUR_READ_ONLY)");
        }
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        checkOpen();
        return new ShardwiseCallableStatement(this, sql);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency) throws SQLException {
        return prepareCall(sql, resultSetType, resultSetConcurrency, java.sql.ResultSet.HOLD_CURSORS_OVER_COMMIT);
    }

    @Override
    public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        if (resultSetType != java.sql.ResultSet.TYPE_FORWARD_ONLY || resultSetConcurrency != java.sql.ResultSet.CONCUR_READ_ONLY) {
            throw SqlErrors.unsupported("CallableStatement result sets other than TYPE_FORWARD_ONLY, CONCUR_READ_ONLY");
        }
        return prepareCall(sql);
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        return sql;
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        // MySQL commits an open transaction when autocommit turns on; the session does the same
        command(autoCommit ? "SET autocommit = 1" : "SET autocommit = 0");
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return session.autocommit();
    }

    @Override
    public void commit() throws SQLException {
        checkOpen();
        if (session.autocommit()) {
            // Connector/J gives this one no SQLSTATE (rollback's is 08003)
            throw new SQLException("Can't call commit when autocommit=true");
        }
        command("COMMIT");
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        if (session.autocommit()) {
            throw new java.sql.SQLNonTransientConnectionException("Can't call rollback when autocommit=true", SqlErrors.CONNECTION_NOT_OPEN);
        }
        command("ROLLBACK");
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        for (ShardwiseStatement st : List.copyOf(statements)) {
            st.closeQuietly();
        }
        lock.lock();
        try {
            session.close(); // rolls back an open transaction and releases every backend connection
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        return new ShardwiseDatabaseMetaData(this);
    }

    /** Runs {@code SET SESSION TRANSACTION READ ONLY | READ WRITE}, as Connector/J with readOnlyPropagatesToServer. */
    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        command(readOnly ? "SET SESSION TRANSACTION READ ONLY" : "SET SESSION TRANSACTION READ WRITE");
        readOnlyByApplication = readOnly;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return session.readOnly();
    }

    /** The logical schema is the only database: USE of another fails with MySQL's 1049. */
    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
        if (catalog == null) {
            throw SqlErrors.illegal("Catalog can not be null");
        }
        command("USE `" + catalog.replace("`", "``") + "`");
    }

    /** The session's current database (its one owner is the engine's session, as for DATABASE()). */
    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return session.schema();
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        String name = switch (level) {
            case TRANSACTION_READ_UNCOMMITTED -> "READ UNCOMMITTED";
            case TRANSACTION_READ_COMMITTED -> "READ COMMITTED";
            case TRANSACTION_REPEATABLE_READ -> "REPEATABLE READ";
            case TRANSACTION_SERIALIZABLE -> "SERIALIZABLE";
            default -> throw new SQLException("Unsupported transaction isolation level '" + level + "'", "S1C00");
        };
        command("SET SESSION TRANSACTION ISOLATION LEVEL " + name);
    }

    /**
     * The session's level, however it was set (this method or a SET statement), REPEATABLE READ
     * (MySQL's default) until then. Assumes the backends run with MySQL's default; Connector/J would ask the server.
     */
    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        return session.isolationLevel();
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return new java.util.HashMap<>();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        checkOpen();
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        this.holdability = holdability;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return holdability;
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        return setSavepoint(null);
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        checkOpen();
        ShardwiseSavepoint sp = new ShardwiseSavepoint(name, name == null ? SAVEPOINT_IDS.incrementAndGet() : 0);
        command("SAVEPOINT " + quote(sp.name()));
        return sp;
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        checkOpen();
        command("ROLLBACK TO SAVEPOINT " + quote(ShardwiseSavepoint.nameOf(savepoint)));
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        checkOpen();
        command("RELEASE SAVEPOINT " + quote(ShardwiseSavepoint.nameOf(savepoint)));
    }

    private static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    @Override
    public Clob createClob() throws SQLException {
        throw SqlErrors.unsupported("Connection.createClob");
    }

    @Override
    public Blob createBlob() throws SQLException {
        throw SqlErrors.unsupported("Connection.createBlob");
    }

    @Override
    public NClob createNClob() throws SQLException {
        throw SqlErrors.unsupported("Connection.createNClob");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw SqlErrors.unsupported("SQLXML");
    }

    /** Runs {@code SELECT 1} on the default backend, as Connector/J pings its server. */
    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw SqlErrors.illegal("isValid timeout must not be negative: " + timeout);
        }
        if (closed) {
            return false;
        }
        if (released) {
            close(); // Connector/J's ping finds the server gone
            return false;
        }
        try {
            StatementResult r = run("SELECT 1", List.of());
            if (r instanceof StatementResult.Rows rows) {
                try (var c = rows.cursor()) {
                    while (c.next()) {
                        // drain
                    }
                }
            }
            return true;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("connection is closed", SqlErrors.CONNECTION_NOT_OPEN, 0, Map.of());
        }
        if (value == null) {
            clientInfo.remove(name);
        } else {
            clientInfo.setProperty(name, value);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("connection is closed", SqlErrors.CONNECTION_NOT_OPEN, 0, Map.of());
        }
        clientInfo.clear();
        clientInfo.putAll(properties);
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        return clientInfo.getProperty(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        Properties copy = new Properties();
        copy.putAll(clientInfo);
        return copy;
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        throw SqlErrors.unsupported("Connection.createArrayOf (MySQL has no ARRAY type)");
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        throw SqlErrors.unsupported("Connection.createStruct (MySQL has no STRUCT type)");
    }

    /** As Connector/J with databaseTerm=CATALOG (its default): schemas are not used, so this is a no-op. */
    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
    }

    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw SqlErrors.illegal("abort needs an executor");
        }
        if (closed) {
            return;
        }
        session.cancel();
        executor.execute(() -> {
            try {
                close();
            } catch (SQLException ignored) {
                // aborting: nothing to report to
            }
        });
    }

    /**
     * Recorded and reported back (pools such as HikariCP set it around validation); backend socket
     * timeouts are those of the configured backend URLs, so it does not bound statements. Use
     * {@link Statement#setQueryTimeout} for that.
     */
    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkOpen();
        if (milliseconds < 0) {
            throw SqlErrors.illegal("network timeout must not be negative: " + milliseconds);
        }
        networkTimeout = milliseconds;
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return networkTimeout;
    }

    /** Also unwraps to the shared {@link Engine}, for tools and tests that watch its pools. */
    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface == Engine.class) {
            return iface.cast(engine);
        }
        return SqlErrors.unwrapSelf(this, iface, "Shardwise connection");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this) || iface == Engine.class;
    }
}
