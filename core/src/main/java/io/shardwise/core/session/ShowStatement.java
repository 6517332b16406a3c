package io.shardwise.core.session;

import static io.shardwise.core.sql.normalize.StatementTokens.isName;
import static io.shardwise.core.sql.normalize.StatementTokens.unquote;
import static io.shardwise.core.sql.normalize.StatementTokens.word;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.normalize.SqlLexer;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A parsed {@code SHOW ...}, {@code DESCRIBE t} or {@code DESC t} statement: what it lists, the
 * table and database it names, and where those names sit in the text, so the statement sent to a
 * backend is the client's own text with the logical name spliced out ({@link #physical}).
 *
 * @param table the logical table named (COLUMNS, CREATE_TABLE, INDEX), else null
 * @param database the database named by a qualifier or FROM/IN clause, else null
 * @param like the LIKE pattern (unquoted), else null
 * @param spliceStart start of the text that {@link #physical} replaces (the qualified table name and
 *     its FROM/IN database clause; for TABLES the FROM/IN clause), or -1 for none
 */
record ShowStatement(Kind kind, String sql, String table, String database, String like, int spliceStart, int spliceEnd) {
    /** What a statement lists; each is answered by one method of {@link ShowStatements}. */
    enum Kind {
        DATABASES, TABLES, COLUMNS, CREATE_TABLE, INDEX,
        /** SHOW TABLE STATUS: each logical table's row as its first physical table's, renamed. */
        TABLE_STATUS,
        /** SHOW [FULL] PROCESSLIST: the server's own sessions of the user asking. */
        PROCESSLIST,
        /** SHOW VARIABLES: the default backend's, overridden by the session's own. */
        VARIABLES,
        /** SHOW STATUS, ENGINES, PLUGINS, PRIVILEGES, COLLATION, CHARACTER SET: the default backend's answer as it is. */
        BACKEND,
        /**
         * SHOW GRANTS [FOR account]: the client's logical account's grants on the logical schema (the
         * backend's account is not the client's); {@code table} holds the account after FOR, if any.
         */
        GRANTS,
        /** SHOW MASTER STATUS, SHOW BINARY|MASTER LOGS: the default backend's, for an administrator only. */
        REPLICATION,
        /** SHOW WARNINGS / SHOW ERRORS / SHOW COUNT(*) ...: answered before this parse by {@link DiagnosticStatements}. */
        DIAGNOSTICS
    }

    /** Words after DESC/DESCRIBE/EXPLAIN that make it EXPLAIN of a statement, not a table's columns. */
    private static final Set<String> EXPLAINED = Set.of("select", "insert", "update", "delete", "replace", "with", "table",
            "format", "extended", "partitions", "analyze", "for", "values");

    /** The statement with the spliced region replaced by {@code replacement} (e.g. the quoted physical table). */
    String physical(String replacement) {
        return spliceStart < 0 ? sql : sql.substring(0, spliceStart) + replacement + sql.substring(spliceEnd);
    }

    /**
     * The statement, or null when {@code sql} is not SHOW/DESCRIBE of a table (the engine handles
     * it). Cheap for other statements: only the first letters are looked at before lexing.
     *
     * @throws ShardwiseException UNSUPPORTED (1235) for a SHOW form this server does not answer
     */
    static ShowStatement parse(String sql) {
        return parse(sql, LexicalMode.DEFAULT);
    }

    /** @param mode the lexical mode the statement is read in (the session's sql_mode: ANSI_QUOTES, NO_BACKSLASH_ESCAPES) */
    static ShowStatement parse(String sql, LexicalMode mode) {
        String s = sql.stripLeading();
        if (!(startsWithWord(s, "show") || startsWithWord(s, "desc") || startsWithWord(s, "describe")
                || startsWithWord(s, "explain"))) {
            return null;
        }
        List<Token> t = StatementTokens.of(sql, mode);
        if (t.size() < 2) {
            return null;
        }
        return word(sql, t.get(0)).equals("show") ? show(sql, t) : describe(sql, t);
    }

    private static ShowStatement describe(String sql, List<Token> t) {
        if (!isName(t.get(1)) || EXPLAINED.contains(word(sql, t.get(1)))) {
            return null;
        }
        Cursor c = new Cursor(sql, t, 1);
        Name name = c.name();
        String like = null;
        if (c.more()) {
            Token column = c.take();
            like = unquote(column.text(sql));
            if (c.more()) {
                return null;
            }
        }
        return new ShowStatement(Kind.COLUMNS, sql, name.table, name.database, like, name.start, name.end);
    }

