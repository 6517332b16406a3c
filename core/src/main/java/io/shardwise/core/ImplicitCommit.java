package io.shardwise.core;

import io.shardwise.core.sql.analyze.Ddl;
import io.shardwise.core.sql.analyze.Passthrough;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import java.util.List;
import java.util.Set;

/**
 * The statements MySQL and MariaDB commit an open transaction before (and, as they run in no
 * transaction, after): CREATE/ALTER/DROP/RENAME/TRUNCATE of tables, indexes, views, databases,
 * procedures, triggers, servers, users and roles; GRANT and REVOKE; ANALYZE/CHECK/OPTIMIZE/REPAIR
 * TABLE; RESET (RESET QUERY CACHE too, on MariaDB 11.4); FLUSH. Not CREATE TEMPORARY TABLE or DROP
 * TEMPORARY TABLE, which both servers run inside the transaction, and not what MariaDB 11.4 runs
 * inside it although MySQL's manual lists it (CACHE INDEX, LOAD INDEX INTO CACHE, CHECKSUM TABLE).
 * Both servers commit before they check much, so a statement that then fails (a GRANT to an unknown
 * account, RESET MASTER without a binary log) has committed all the same. The session commits on
 * every backend its transaction touched before such a statement reaches one (see
 * {@code EngineSession}): a backend that runs it commits its own part of the transaction, so the
 * others must commit theirs too, or a later ROLLBACK would undo part of what one MySQL committed;
 * what Shardwise answers itself commits the same way: FLUSH HOSTS, and CREATE DATABASE of the logical
 * schema (OK with IF NOT EXISTS; 1007 without, thrown at analysis, so {@code EngineSession} commits for
 * it). LOCK TABLES, BEGIN and SET autocommit = 1 commit where they run ({@code SessionCommandRunner},
 * {@code ExecutionSession}).
 */
final class ImplicitCommit {
    private static final Set<String> VERBS = Set.of("create", "alter", "drop", "rename", "truncate", "grant", "revoke",
            "analyze", "check", "optimize", "repair", "reset",
            // SET PASSWORD and SET DEFAULT ROLE, the only SET statements that are no session command (checked on MariaDB 11.4)
            "set");

    private ImplicitCommit() {}

    /** Whether {@code statement}, written as {@code sql}, commits the open transaction first. */
    static boolean before(Statement statement, String sql, LexicalMode mode) {
        if (statement instanceof SessionCommand command) {
            // FLUSH HOSTS, and CREATE DATABASE IF NOT EXISTS of the logical schema (NO_OP): answered without a backend
            return command.kind() == SessionCommand.Kind.FLUSH || command.kind() == SessionCommand.Kind.NO_OP;
        }
        if (!(statement instanceof Ddl) && !(statement instanceof Passthrough)) {
            return false;
        }
        List<Token> t = StatementTokens.of(sql, mode);
        if (t.isEmpty() || !VERBS.contains(StatementTokens.word(sql, t.get(0)))) {
            return false;
        }
        String verb = StatementTokens.word(sql, t.get(0));
        if (verb.equals("create") || verb.equals("drop")) {
            for (int i = 1; i < Math.min(t.size(), 4); i++) {
                String w = StatementTokens.word(sql, t.get(i));
                if (w.equals("temporary")) {
                    return false; // CREATE [OR REPLACE] TEMPORARY TABLE, DROP TEMPORARY TABLE
                }
                if (!w.equals("or") && !w.equals("replace")) {
                    break;
                }
            }
        }
        return true;
    }
}
