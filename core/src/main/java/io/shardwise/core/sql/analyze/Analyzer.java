package io.shardwise.core.sql.analyze;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * Turns a normalized statement (literals as {@code ?}) into a {@link Statement}: session commands
 * and DDL by explicit rules, SELECT/UPDATE/DELETE through Calcite's parser behind
 * {@link CalciteMasking}, INSERT by token rules. Runs only on a plan-cache miss. A statement it
 * cannot read runs unchanged when every table it names lives whole on one backend; otherwise it is
 * refused with 1235, naming what could not be read — never guessed.
 */
public final class Analyzer {
    private final ShardingRule rule;

    public Analyzer(ShardingRule rule) {
        this.rule = rule;
    }

    public Statement analyze(String sql) {
        List<Token> tokens = DigestScanner.scan(sql);
        List<Token> meaningful = new ArrayList<>();
        for (Token t : tokens) {
            if (t.kind() != Kind.COMMENT) {
                meaningful.add(t);
            }
        }
        if (meaningful.isEmpty() || meaningful.get(0).kind() == Kind.SEMICOLON) {
            throw new ShardwiseException(ErrorCode.EMPTY_QUERY);
        }
        Token first = meaningful.get(0);
        String verb = first.kind() == Kind.OPEN ? "(" : first.lower();
        SessionCommand session = SessionRules.classify(sql, meaningful);
        if (session != null) {
            return session;
        }
        return switch (verb) {
            case "select", "with", "(" -> parsed(sql, tokens, "select");
            case "update" -> parsed(sql, tokens, "update");
            case "delete" -> parsed(sql, tokens, "delete");
            case "insert", "replace" -> {
                Insert insert = DmlAnalyzer.insert(sql, meaningful, rule);
                if (insert != null) {
                    yield insert;
                }
                try {
                    yield fallback(sql, meaningful, "INSERT other than INSERT ... VALUES");
                } catch (ShardwiseException e) {
                    // it names sharded or broadcast tables: an INSERT ... SELECT is answered row by row
                    Insert fromSelect = DmlAnalyzer.insertSelect(sql, meaningful, rule);
                    if (fromSelect == null) {
                        throw e;
                    }
                    yield fromSelect;
                }
            }
            case "create", "drop", "alter", "truncate", "rename" -> {
                SessionCommand database = DatabaseDdl.analyze(sql, meaningful, rule.schema());
                if (database != null) {
                    yield database;
                }
                Ddl ddl = DdlAnalyzer.analyze(sql, meaningful, rule.schema());
                yield ddl != null ? ddl : fallback(sql, meaningful, verb.toUpperCase(java.util.Locale.ROOT) + " statement");
            }
            default -> fallback(sql, meaningful, "statement starting with " + first.text());
        };
    }

    private Statement parsed(String sql, List<Token> tokens, String kind) {
        ParsedText parsed;
        try {
            parsed = ParsedText.parse(sql, tokens);
        } catch (SqlParseException e) {
            String reason = e.getMessage() == null ? "parse error" : e.getMessage().lines().findFirst().orElse("parse error");
            return fallback(sql, meaningful(tokens), "this form of " + kind.toUpperCase(java.util.Locale.ROOT) + " (" + reason + ")");
        }
        return switch (kind) {
            case "update" -> parsed.node instanceof SqlUpdate ? DmlAnalyzer.update(parsed, rule) : fallback(sql, parsed.tokens, "UPDATE");
            case "delete" -> parsed.node instanceof SqlDelete ? DmlAnalyzer.delete(parsed, rule) : fallback(sql, parsed.tokens, "DELETE");
            default -> SelectAnalyzer.analyze(parsed, rule);
        };
    }

    private static List<Token> meaningful(List<Token> tokens) {
        List<Token> out = new ArrayList<>();
        for (Token t : tokens) {
            if (t.kind() != Kind.COMMENT) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * A statement the analyzer does not read: passes through when every table it names is a single
     * table on one backend, else 1235. Names are found by a conservative scan: any word that is a
     * configured sharded or broadcast table counts, wherever it stands.
     */
    private Statement fallback(String sql, List<Token> tokens, String what) {
        Set<String> backends = new HashSet<>();
        List<TableRef> tables = new ArrayList<>();
        List<Slot> slots = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind() != Kind.WORD && t.kind() != Kind.QUOTED_ID) {
                continue;
            }
            String name = DigestScanner.identifier(t);
            String qualifier = i >= 2 && tokens.get(i - 1).text().equals(".") ? DigestScanner.identifier(tokens.get(i - 2)) : null;
            boolean qualifiedByOther = qualifier != null && !qualifier.equalsIgnoreCase(rule.schema());
            if (qualifiedByOther || !rule.isConfigured(name)) {
                continue;
            }
            TableRule table = rule.table(name);
            switch (table) {
                case TableRule.Sharded s -> throw unsupported(what, name);
                case TableRule.Broadcast b -> throw unsupported(what, name);
                case TableRule.Single s -> {
                    backends.add(s.node().backend());
                    tables.add(new TableRef(name, qualifier, null));
                    if (!s.node().table().equals(name)) {
                        slots.add(new Slot.Table(t.start(), t.end(), name));
                    }
                }
            }
        }
        if (backends.size() > 1) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, what + " over tables on several backends " + backends);
        }
        int ordinal = 0;
        for (Token t : tokens) {
            if (t.kind() == Kind.PARAM) {
                slots.add(new Slot.Param(t.start(), t.end(), ordinal++));
            }
        }
        return new Passthrough(new SqlTemplate(sql, slots), tables, what + " runs unchanged: it names no sharded or broadcast table");
    }

    private static ShardwiseException unsupported(String what, String table) {
        return new UnanalyzableException(what + " on table '" + table + "'");
    }
}