    private static ShowStatement show(String sql, List<Token> t) {
        Cursor c = new Cursor(sql, t, 1);
        String first = c.peekWord();
        if (first.equals("full") || first.equals("global") || first.equals("session") || first.equals("local")
                || first.equals("storage")) {
            c.take();
        }
        String what = c.more() ? word(sql, c.take()) : "";
        return switch (what) {
            case "databases", "schemas" -> new ShowStatement(Kind.DATABASES, sql, null, null, c.likeOnly(what), -1, -1);
            case "tables" -> {
                int start = c.more() ? t.get(c.at).start() : sql.length();
                String database = c.fromDatabase();
                int end = c.at < t.size() ? t.get(c.at).start() : sql.length();
                yield new ShowStatement(Kind.TABLES, sql, null, database, c.likeOnly(what), database == null ? -1 : start,
                        database == null ? -1 : end);
            }
            case "columns", "fields", "index", "indexes", "keys" -> {
                if (!c.peekWord().equals("from") && !c.peekWord().equals("in")) {
                    throw unsupported(sql);
                }
                c.take();
                Name name = c.name();
                String database = c.fromDatabase();
                int end = t.get(c.at - 1).end(); // the name's, or its FROM/IN database clause's
                boolean columns = what.equals("columns") || what.equals("fields");
                String like = columns ? c.likeOnly(what) : c.end(what);
                yield new ShowStatement(columns ? Kind.COLUMNS : Kind.INDEX, sql, name.table,
                        database != null ? database : name.database, like, name.start, end);
            }
            case "create" -> {
                if (!c.peekWord().equals("table")) {
                    throw unsupported(sql);
                }
                c.take();
                Name name = c.name();
                c.end(what);
                yield new ShowStatement(Kind.CREATE_TABLE, sql, name.table, name.database, null, name.start, name.end);
            }
            case "table" -> {
                if (!c.peekWord().equals("status")) {
                    throw unsupported(sql);
                }
                c.take();
                String database = c.fromDatabase();
                yield new ShowStatement(Kind.TABLE_STATUS, sql, null, database, c.likeOnly(what), -1, -1);
            }
            case "processlist" -> {
                c.end(what);
                yield new ShowStatement(Kind.PROCESSLIST, sql, null, null, null, -1, -1);
            }
            case "variables" -> new ShowStatement(Kind.VARIABLES, sql, null, null, null, -1, -1);
            case "status", "engines", "collation", "charset", "character", "plugins", "privileges" ->
                    new ShowStatement(Kind.BACKEND, sql, null, null, null, -1, -1);
            case "grants" -> {
                String account = null;
                if (c.peekWord().equals("for") && c.at + 1 < t.size()) {
                    account = sql.substring(t.get(c.at + 1).start(), t.getLast().end()).strip();
                }
                yield new ShowStatement(Kind.GRANTS, sql, account, null, null, -1, -1);
            }
            case "master", "binary" -> {
                String next = c.peekWord();
                if (!(next.equals("status") || next.equals("logs"))) {
                    throw unsupported(sql);
                }
                yield new ShowStatement(Kind.REPLICATION, sql, null, null, null, -1, -1);
            }
            case "warnings", "errors", "count" -> new ShowStatement(Kind.DIAGNOSTICS, sql, null, null, null, -1, -1);
            default -> throw unsupported(sql);
        };
    }

    static ShardwiseException unsupported(String sql) {
        String text = sql.strip();
        if (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        return new ShardwiseException(ErrorCode.UNSUPPORTED, text);
    }

    private record Name(String database, String table, int start, int end) {}

    /** A position in the tokens of one statement. */
    private static final class Cursor {
        final String sql;
        final List<Token> t;
        int at;

        Cursor(String sql, List<Token> t, int at) {
            this.sql = sql;
            this.t = t;
            this.at = at;
        }

        boolean more() {
            return at < t.size();
        }

        Token take() {
            return t.get(at++);
        }

        String peekWord() {
            return more() ? word(sql, t.get(at)) : "";
        }

        /** {@code table} or {@code db.table}. */
        Name name() {
            if (!more() || !isName(t.get(at))) {
                throw unsupported(sql);
            }
            Token first = take();
            if (more() && t.get(at).kind() == TokenKind.DOT && at + 1 < t.size() && isName(t.get(at + 1))) {
                at++;
                Token second = take();
                return new Name(unquote(first.text(sql)), unquote(second.text(sql)), first.start(), second.end());
            }
            return new Name(null, unquote(first.text(sql)), first.start(), first.end());
        }

        /** An optional {@code FROM db} / {@code IN db}: the database, or null. */
        String fromDatabase() {
            if ((peekWord().equals("from") || peekWord().equals("in")) && at + 1 < t.size() && isName(t.get(at + 1))) {
                at++;
                return unquote(take().text(sql));
            }
            return null;
        }

        /** An optional {@code LIKE 'pattern'} ending the statement; WHERE and the rest are not supported. */
        String likeOnly(String what) {
            String like = null;
            if (peekWord().equals("like") && at + 1 < t.size() && t.get(at + 1).kind() == TokenKind.STRING) {
                at++;
                like = unquote(take().text(sql));
            }
            end(what);
            return like;
        }

        String end(String what) {
            if (more()) {
                throw unsupported(sql);
            }
            return null;
        }
    }

    private static boolean startsWithWord(String s, String word) {
        return s.length() > word.length() && s.regionMatches(true, 0, word, 0, word.length())
                && !Character.isLetterOrDigit(s.charAt(word.length())) && s.charAt(word.length()) != '_';
    }

}
