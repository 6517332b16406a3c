package io.shardwise.server.session;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code CREATE|DROP DATABASE|SCHEMA} as a server that holds exactly the logical schema (and
 * information_schema) answers them. Passed through, they would create or drop a physical database
 * on the default backend: {@code mysqlslap --create} sends {@code CREATE SCHEMA `shop`}, which
 * would leave a stray database named like the logical schema next to the shards.
 *
 * <p>CREATE of the logical schema gets MySQL's 1007 (OK with IF NOT EXISTS); creating another
 * database and dropping any get 1235: dropping the logical schema would drop every shard.
 */
final class DatabaseStatements {
    private static final Pattern DDL = Pattern.compile(
            "(?is)\\s*(create|drop)\\s+(?:database|schema)\\s+(if\\s+(?:not\\s+)?exists\\s+)?(`(?:[^`]|``)+`|[\\w$]+)(.*?);?\\s*");

    /** The outcome of a database statement; a null errno is success. */
    record Outcome(Integer errno, String sqlState, String message) {}

    private DatabaseStatements() {}

    /**
     * The answer to {@code sql}, or null when it is not CREATE/DROP DATABASE (checked cheaply first).
     *
     * @throws ShardwiseException 1235 for a statement that would change the physical databases
     */
    static Outcome answer(String sql, String logicalSchema) {
        String s = sql.stripLeading();
        if (s.length() < 13 || !(s.regionMatches(true, 0, "create", 0, 6) || s.regionMatches(true, 0, "drop", 0, 4))) {
            return null;
        }
        Matcher m = DDL.matcher(sql);
        if (!m.matches()) {
            return null;
        }
        String verb = m.group(1).toLowerCase(Locale.ROOT);
        String name = ShowStatement.unquote(m.group(3));
        String statement = sql.strip().replaceAll(";$", "").strip();
        if (verb.equals("create") && name.equalsIgnoreCase(logicalSchema)) {
            return m.group(2) != null ? new Outcome(null, null, null)
                    : new Outcome(1007, "HY000", "Can't create database '" + name + "'; database exists");
        }
        throw new ShardwiseException(ErrorCode.UNSUPPORTED, statement + " (Shardwise serves the one logical schema '"
                + logicalSchema + "'; create and drop its databases on the backends)");
    }
}
