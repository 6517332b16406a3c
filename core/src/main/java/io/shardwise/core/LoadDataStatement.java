package io.shardwise.core;

import static io.shardwise.core.sql.normalize.StatementTokens.word;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.normalize.Literal;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.QueryStatements;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code LOAD DATA [LOW_PRIORITY | CONCURRENT] [LOCAL] INFILE 'file' [REPLACE | IGNORE] INTO TABLE t
 * [PARTITION (..)] [CHARACTER SET cs] [{FIELDS | COLUMNS} ..] [LINES ..] [IGNORE n {LINES | ROWS}]
 * [(col_or_@var, ..)] [SET ..]} as read for routing: what splits the file into rows (the
 * separators, as bytes), the targets the fields go to, and the offsets where each shard's statement
 * differs from the user's (table, IGNORE n LINES, column list). Everything else (CHARACTER SET, the
 * SET clause, the separators' text) reaches the backends as the user wrote it, so they convert values
 * exactly as one MySQL would.
 *
 * @param targets the column list as written (columns, and {@code @var}s starting with '@'); empty when absent
 * @param setColumns the columns the SET clause assigns, lower case
 * @param ignoreSpan [start, end) of {@code IGNORE n LINES}, or null
 * @param listOpen offset just after the column list's '(' (-1: no list), where a generated column goes
 * @param xml LOAD XML: {@code LOAD XML [LOCAL] INFILE 'file' [REPLACE | IGNORE] INTO TABLE t [CHARACTER SET cs]
 *     [ROWS IDENTIFIED BY '<tag>'] [IGNORE n {LINES | ROWS}] [(field_or_@var, ..)] [SET ..]}, read by {@link LoadXmlRecords}
 * @param rowTag LOAD XML's row tag: ROWS IDENTIFIED BY's text without its first and last character, as
 *     MariaDB compares it ({@code row} by default)
 */
record LoadDataStatement(String sql, boolean local, String file, boolean replace, boolean ignore, String schema, String table,
                         int tableStart, int tableEnd, byte[] fieldTerm, int enclosed, boolean optionally, int escape,
                         byte[] lineStart, byte[] lineTerm, long ignoreLines, int[] ignoreSpan, List<String> targets,
                         int listOpen, List<String> setColumns, boolean xml, String rowTag) {

    /** Whether {@code normalized} is a LOAD statement (LOAD DATA or LOAD XML). */
    static boolean is(NormalizedSql normalized) {
        // every statement asks: the first token alone decides for all but LOAD
        int start = normalized.tokenStart(0);
        if (normalized.tokenEnd(0) - start != 4 || !normalized.sql().regionMatches(true, start, "load", 0, 4)) {
            return false;
        }
        List<Token> t = StatementTokens.of(normalized.sql(), normalized.lexicalMode());
        return t.size() > 1 && word(normalized.sql(), t.get(0)).equals("load")
                && (word(normalized.sql(), t.get(1)).equals("data") || word(normalized.sql(), t.get(1)).equals("xml"));
    }

    static LoadDataStatement parse(NormalizedSql normalized) {
        return new Parser(normalized).parse();
    }

    /** The statement one backend runs for the rows Shardwise sends it: the physical table, no IGNORE n LINES, a generated column first. */
    String forShard(String physicalTable, String generatedColumn) {
        List<int[]> cuts = new ArrayList<>();
        List<String> with = new ArrayList<>();
        cuts.add(new int[] {tableStart, tableEnd});
        with.add("`" + physicalTable.replace("`", "``") + "`");
        if (ignoreSpan != null) {
            cuts.add(ignoreSpan);
            with.add("");
        }
        if (generatedColumn != null) {
            if (listOpen < 0) {
                throw new ShardwiseException(ErrorCode.BUG, "a generated column without a column list");
            }
            cuts.add(new int[] {listOpen, listOpen});
            with.add("`" + generatedColumn.replace("`", "``") + "`, ");
        }
        StringBuilder out = new StringBuilder(sql.length() + 64);
        int at = 0;
        for (int i = 0; i < cuts.size(); i++) { // in text order: table, IGNORE, list
            out.append(sql, at, cuts.get(i)[0]).append(with.get(i));
            at = cuts.get(i)[1];
        }
        return out.append(sql, at, sql.length()).toString();
    }

    /** "LOAD XML" or "LOAD DATA", for messages. */
    String kind() {
        return xml ? "LOAD XML" : "LOAD DATA";
    }

    /** Fields per row: one per target, or the table's column count when there is no list. */
    int fieldCount(int tableColumns) {
        return targets.isEmpty() ? tableColumns : targets.size();
    }

    /** Reads the clauses in MySQL's order; a clause out of place is MySQL's 1064 at that token. */
    private static final class Parser {
        private final NormalizedSql normalized;
        private final String sql;
        private final List<Token> t;
        private int i;

        Parser(NormalizedSql normalized) {
            this.normalized = normalized;
            this.sql = normalized.sql();
            this.t = StatementTokens.of(sql, normalized.lexicalMode());
        }

        LoadDataStatement parse() {
            expect("load");
            boolean xml = accept("xml");
            if (!xml) {
                expect("data");
            }
            accept("low_priority");
            accept("concurrent");
            boolean local = accept("local");
            expect("infile");
            String file = string();
            boolean replace = accept("replace");
            boolean ignore = !replace && accept("ignore");
            expect("into");
            expect("table");
            int tableStart = here().start();
            String first = name();
            String schema = null;
            String table = first;
            if (i < t.size() && t.get(i).kind() == TokenKind.DOT) {
                i++;
                schema = first;
                table = name();
            }
            int tableEnd = t.get(i - 1).end();
            if (accept("partition")) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, (xml ? "LOAD XML" : "LOAD DATA") + " ... PARTITION (the rows go where their sharding key routes them)");
            }
            if (peek("character") || peek("charset")) {
                if (accept("character")) {
                    expect("set");
                } else {
                    expect("charset");
                }
                String charset = word(sql, t.get(i++)).replace("`", "").replace("'", "");
                checkCharset(charset, xml);
            }
            byte[] fieldTerm = {'\t'};
            int enclosed = -1;
            boolean optionally = false;
            int escape = '\\';
            String rowTag = "row";
            if (xml && accept("rows")) {
                expect("identified");
                expect("by");
                String tag = string();
                rowTag = tag.length() < 2 ? "" : tag.substring(1, tag.length() - 1);
            }
            if (!xml && (accept("fields") || accept("columns"))) {
                boolean any = false;
                while (true) {
                    if (accept("terminated")) {
                        expect("by");
                        fieldTerm = bytes(string());
                    } else if (accept("optionally")) {
                        expect("enclosed");
                        expect("by");
                        enclosed = oneByte(string());
                        optionally = true;
                    } else if (accept("enclosed")) {
                        expect("by");
                        enclosed = oneByte(string());
                    } else if (accept("escaped")) {
                        expect("by");
                        escape = oneByte(string());
                    } else {
                        break;
                    }
                    any = true;
                }
                if (!any) {
                    throw syntax();
                }
            }
            byte[] lineStart = {};
            byte[] lineTerm = {'\n'};
            if (!xml && accept("lines")) {
                boolean any = false;
                while (true) {
                    if (accept("starting")) {
                        expect("by");
                        lineStart = bytes(string());
                    } else if (accept("terminated")) {
                        expect("by");
                        lineTerm = bytes(string());
                    } else {
                        break;
                    }
                    any = true;
                }
                if (!any) {
                    throw syntax();
                }
            }
            long ignoreLines = 0;
            int[] ignoreSpan = null;
            if (peek("ignore")) {
                int from = here().start();
                i++;
                Token n = here();
                if (n.kind() != TokenKind.INTEGER) {
                    throw syntax();
                }
                ignoreLines = Long.parseLong(n.text(sql));
                i++;
                if (!accept("lines") && !accept("rows")) {
                    throw syntax();
                }
                ignoreSpan = new int[] {from, t.get(i - 1).end()};
            }
            List<String> targets = new ArrayList<>();
            int listOpen = -1;
            if (i < t.size() && t.get(i).kind() == TokenKind.LEFT_PAREN) {
                listOpen = t.get(i).end();
                i++;
                while (true) {
                    Token c = here();
                    if (c.kind() == TokenKind.USER_VARIABLE) {
                        targets.add(c.text(sql));
                        i++;
                    } else {
                        targets.add(name());
                    }
                    if (here().kind() == TokenKind.COMMA) {
                        i++;
                    } else {
                        break;
                    }
                }
                if (here().kind() != TokenKind.RIGHT_PAREN) {
                    throw syntax();
                }
                i++;
            }
            List<String> setColumns = new ArrayList<>();
            if (accept("set")) {
                // col = expr, ...: the assigned columns are the names followed by '=' at depth 0
                int depth = 0;
                for (int k = i; k < t.size(); k++) {
                    TokenKind kind = t.get(k).kind();
                    depth += kind == TokenKind.LEFT_PAREN ? 1 : kind == TokenKind.RIGHT_PAREN ? -1 : 0;
                    boolean start = k == i || depth == 0 && t.get(k - 1).kind() == TokenKind.COMMA;
                    if (kind == TokenKind.USER_VARIABLE && !targets.contains(t.get(k).text(sql))) {
                        throw new ShardwiseException(ErrorCode.UNSUPPORTED, (xml ? "LOAD XML" : "LOAD DATA") + " ... SET reading user variable "
                                + t.get(k).text(sql) + " that its column list does not assign (the backends evaluate SET per row,"
                                + " while Shardwise keeps the session's user variables)");
                    }
                    if (start && StatementTokens.isName(t.get(k))) {
                        setColumns.add(StatementTokens.unquote(t.get(k).text(sql)).toLowerCase(Locale.ROOT));
                    }
                }
            } else if (i < t.size()) {
                throw syntax();
            }
            if (fieldTerm.length == 0 && enclosed < 0) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "LOAD DATA of fixed-width rows (FIELDS TERMINATED BY '' ENCLOSED BY '')");
            }
            if (lineTerm.length == 0) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "LOAD DATA with LINES TERMINATED BY ''");
            }
            return new LoadDataStatement(sql, local, file, replace, ignore, schema, table, tableStart, tableEnd, fieldTerm, enclosed,
                    optionally, escape, lineStart, lineTerm, ignoreLines, ignoreSpan, targets, listOpen, setColumns, xml, rowTag);
        }

        /**
         * The file's bytes are split here byte by byte: exact for character sets in which no byte of a
         * multi-byte character is ASCII (UTF-8, the single-byte sets, UTF-16/32 excluded as MySQL excludes them);
         * the East Asian sets whose second bytes may be a separator or a backslash are refused.
         */
        private static void checkCharset(String charset, boolean xml) {
            switch (charset) {
                case "big5", "cp932", "gbk", "gb18030", "sjis" -> throw new ShardwiseException(ErrorCode.UNSUPPORTED,
                        (xml ? "LOAD XML" : "LOAD DATA") + " ... CHARACTER SET " + charset + " (a byte of its multi-byte characters may read as a separator)");
                default -> { }
            }
        }

        private Token here() {
            if (i >= t.size()) {
                throw syntax();
            }
            return t.get(i);
        }

        private boolean peek(String keyword) {
            return i < t.size() && (t.get(i).kind() == TokenKind.KEYWORD || t.get(i).kind() == TokenKind.IDENTIFIER)
                    && word(sql, t.get(i)).equals(keyword);
        }

        private boolean accept(String keyword) {
            if (peek(keyword)) {
                i++;
                return true;
            }
            return false;
        }

        private void expect(String keyword) {
            if (!accept(keyword)) {
                throw syntax();
            }
        }

        private String name() {
            Token n = here();
            if (!StatementTokens.isName(n)) {
                throw syntax();
            }
            i++;
            String text = n.text(sql);
            return n.kind() == TokenKind.QUOTED_IDENTIFIER ? StatementTokens.unquote(text) : text;
        }

        private String string() {
            Token s = here();
            if (s.kind() != TokenKind.STRING && s.kind() != TokenKind.HEX) {
                throw syntax();
            }
            i++;
            for (Literal l : normalized.literals()) {
                if (l.start() == s.start()) {
                    Object v = l.value();
                    return v instanceof byte[] b ? new String(b, StandardCharsets.ISO_8859_1) : String.valueOf(v);
                }
            }
            return StatementTokens.unquote(s.text(sql));
        }

        private ShardwiseException syntax() {
            int at = i < t.size() ? t.get(i).start() : sql.length();
            return QueryStatements.syntaxError(sql, at);
        }
    }

    /** A separator as the file's bytes: its characters in UTF-8 (a byte string's chars are its bytes). */
    private static byte[] bytes(String s) {
        for (int k = 0; k < s.length(); k++) {
            if (s.charAt(k) > 0x7F) {
                return s.getBytes(StandardCharsets.UTF_8);
            }
        }
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** ENCLOSED BY / ESCAPED BY: one character, or '' for none (-1); MySQL refuses longer ones with 1083. */
    private static int oneByte(String s) {
        byte[] b = bytes(s);
        if (b.length > 1) {
            throw new ShardwiseException(ErrorCode.WRONG_FIELD_TERMINATORS);
        }
        return b.length == 0 ? -1 : b[0] & 0xFF;
    }
}
