package io.shardwise.core.session;

import static io.shardwise.core.sql.normalize.StatementTokens.isName;
import static io.shardwise.core.sql.normalize.StatementTokens.unquote;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import java.util.List;
import java.util.Locale;

/**
 * The backends' system schemas ({@code mysql}, {@code performance_schema}, {@code sys}) as a client
 * meets them: they hold the backends' own accounts and state, never the client's, so a user without
 * {@code admin: true} is refused as a MySQL user without privileges on them is (1044 for USE, 1142 for
 * a statement naming one of their tables); an administrator reads the default backend's, and only reads.
 */
public final class SystemSchemas {
    private final SessionVariables.Client client;
    private final boolean administrator;

    /** @param inProcess an in-process client (the JDBC driver's application), which holds the backends' credentials anyway */
    SystemSchemas(ShardingRule rule, SessionVariables.Client client, boolean inProcess) {
        this.client = client;
        this.administrator = inProcess || Administrators.isAdministrator(rule, client.user());
    }

    /** Whether the client may read the default backend's system schemas. */
    public boolean administrator() {
        return administrator;
    }

    /** Whether {@code name} is one of the system schemas. */
    public static boolean isSystemSchema(String name) {
        return name != null && Administrators.isSystemSchema(name);
    }

    /**
     * {@code USE name} of a system schema.
     *
     * @throws ShardwiseException 1044 for a user who is not an administrator, 1235 for one who is (an
     *     administrator names their tables qualified: {@code mysql.user})
     */
    public void use(String name) {
        if (!administrator) {
            throw new ShardwiseException(ErrorCode.DATABASE_ACCESS_DENIED, client.user(), client.host(), name);
        }
        throw new ShardwiseException(ErrorCode.UNSUPPORTED, "USE " + name + " (name its tables qualified: " + name + ".table)");
    }

    /**
     * A statement naming {@code schema.table} of a system schema.
     *
     * @param command the statement's verb as MySQL names it in 1142 (SELECT, INSERT, UPDATE, DELETE, DROP ...)
     * @param read whether the statement only reads
     * @throws ShardwiseException 1142 unless the client is an administrator and the statement only reads
     */
    public void check(String command, boolean read, String schema, String table) {
        if (!administrator || !read) {
            throw new ShardwiseException(ErrorCode.TABLE_ACCESS_DENIED, command.toUpperCase(Locale.ROOT), client.user(),
                    client.host(), table);
        }
    }

    /**
     * The first {@code schema.table} of a system schema a statement's text names, as {schema, table};
     * null for none. For statements the analyzer reads no table list from (DDL, pass-through).
     */
    public static String[] named(String sql, LexicalMode mode) {
        if (!mentions(sql)) {
            return null;
        }
        List<Token> t = StatementTokens.of(sql, mode);
        for (int i = 0; i + 2 < t.size(); i++) {
            if (isName(t.get(i)) && t.get(i + 1).kind() == TokenKind.DOT && isName(t.get(i + 2))) {
                String schema = unquote(t.get(i).text(sql));
                if (isSystemSchema(schema)) {
                    return new String[] {schema, unquote(t.get(i + 2).text(sql))};
                }
            }
        }
        return null;
    }

    /** A scan without allocation: whether any system schema's name appears at all. */
    private static boolean mentions(String sql) {
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if ((c == 'm' || c == 'M' || c == 's' || c == 'S' || c == 'p' || c == 'P')
                    && (sql.regionMatches(true, i, "mysql", 0, 5) || sql.regionMatches(true, i, "sys", 0, 3)
                    || sql.regionMatches(true, i, "performance_schema", 0, 18))) {
                return true;
            }
        }
        return false;
    }
}
