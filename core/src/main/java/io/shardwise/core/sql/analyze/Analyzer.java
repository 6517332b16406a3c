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

    /**
     * {@code sql} as a session in sql_mode {@code mode} means it: {@code ||} read as concatenation
     * under PIPES_AS_CONCAT, and what the mode leaves ambiguous refused ({@link SqlModeRules}). The
     * default mode costs one comparison.
     */
    public Statement analyze(String sql, io.shardwise.core.sql.normalize.LexicalMode mode) {
        if (mode.semantic() == 0) {
            return analyze(sql);
        }
        Statement statement;
        boolean pipes = mode.has(io.shardwise.core.sql.normalize.LexicalMode.PIPES_AS_CONCAT);
        CalciteMasking.PIPES_AS_CONCAT.set(pipes);
        try {
            statement = analyze(sql);
        } finally {
            CalciteMasking.PIPES_AS_CONCAT.remove();
        }
        if (!(statement instanceof SessionCommand)) {
            SqlModeRules.check(DigestScanner.scan(sql), mode);
        }
        return statement;
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
                        String unread = DmlAnalyzer.selectParseError(sql, meaningful);
                        if (unread != null) {
                            // as a SELECT of that form is refused: the parser does not read it (JSON_TABLE, say)
                            fallback(sql, meaningful, "this form of INSERT ... SELECT (" + unread + ")");
                        }
                        throw e;
                    }
                    yield fromSelect;
                }
            }
            case "call" -> call(sql, meaningful);
            case "set" -> account(sql, meaningful);
            case "create", "drop", "alter", "truncate", "rename" -> {
                SessionCommand database = DatabaseDdl.analyze(sql, meaningful, rule.schema());
                if (database != null) {
                    yield database;
                }
                Ddl ddl = DdlAnalyzer.analyze(sql, meaningful, rule.schema());
                if (ddl != null) {
                    yield ddl;
                }
                String program = storedProgram(meaningful);
                Statement other = fallback(sql, meaningful, program != null ? verb.toUpperCase(java.util.Locale.ROOT) + " " + program
                        : verb.toUpperCase(java.util.Locale.ROOT) + " statement");
                if (program != null) {
                    String what = verb.toUpperCase(java.util.Locale.ROOT) + " " + program;
                    checkBody(sql, what); // physical names of sharded tables too: the body would read one shard
                    if (!program.equals("TRIGGER")) {
                        onDefaultBackend((Passthrough) other, what);
                    }
                }
                yield other;
            }
            default -> fallback(sql, meaningful, "statement starting with " + first.text());
        };
    }

    /**
     * SET PASSWORD / SET DEFAULT ROLE (the only SET statements that are not session commands) run where CREATE USER
     * and GRANT do, on the default backend, as written. Without {@code FOR <account>} they would change the account
     * Shardwise logs in to that backend with, not the client's: refused.
     */
    private Statement account(String sql, List<Token> tokens) {
        String what = tokens.get(1).is("password") ? "SET PASSWORD" : "SET DEFAULT ROLE";
        boolean named = false;
        for (Token t : tokens) {
            named |= t.depth() == 0 && t.is("for");
        }
        if (!named) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, what + " without FOR <account> (it would change the backend"
                    + " account Shardwise logs in with, not the client's)");
        }
        return fallback(sql, tokens, what);
    }

    /**
     * CALL runs where the procedure lives, as a statement Shardwise does not read: its arguments may
     * name only single tables of one backend. User variables among them are set on the CALL's backend
     * connection before it and read back after it (CallRunner).
     */
    private Statement call(String sql, List<Token> tokens) {
        if (tokens.size() < 2 || (tokens.get(1).kind() != Kind.WORD && tokens.get(1).kind() != Kind.QUOTED_ID)) {
            return fallback(sql, tokens, "CALL");
        }
        boolean qualified = tokens.size() > 3 && tokens.get(2).text().equals(".");
        String procedure = DigestScanner.identifier(tokens.get(qualified ? 3 : 1));
        Passthrough p = (Passthrough) fallback(sql, tokens, "CALL");
        return new Call(p.template(), p.tables(), procedure);
    }

    /**
     * Refuses a stored program's body (as the backend stores it) that names a sharded or broadcast
     * table, logically or by one of their physical names: run on one backend it would read or change
     * one shard's rows, a wrong answer. {@code what} names the program for the message. Returns the
     * procedures the body CALLs, for the caller to check in turn.
     */
    public List<String> checkBody(String body, String what) {
        List<String> called = new ArrayList<>();
        List<Token> tokens = meaningful(DigestScanner.scan(body));
        Set<String> physical = new HashSet<>();
        for (TableRule table : rule.tables()) {
            switch (table) {
                case TableRule.Sharded s -> s.nodes().forEach(n -> physical.add(n.table().toLowerCase(java.util.Locale.ROOT)));
                case TableRule.Broadcast b -> b.nodes().forEach(n -> physical.add(n.table().toLowerCase(java.util.Locale.ROOT)));
                case TableRule.Single s -> { }
            }
        }
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.kind() != Kind.WORD && t.kind() != Kind.QUOTED_ID) {
                continue;
            }
            if (t.kind() == Kind.WORD && t.is("call") && i + 1 < tokens.size()) {
                boolean qualified = i + 3 < tokens.size() && tokens.get(i + 2).text().equals(".");
                called.add(DigestScanner.identifier(tokens.get(qualified ? i + 3 : i + 1)));
            }
            String name = DigestScanner.identifier(t);
            boolean shardedLogical = rule.isConfigured(name) && !(rule.table(name) instanceof TableRule.Single);
            if (shardedLogical || physical.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, what + " whose body names sharded or broadcast table '"
                        + name + "' (it would run on one backend's rows only)");
            }
        }
        return called;
    }

    /**
     * PROCEDURE, FUNCTION, TRIGGER or EVENT when the statement creates, alters or drops one (after
     * {@code OR REPLACE}, {@code DEFINER = ...}, {@code AGGREGATE}), else null.
     */
    private static String storedProgram(List<Token> tokens) {
        for (int i = 1; i < tokens.size() && i < 16; i++) {
            Token t = tokens.get(i);
            if (t.kind() != Kind.WORD) {
                continue;
            }
            switch (t.lower()) {
                case "procedure", "function", "trigger", "event" -> {
                    return t.lower().toUpperCase(java.util.Locale.ROOT);
                }
                case "or", "replace", "definer", "current_user", "aggregate", "sql", "security", "invoker" -> { }
                default -> {
                    if (!tokens.get(i - 1).text().equals("=")) {
                        return null; // TABLE, VIEW, INDEX ...; a word after '=' is DEFINER's user
                    }
                }
            }
        }
        return null;
    }

    /**
     * Procedures, functions and events live on the default backend, where every CALL and every
     * statement without tables looks for them; one whose body names a single table of another
     * backend could not run there (a trigger lives with its table, wherever that is).
     */
    private void onDefaultBackend(Passthrough program, String what) {
        String home = rule.config().defaultBackend();
        for (TableRef t : program.tables()) {
            if (rule.table(t.name()) instanceof TableRule.Single s && !s.node().backend().equals(home)) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, what + " naming table '" + t.name() + "' of backend "
                        + s.node().backend() + " (stored programs live on the default backend " + home + ")");
            }
        }
    }

    private Statement parsed(String sql, List<Token> tokens, String kind) {
        if (!kind.equals("select")) {
            try {
                Statement multi = MultiTableWrites.analyze(sql, tokens, rule);
                if (multi != null) {
                    return multi;
                }
            } catch (SqlParseException e) {
                // not read as a multi-table write either: refused below with the parser's own reason
            }
        }
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
