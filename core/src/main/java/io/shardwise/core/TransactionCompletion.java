package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import java.util.List;

/**
 * How a {@code COMMIT} or {@code ROLLBACK} ends the transaction, as MySQL and MariaDB read
 * {@code [WORK] [AND [NO] CHAIN] [[NO] RELEASE]} against the session's {@code completion_type}:
 * an explicit {@code AND CHAIN} / {@code RELEASE} chains / releases, an explicit {@code NO} form does
 * not, and otherwise completion_type decides (1 CHAIN chains, 2 RELEASE releases). {@code AND CHAIN
 * RELEASE} together is a syntax error (1064), as in both servers. Only the explicit statements read
 * this: an implicit commit (DDL, {@code SET autocommit = 1}, {@code LOCK TABLES}, {@code BEGIN})
 * neither chains nor releases, whatever completion_type says.
 *
 * @param chain a new transaction begins at once, with the ended one's isolation level and access mode
 * @param release the client's session ends after the OK
 */
record TransactionCompletion(boolean chain, boolean release) {
    static final TransactionCompletion PLAIN = new TransactionCompletion(false, false);

    /**
     * @param argument what follows COMMIT or ROLLBACK, read in {@code mode} (comments are no words)
     * @param completionType the session's completion_type: 0 NO_CHAIN, 1 CHAIN, 2 RELEASE
     * @throws ShardwiseException 1064 near the first word out of place
     */
    static TransactionCompletion of(String argument, LexicalMode mode, int completionType) {
        List<Token> t = StatementTokens.of(argument, mode);
        int i = 0;
        if (i < t.size() && is(argument, t.get(i), "work")) {
            i++;
        }
        Boolean chain = null;
        if (i < t.size() && is(argument, t.get(i), "and")) {
            boolean no = i + 1 < t.size() && is(argument, t.get(i + 1), "no");
            int word = no ? i + 2 : i + 1;
            if (word >= t.size() || !is(argument, t.get(word), "chain")) {
                throw nearby(argument, t, Math.min(word, t.size()));
            }
            chain = !no;
            i = word + 1;
        }
        Boolean release = null;
        if (i < t.size() && is(argument, t.get(i), "no")) {
            if (i + 1 >= t.size() || !is(argument, t.get(i + 1), "release")) {
                throw nearby(argument, t, i + 1);
            }
            release = false;
            i += 2;
        } else if (i < t.size() && is(argument, t.get(i), "release")) {
            if (Boolean.TRUE.equals(chain)) {
                throw nearby(argument, t, i); // AND CHAIN RELEASE: both servers' grammar refuses it
            }
            release = true;
            i++;
        }
        if (i < t.size()) {
            throw nearby(argument, t, i);
        }
        boolean chains = chain != null ? chain : completionType == 1;
        boolean releases = release != null ? release : completionType == 2;
        return chains || releases ? new TransactionCompletion(chains, releases) : PLAIN;
    }

    private static boolean is(String sql, Token t, String word) {
        return t.kind() != TokenKind.QUOTED_IDENTIFIER && t.kind() != TokenKind.STRING && StatementTokens.word(sql, t).equals(word);
    }

    private static ShardwiseException nearby(String sql, List<Token> t, int at) {
        return new ShardwiseException(ErrorCode.PARSE_ERROR, "near '" + (at < t.size() ? sql.substring(t.get(at).start()) : "") + "'");
    }
}
