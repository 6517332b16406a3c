package io.shardwise.core.sql.analyze;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.List;
import java.util.Locale;

/**
 * {@code CREATE|ALTER|DROP DATABASE|SCHEMA} as a MySQL server that holds exactly the logical schema
 * answers them. Run unchanged they would reach only the default backend and create, alter or drop
 * a physical database there: {@code mysqlslap --create} sends {@code CREATE SCHEMA `shop`}, which
 * would leave a stray database named like the logical schema next to the shards, and DROP of the
 * logical schema would drop one shard's data.
 *
 * <p>CREATE of the logical schema gets MySQL's 1007, or OK with IF NOT EXISTS (it exists); every
 * other form gets 1235 naming the statement.
 */
final class DatabaseDdl {
    private DatabaseDdl() {}

    /**
     * The statement's answer when it is a database statement: a {@link SessionCommand.Kind#NO_OP}
     * for CREATE ... IF NOT EXISTS of the logical schema; null when it is not one.
     *
     * @throws ShardwiseException 1007 or 1235, as described above
     */
    static SessionCommand analyze(String sql, List<Token> tokens, String logicalSchema) {
        String verb = tokens.get(0).lower();
        if (tokens.size() < 2 || !(tokens.get(1).is("database") || tokens.get(1).is("schema"))
                || !(verb.equals("create") || verb.equals("drop") || verb.equals("alter"))) {
            return null;
        }
        int i = 2;
        boolean ifClause = false;
        while (i < tokens.size() && (tokens.get(i).is("if") || tokens.get(i).is("not") || tokens.get(i).is("exists"))) {
            ifClause = true;
            i++;
        }
        Token nameToken = i < tokens.size() && (tokens.get(i).kind() == Kind.WORD || tokens.get(i).kind() == Kind.QUOTED_ID)
                ? tokens.get(i) : null;
        // ALTER DATABASE may omit the name (it means the current one); options are words too
        boolean named = nameToken != null && !(verb.equals("alter") && isAlterOption(nameToken));
        String name = named ? DigestScanner.identifier(nameToken) : logicalSchema;
        // the statement as the user wrote its head (keywords in capitals), so messages quote what they sent
        StringBuilder head = new StringBuilder();
        for (int k = 0; k < i; k++) {
            head.append(k == 0 ? "" : " ").append(tokens.get(k).text().toUpperCase(Locale.ROOT));
        }
        String statement = head + " " + (named ? nameToken.text() : name);
        return switch (verb) {
            case "create" -> {
                if (!named) {
                    yield null; // malformed: the backend's syntax check gives MySQL's own 1064
                }
                if (!name.equalsIgnoreCase(logicalSchema)) {
                    throw unsupported(statement, logicalSchema, "create databases on the backends");
                }
                if (!ifClause) {
                    throw new ShardwiseException(ErrorCode.DATABASE_EXISTS, name);
                }
                yield new SessionCommand(new SqlTemplate(sql, List.of()), SessionCommand.Kind.NO_OP, name);
            }
            case "drop" -> {
                if (!named) {
                    yield null;
                }
                throw unsupported(statement, logicalSchema, name.equalsIgnoreCase(logicalSchema)
                        ? "it would drop every shard's data; drop the physical databases on the backends"
                        : "drop databases on the backends");
            }
            default -> throw unsupported(statement, logicalSchema, "alter the physical databases on the backends");
        };
    }

    private static boolean isAlterOption(Token t) {
        return switch (t.lower()) {
            case "default", "character", "charset", "collate", "encryption", "read", "comment", "upgrade" -> true;
            default -> false;
        };
    }

    private static ShardwiseException unsupported(String statement, String logicalSchema, String advice) {
        return new ShardwiseException(ErrorCode.UNSUPPORTED, statement + " (Shardwise serves the one logical schema '"
                + logicalSchema + "'; " + advice + ")");
    }
}
