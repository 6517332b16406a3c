package io.shardwise.core;

import static io.shardwise.core.sql.normalize.StatementTokens.word;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import java.util.List;
import java.util.Set;

/**
 * {@code EXPLAIN|DESCRIBE|DESC [EXTENDED|PARTITIONS|FORMAT=name] statement} as the user wrote it:
 * {@code options} the text between the verb and the statement (passed on verbatim when a backend
 * explains its own unit), {@code format} what Shardwise's own plan is rendered as, {@code statement}
 * the explained statement's text (no trailing semicolon).
 */
record ExplainStatement(String options, Format format, String statement) {
    enum Format {
        /** The default, also EXTENDED and PARTITIONS (MariaDB's older spellings of it). */
        TRADITIONAL,
        JSON,
        /** A format Shardwise's own plan has no rendering for (MySQL 8's TREE): a backend may still explain one unit in it. */
        OTHER
    }

    /** What may follow the options: the statements MySQL explains ({@code (} opens a parenthesized query). */
    private static final Set<String> EXPLAINED = Set.of("select", "insert", "update", "delete", "replace", "with", "table", "values", "(");

    /**
     * The statement, or null when {@code sql} is not EXPLAIN of a statement ({@code EXPLAIN t} is
     * DESCRIBE of a table).
     *
     * @throws ShardwiseException UNSUPPORTED (1235) for {@code EXPLAIN ANALYZE}, MariaDB's {@code ANALYZE
     *         statement} (both run the statement, on every shard it touches) and {@code EXPLAIN FOR CONNECTION}
     */
    static ExplainStatement parse(String sql, LexicalMode mode) {
        List<Token> t = StatementTokens.of(sql, mode);
        if (t.size() < 2) {
            return null;
        }
        String verb = word(sql, t.get(0));
        boolean analyze = verb.equals("analyze");
        Format format = Format.TRADITIONAL;
        int i = 1;
        while (i < t.size()) {
            String w = word(sql, t.get(i));
            if (w.equals("extended") || w.equals("partitions")) {
                i++;
            } else if (w.equals("analyze") && !analyze) {
                analyze = true;
                i++;
            } else if (w.equals("format") && i + 2 < t.size() && t.get(i + 1).text(sql).equals("=")) {
                String name = word(sql, t.get(i + 2));
                format = name.equals("traditional") ? Format.TRADITIONAL : name.equals("json") ? Format.JSON : Format.OTHER;
                i += 3;
            } else if (w.equals("for") && !analyze) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "EXPLAIN FOR CONNECTION (a connection's statement runs on backend"
                        + " connections of its own; EXPLAIN the statement instead)");
            } else {
                break;
            }
        }
        if (i >= t.size() || !EXPLAINED.contains(word(sql, t.get(i)))) {
            return null;
        }
        if (analyze) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, (verb.equals("analyze") ? "ANALYZE" : "EXPLAIN ANALYZE")
                    + " of a statement (it runs the statement; EXPLAIN shows the plan without running it)");
        }
        return new ExplainStatement(sql.substring(t.get(1).start(), t.get(i).start()), format,
                sql.substring(t.get(i).start(), t.get(t.size() - 1).end()));
    }
}
