package io.shardwise.core;

import static io.shardwise.core.sql.normalize.StatementTokens.unquote;
import static io.shardwise.core.sql.normalize.StatementTokens.word;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code LOCK TABLES} over logical tables: which logical names (and aliases) the session holds, and
 * the statement each backend gets to lock the physical tables behind them. Backends are locked in
 * the configuration's order, and each backend's tables in name order, so two sessions locking
 * overlapping sets wait for each other instead of deadlocking. The executor pins those connections
 * until UNLOCK TABLES ({@link io.shardwise.core.execute.ExecutionSession#lockTables}).
 *
 * <p>MySQL refuses a statement naming a table the session did not lock (1100); a backend could only
 * say so for the backends it locks, and in physical names, so the check is made here, over logical
 * names, before routing. Not thread-safe: one per session.
 */
final class TableLocks {
    /** One table of a LOCK TABLES list. */
    record Lock(String table, String alias, String mode) {}

    private final Set<String> held = new HashSet<>();

    boolean any() {
        return !held.isEmpty();
    }

    /** The session holds these locks now (after the backends granted them). */
    void hold(List<Lock> locks) {
        held.clear();
        for (Lock l : locks) {
            held.add(key(l.table(), l.alias()));
        }
    }

    void release() {
        held.clear();
    }

    /** 1100 for a table the statement names that the session did not lock (under that alias), as MySQL refuses it. */
    void check(Statement statement) {
        if (held.isEmpty() || statement instanceof SessionCommand) {
            return;
        }
        for (TableRef t : statement.tables()) {
            if (!held.contains(key(t.name(), t.alias()))) {
                throw new ShardwiseException(ErrorCode.TABLE_NOT_LOCKED, t.alias() != null ? t.alias() : t.name());
            }
        }
    }

    private static String key(String table, String alias) {
        return table.toLowerCase(Locale.ROOT) + "\u0000" + (alias == null ? "" : alias.toLowerCase(Locale.ROOT));
    }

    /** {@code LOCK TABLE[S] t [[AS] a] {READ [LOCAL] | [LOW_PRIORITY] WRITE}, ...}. */
    static List<Lock> parse(String sql, LexicalMode mode) {
        List<Token> t = StatementTokens.of(sql, mode);
        List<Lock> out = new ArrayList<>();
        int i = 2; // LOCK TABLE[S]
        while (i < t.size()) {
            if (!StatementTokens.isName(t.get(i))) {
                throw syntax(sql, t.get(i));
            }
            String table = unquote(t.get(i).text(sql));
            i++;
            if (i + 1 < t.size() && t.get(i).kind() == TokenKind.DOT) { // schema.table: the logical schema is the only one
                table = unquote(t.get(i + 1).text(sql));
                i += 2;
            }
            String alias = null;
            if (i < t.size() && word(sql, t.get(i)).equals("as")) {
                i++;
            }
            if (i < t.size() && StatementTokens.isName(t.get(i)) && !isMode(word(sql, t.get(i)))) {
                alias = unquote(t.get(i).text(sql));
                i++;
            }
            StringBuilder lockMode = new StringBuilder();
            while (i < t.size() && isMode(word(sql, t.get(i)))) {
                lockMode.append(lockMode.isEmpty() ? "" : " ").append(word(sql, t.get(i)).toUpperCase(Locale.ROOT));
                i++;
            }
            if (lockMode.isEmpty()) {
                throw syntax(sql, i < t.size() ? t.get(i) : null);
            }
            out.add(new Lock(table, alias, lockMode.toString()));
            if (i < t.size() && t.get(i).kind() != TokenKind.COMMA) {
                throw syntax(sql, t.get(i));
            }
            i++;
        }
        if (out.isEmpty()) {
            throw syntax(sql, null);
        }
        return out;
    }

    private static boolean isMode(String w) {
        return w.equals("read") || w.equals("write") || w.equals("local") || w.equals("low_priority");
    }

    private static ShardwiseException syntax(String sql, Token at) {
        return new ShardwiseException(ErrorCode.PARSE_ERROR, "near '" + (at == null ? "" : sql.substring(at.start())) + "'");
    }

    /**
     * One {@code LOCK TABLES} unit per backend holding any of the tables' physical tables, in the
     * configuration's backend order, each listing its physical tables in name order.
     *
     * @throws ShardwiseException 1235 for an alias of a table with several physical tables on one
     *     backend (one LOCK TABLES cannot give two tables one alias)
     */
    static List<ExecutionUnit> units(List<Lock> locks, ShardingRule rule) {
        Map<String, List<String>> byBackend = new LinkedHashMap<>();
        for (String backend : rule.config().backends().keySet()) {
            byBackend.put(backend, new ArrayList<>());
        }
        List<Lock> ordered = new ArrayList<>(locks);
        ordered.sort(Comparator.comparing(l -> l.table().toLowerCase(Locale.ROOT)));
        for (Lock lock : ordered) {
            Map<String, Integer> perBackend = new LinkedHashMap<>();
            List<DataNode> nodes = new ArrayList<>(rule.table(lock.table()).nodes());
            nodes.sort(Comparator.comparing(DataNode::table));
            for (DataNode node : nodes) {
                if (lock.alias() != null && perBackend.merge(node.backend(), 1, Integer::sum) > 1) {
                    throw new ShardwiseException(ErrorCode.UNSUPPORTED, "LOCK TABLES with an alias (" + lock.table() + " AS "
                            + lock.alias() + ") of a table with several physical tables on one backend");
                }
                byBackend.get(node.backend()).add(quote(node.table()) + (lock.alias() == null ? "" : " AS " + quote(lock.alias()))
                        + " " + lock.mode());
            }
        }
        List<ExecutionUnit> units = new ArrayList<>();
        byBackend.forEach((backend, tables) -> {
            if (!tables.isEmpty()) {
                units.add(new ExecutionUnit(backend, "LOCK TABLES " + String.join(", ", tables)));
            }
        });
        return units;
    }

    private static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
