package io.shardwise.core.execute;

import io.shardwise.core.sql.normalize.ClientCharset;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.sql.Connection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The session settings a client chose that every backend connection it uses must share: isolation,
 * read-only, character set of results and of the connection, time_zone, sql_mode and any other
 * {@code SET SESSION x = y} the engine decides to forward.
 *
 * <p>Invariant: every change bumps {@link #version()}. A pooled connection remembers which
 * assignments it carries and for which session and version (see {@link StateApplier}), so checking
 * a connection out costs nothing when the state matches and otherwise one {@code SET} holding only
 * the difference; values a session never set are restored to the pool's baseline for it.
 *
 * <p>Not forwarded on purpose: {@code character_set_client}. The executor sends SQL as Java strings
 * that Connector/J encodes in UTF-8, so the backend must keep decoding utf8mb4; what the client's
 * own bytes mean is the face's business (it decodes them before the engine sees SQL). Autocommit
 * lives on {@link ExecutionSession} because it decides transaction boundaries.
 *
 * <p>Hazard: not thread-safe. Change it only between statements, from the thread that drives the
 * session; the engine must route {@code SET} statements here, never as execution units, or the
 * pooled connection's record of what it carries goes stale.
 */
public final class SessionState {
    /** A transaction isolation level, applied with JDBC (HikariCP resets it when the connection returns). */
    public enum Isolation {
        READ_UNCOMMITTED(Connection.TRANSACTION_READ_UNCOMMITTED),
        READ_COMMITTED(Connection.TRANSACTION_READ_COMMITTED),
        REPEATABLE_READ(Connection.TRANSACTION_REPEATABLE_READ),
        SERIALIZABLE(Connection.TRANSACTION_SERIALIZABLE);

        final int jdbcLevel;

        Isolation(int jdbcLevel) {
            this.jdbcLevel = jdbcLevel;
        }

        /** The {@link Connection} constant of this level. */
        public int jdbcLevel() {
            return jdbcLevel;
        }
    }

    /** Keys of the assignment map; the two charset keys are restored to a captured baseline, the rest to DEFAULT. */
    static final String RESULTS = "character_set_results";
    static final String CONNECTION = "character_set_connection";
    static final String TIME_ZONE = "time_zone";
    static final String SQL_MODE = "sql_mode";
    static final String LOCK_WAIT = "innodb_lock_wait_timeout";

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final Pattern CHARSET = Pattern.compile("[A-Za-z0-9_]+");
    private static final Pattern TIME_ZONE_VALUE = Pattern.compile("[A-Za-z0-9_+:/-]+");
    private static final Pattern SQL_MODE_VALUE = Pattern.compile("[A-Za-z0-9_,]*");
    private static final Set<String> TYPED = Set.of("autocommit", "character_set_client", RESULTS, CONNECTION,
            "collation_connection", "names", TIME_ZONE, SQL_MODE, "transaction_isolation", "tx_isolation",
            "transaction_read_only", "tx_read_only");

    private Isolation isolation;
    private boolean readOnly;
    /** SET TRANSACTION READ ONLY|WRITE without SESSION: the next transaction's mode only (null: the session's). */
    private Boolean nextReadOnly;
    /** SET TRANSACTION ISOLATION LEVEL without SESSION: the next transaction's level only (null: the session's). */
    private Isolation nextIsolation;
    private String results;          // assignment text or null for baseline
    private String connection;       // assignment text (charset and/or collation) or null for baseline
    private String timeZone;
    private String sqlMode;
    /** The sql_mode value itself (null: the server default) and the lexing flags it implies. */
    private String sqlModeValue;
    private LexicalMode lexicalMode = LexicalMode.DEFAULT;
    /** How the client's statement bytes decode (the face's business, never sent to a backend). */
    private ClientCharset clientCharset = ClientCharset.UTF8MB4;
    private final Map<String, String> others = new LinkedHashMap<>();
    private long version;

    // cache of assignments(): rebuilt only when version or the transaction flag changes
    private Map<String, String> cached;
    private long cachedVersion = -1;
    private boolean cachedInTransaction;
    private long cachedLockWait;
    private String setup;
    private long setupVersion;
    /** {@link #transactionSetup}'s last answer, for this version and lock wait: every statement of a native transaction asks. */
    private String transactionSetup;
    private long transactionSetupVersion = -1;
    private long transactionSetupLockWait;

    /**
     * What decides the character sets and collations a backend reports for result columns: equal
     * keys describe a statement's columns alike (a cache key of prepare-time metadata).
     */
    public String charsetKey() {
        return results + ";" + connection;
    }

    /**
     * {@code SET NAMES charset [COLLATE collation]}: results and connection; null collation means the charset's default.
     * With a collation the backend gets a {@code NAMES} too: MySQL's results then carry that collation
     * (a column definition's character set id is character_set_results' collation: 255 after
     * {@code SET NAMES utf8mb4 COLLATE utf8mb4_0900_ai_ci}, 45 after a plain
     * {@code character_set_results = utf8mb4}), and no {@code character_set_results} assignment can name
     * a collation. The client character set, which NAMES also sets, is put back in the same SET (its
     * right side is read before any assignment), and {@link StateApplier} sends the connection's
     * assignment after it.
     */
    public void setNames(String charset, String collation) {
        String cs = quote(charset, CHARSET, "character set");
        results = collation == null ? RESULTS + " = " + cs
                : RESULTS + " = " + cs + ", NAMES " + cs + " COLLATE " + quote(collation, CHARSET, "collation")
                        + ", character_set_client = @@character_set_client";
        connection = connectionAssignment(charset, collation);
        changed();
    }

    /**
     * {@code SET CHARACTER SET charset}: results in {@code charset}, the connection's character set and
     * collation the current database's ({@code character_set_database}), as MySQL defines it.
     */
    public void setCharacterSet(String charset) {
        results = RESULTS + " = " + quote(charset, CHARSET, "character set");
        connection = CONNECTION + " = @@character_set_database, collation_connection = @@collation_database";
        changed();
    }

    /** {@code SET character_set_results}; null means SQL NULL (rows in each column's own character set). */
    public void setCharacterSetResults(String charset) {
        results = RESULTS + " = " + (charset == null ? "NULL" : quote(charset, CHARSET, "character set"));
        changed();
    }

    public void setCharacterSetConnection(String charset) {
        connection = connectionAssignment(charset, null);
        changed();
    }

    public void setCollationConnection(String collation) {
        connection = "collation_connection = " + quote(collation, CHARSET, "collation");
        changed();
    }

    /** {@code SET time_zone}; null restores the server default. */
    public void setTimeZone(String zone) {
        timeZone = zone == null ? null : TIME_ZONE + " = " + quote(zone, TIME_ZONE_VALUE, "time zone");
        changed();
    }

    /**
     * {@code SET sql_mode}; null restores the server default. Assumption: the backends' default
     * sql_mode has neither NO_BACKSLASH_ESCAPES nor ANSI_QUOTES (the default of MySQL and MariaDB),
     * so the default reads statements in {@link LexicalMode#DEFAULT}.
     */
    public void setSqlMode(String mode) {
        sqlMode = mode == null ? null : SQL_MODE + " = " + quote(mode, SQL_MODE_VALUE, "sql_mode");
        sqlModeValue = mode;
        lexicalMode = LexicalMode.of(mode);
        changed();
    }

    /** The session's sql_mode as set, or null while it is the server default. */
    public String sqlMode() {
        return sqlModeValue;
    }

    /** How the session's statements are read: NO_BACKSLASH_ESCAPES and ANSI_QUOTES of its sql_mode. */
    public LexicalMode lexicalMode() {
        return lexicalMode;
    }

    /** {@code character_set_client} for the face's decoding of statement bytes; not a backend setting. */
    public void setClientCharset(ClientCharset charset) {
        clientCharset = charset;
    }

    public ClientCharset clientCharset() {
        return clientCharset;
    }

    /** The forwarded variables' assignments, to restore with {@link #restoreVariables} if a backend refuses them. */
    public Map<String, String> variables() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(others)); // in assignment order
    }

    public void restoreVariables(Map<String, String> assignments) {
        others.clear();
        others.putAll(assignments);
        changed();
    }

    /**
     * {@code SET SESSION name = expression}, forwarded verbatim to every backend connection the
     * session uses; {@code DEFAULT} (or null) drops it. The expression is SQL the client wrote and is
     * spliced as is. Variables with a typed setter here are refused, so there is one way to set each.
     */
    public void setVariable(String name, String expression) {
        String key = name.toLowerCase(Locale.ROOT);
        if (!NAME.matcher(key).matches()) {
            throw new IllegalArgumentException("not a session variable name: '" + name + "'");
        }
        if (TYPED.contains(key)) {
            throw new IllegalArgumentException(key + " has its own setter on SessionState or ExecutionSession");
        }
        if (expression == null || expression.strip().equalsIgnoreCase("DEFAULT")) {
            others.remove(key);
        } else {
            others.put(key, key + " = " + expression.strip());
        }
        changed();
    }

    /** {@code SET SESSION TRANSACTION ISOLATION LEVEL}; null keeps the pool's (server's) default. */
    public void setIsolation(Isolation level) {
        isolation = level;
        changed();
    }

    /**
     * {@code SET TRANSACTION ISOLATION LEVEL} with no scope: the next transaction only, as in MySQL
     * and MariaDB; the session's level, which {@code @@transaction_isolation} reports, stays.
     */
    public void setNextIsolation(Isolation level) {
        nextIsolation = level;
    }

    /**
     * The level a transaction starting now runs at, consuming a next-transaction one: that one, else
     * the session's (null: the pool's default). The executor calls it once per transaction it begins
     * (and once per autocommit statement, a transaction of its own) and applies the answer to every
     * backend connection that transaction touches.
     */
    public Isolation takeNextIsolation() {
        Isolation next = nextIsolation;
        nextIsolation = null;
        return next != null ? next : isolation;
    }

    public void setReadOnly(boolean readOnly) {
        this.readOnly = readOnly;
        changed();
    }

    /** {@code SET TRANSACTION READ ONLY|READ WRITE} with no scope: the next transaction only, as in MySQL. */
    public void setNextReadOnly(boolean readOnly) {
        nextReadOnly = readOnly;
    }

    /** The access mode a transaction starting now gets (consuming a next-transaction one): null for the session's. */
    public Boolean takeNextReadOnly() {
        Boolean next = nextReadOnly;
        nextReadOnly = null;
        return next;
    }

    /** The pending next-transaction access mode, not consumed (null: none). */
    public Boolean nextReadOnly() {
        return nextReadOnly;
    }

    public Isolation isolation() {
        return isolation;
    }

    public boolean readOnly() {
        return readOnly;
    }

    /**
     * One SET that gives a fresh connection this state ("" when nothing is set), or null when part of
     * it is applied through JDBC rather than SQL (isolation, read-only), or a next-transaction isolation
     * waits for the next statement to consume it. Cached with the assignments.
     */
    String setup() {
        if (isolation != null || nextIsolation != null || readOnly) {
            return null;
        }
        if (setup == null || setupVersion != version) {
            // outside a transaction the lock wait timeout is not among them, whatever its value
            Map<String, String> m = assignments(false, 0);
            setup = m.isEmpty() ? "" : "SET " + String.join(", ", m.values());
            setupVersion = version;
        }
        return setup;
    }

    /**
     * One SET that gives a connection the session's settings as a transaction's connections carry them (the lock wait
     * timeout included), made again only when the settings change: every statement of a native transaction asks for it
     * (its relay plan's setup, what its connections carry), and the same String each time also makes the comparisons
     * with what a connection carries identity checks.
     */
    String transactionSetup(long lockWaitSeconds) {
        if (transactionSetup == null || transactionSetupVersion != version || transactionSetupLockWait != lockWaitSeconds) {
            Map<String, String> m = assignments(true, lockWaitSeconds);
            transactionSetup = m.isEmpty() ? "" : "SET " + String.join(", ", m.values());
            transactionSetupVersion = version;
            transactionSetupLockWait = lockWaitSeconds;
        }
        return transactionSetup;
    }

    public long version() {
        return version;
    }

    /**
     * The assignments a connection must carry, keyed for diffing, in the order they must be sent
     * (a later {@code character_set_connection} would reset an earlier {@code collation_connection}).
     * A transaction's connections also get the executor's lock wait timeout unless the session set one.
     */
    Map<String, String> assignments(boolean inTransaction, long lockWaitSeconds) {
        if (cached != null && cachedVersion == version && cachedInTransaction == inTransaction
                && cachedLockWait == lockWaitSeconds) {
            return cached;
        }
        Map<String, String> m = new LinkedHashMap<>();
        putIfSet(m, RESULTS, results);
        putIfSet(m, CONNECTION, connection);
        putIfSet(m, TIME_ZONE, timeZone);
        putIfSet(m, SQL_MODE, sqlMode);
        m.putAll(others);
        if (inTransaction && !others.containsKey(LOCK_WAIT)) {
            m.put(LOCK_WAIT, LOCK_WAIT + " = " + lockWaitSeconds);
        }
        cached = Collections.unmodifiableMap(m);
        cachedVersion = version;
        cachedInTransaction = inTransaction;
        cachedLockWait = lockWaitSeconds;
        return cached;
    }

    private static void putIfSet(Map<String, String> m, String key, String assignment) {
        if (assignment != null) {
            m.put(key, assignment);
        }
    }

    private static String connectionAssignment(String charset, String collation) {
        String cs = CONNECTION + " = " + quote(charset, CHARSET, "character set");
        return collation == null ? cs : cs + ", collation_connection = " + quote(collation, CHARSET, "collation");
    }

    /** Values are restricted to characters that need no escaping, so sql_mode NO_BACKSLASH_ESCAPES cannot matter. */
    private static String quote(String value, Pattern allowed, String what) {
        Objects.requireNonNull(value, what);
        if (!allowed.matcher(value).matches()) {
            throw new IllegalArgumentException("not a valid " + what + ": '" + value + "'");
        }
        return "'" + value + "'";
    }

    private void changed() {
        version++;
    }
}
