package io.shardwise.core.session;

import static io.shardwise.core.sql.normalize.StatementTokens.word;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sql.normalize.SqlLexer;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * MySQL's diagnostic statements, answered from the session's last diagnostics area
 * ({@link Diagnostics}): {@code SHOW WARNINGS [LIMIT [offset,] n]}, {@code SHOW ERRORS [LIMIT ...]},
 * {@code SHOW COUNT(*) WARNINGS}, {@code SHOW COUNT(*) ERRORS}. They do not clear the area, and
 * neither does a statement reading {@code @@warning_count} or {@code @@error_count}, which sees the
 * previous statement's counts ({@link #keepsDiagnostics}); every other statement starts a new area.
 */
final class DiagnosticStatements {
    private static final int UTF8_GENERAL_CI = 33;
    private static final int VAR_STRING = 253;
    private static final int LONG = 3;
    private static final int LONGLONG = 8;

    private static final List<Column> LIST_COLUMNS = List.of(
            new Column("", "", "", "Level", "Level", UTF8_GENERAL_CI, 21, VAR_STRING, Column.FLAG_NOT_NULL, 39),
            new Column("", "", "", "Code", "Code", Column.BINARY_COLLATION, 4, LONG,
                    Column.FLAG_NOT_NULL | Column.FLAG_UNSIGNED | Column.FLAG_BINARY, 0, 4),
            new Column("", "", "", "Message", "Message", UTF8_GENERAL_CI, 1536, VAR_STRING, Column.FLAG_NOT_NULL, 39));

    private DiagnosticStatements() {}

    /** Whether {@code sql} reads the last statement's diagnostics, so must not clear them first. Cheap: no lexing. */
    static boolean keepsDiagnostics(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        return isDiagnosticShow(lower)
                || lower.contains("@@") && (lower.contains("warning_count") || lower.contains("error_count"));
    }

    private static final Pattern SHOW = Pattern.compile("\\s*show\\s+(warnings|errors|count)\\b.*",
            Pattern.DOTALL);

    private static boolean isDiagnosticShow(String lower) {
        return lower.length() >= 10 && SHOW.matcher(lower).matches();
    }

    /**
     * The answer to a diagnostic SHOW, or null when {@code sql} is not one.
     *
     * @throws ShardwiseException 1064 for a malformed LIMIT or COUNT clause
     */
    static ResultCursor answer(String sql, Diagnostics area) {
        return answer(sql, LexicalMode.DEFAULT, area);
    }

    /** @param mode the lexical mode the statement is read in */
    static ResultCursor answer(String sql, LexicalMode mode, Diagnostics area) {
        if (!isDiagnosticShow(sql.toLowerCase(Locale.ROOT))) {
            return null;
        }
        List<Token> t = StatementTokens.of(sql, mode);
        if (t.size() < 2 || !word(sql, t.get(0)).equals("show")) {
            return null;
        }
        int i = 1;
        boolean count = false;
        if (word(sql, t.get(1)).equals("count")) {
            // COUNT ( * ) WARNINGS|ERRORS
            if (t.size() != 6 || t.get(2).kind() != TokenKind.LEFT_PAREN || !t.get(3).text(sql).equals("*")
                    || t.get(4).kind() != TokenKind.RIGHT_PAREN) {
                return null;
            }
            count = true;
            i = 5;
        }
        String what = word(sql, t.get(i));
        if (!what.equals("warnings") && !what.equals("errors")) {
            return null;
        }
        boolean errors = what.equals("errors");
        i++;
        if (count) {
            String label = errors ? "@@session.error_count" : "@@session.warning_count";
            int n = errors ? area.errorCount() : area.warningCount();
            return new ValuesCursor(List.of(new Column("", "", "", label, "", Column.BINARY_COLLATION, 21, LONGLONG,
                    Column.FLAG_BINARY | Column.FLAG_UNSIGNED, 0, 21)), List.<byte[][]>of(new byte[][] {bytes(Integer.toString(n))}));
        }
        long offset = 0;
        long limit = Long.MAX_VALUE;
        if (i < t.size()) {
            if (!word(sql, t.get(i)).equals("limit") || i + 1 >= t.size() || t.get(i + 1).kind() != TokenKind.INTEGER) {
                throw syntax(sql);
            }
            limit = Long.parseLong(t.get(i + 1).text(sql));
            i += 2;
            if (i < t.size()) {
                if (t.get(i).kind() != TokenKind.COMMA || i + 1 >= t.size() || t.get(i + 1).kind() != TokenKind.INTEGER) {
                    throw syntax(sql);
                }
                offset = limit;
                limit = Long.parseLong(t.get(i + 1).text(sql));
                i += 2;
            }
            if (i != t.size()) {
                throw syntax(sql);
            }
        }
        List<byte[][]> rows = new ArrayList<>();
        long skipped = 0;
        for (Condition c : area.conditions()) {
            if (errors && c.level() != Condition.Level.ERROR) {
                continue;
            }
            if (skipped++ < offset) {
                continue;
            }
            if (rows.size() >= limit) {
                break;
            }
            rows.add(new byte[][] {bytes(c.level().label()), bytes(Integer.toString(c.code())), bytes(c.message())});
        }
        return new ValuesCursor(LIST_COLUMNS, rows);
    }

    private static ShardwiseException syntax(String sql) {
        return new ShardwiseException(ErrorCode.PARSE_ERROR, "check the manual that corresponds to your MySQL server version"
                + " for the right syntax to use near '" + sql.strip() + "' at line 1");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
