package io.shardwise.core.sql.analyze;

import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.config.Lex;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * A statement parsed by Calcite from its masked text, with the way back from Calcite's positions to
 * offsets in the normalized text and from Calcite's dynamic parameters to the digest's {@code ?}
 * numbers (masking may hide some {@code ?}, so Calcite's own numbering is not used).
 */
final class ParsedText {
    private static final SqlParser.Config CONFIG = SqlParser.config()
            .withLex(Lex.MYSQL)
            .withConformance(SqlConformanceEnum.MYSQL_5);

    final String sql;
    final List<Token> tokens;
    final CalciteMasking.Result masking;
    final SqlNode node;
    /** Offsets of the digest's {@code ?} in text order: index = digest ordinal. */
    private final int[] paramOffsets;

    private ParsedText(String sql, List<Token> tokens, CalciteMasking.Result masking, SqlNode node) {
        this.sql = sql;
        this.tokens = tokens;
        this.masking = masking;
        this.node = node;
        this.paramOffsets = tokens.stream().filter(t -> t.kind() == Kind.PARAM).mapToInt(Token::start).toArray();
    }

    static ParsedText parse(String sql, List<Token> tokens) throws SqlParseException {
        return parse(sql, tokens, m -> { });
    }

    /** Parses with {@code more} masking applied after {@link CalciteMasking}'s (a statement read as another shape). */
    static ParsedText parse(String sql, List<Token> tokens, java.util.function.Consumer<MaskedText> more) throws SqlParseException {
        CalciteMasking.Result masking = CalciteMasking.mask(sql, tokens);
        more.accept(masking.text());
        SqlNode node = SqlParser.create(masking.text().text(), CONFIG).parseStmt();
        return new ParsedText(sql, tokens, masking, node);
    }

    /** Offset in the normalized text where a node starts. */
    int start(SqlNode n) {
        return start(n.getParserPosition());
    }

    int start(SqlParserPos pos) {
        return masking.text().toOriginal(pos.getColumnNum() - 1);
    }

    /** Offset (exclusive) where a node's own position ends. */
    int end(SqlParserPos pos) {
        return masking.text().toOriginalEnd(pos.getEndColumnNum());
    }

    /**
     * The digest ordinal of the one {@code ?} within a parameter node's span. Not the {@code ?} at its
     * start: Calcite widens a parenthesised expression's position to its parentheses, so {@code (?)}
     * and {@code ((?))} give a parameter node that starts at the first {@code (}.
     */
    int paramOrdinal(SqlNode param) {
        SqlParserPos pos = param.getParserPosition();
        int start = start(pos);
        int end = end(pos);
        int i = Arrays.binarySearch(paramOffsets, start);
        int ordinal = i >= 0 ? i : -i - 1;
        if (ordinal >= paramOffsets.length || paramOffsets[ordinal] >= end
                || ordinal + 1 < paramOffsets.length && paramOffsets[ordinal + 1] < end) {
            throw new IllegalStateException("not one ? in offsets " + start + ".." + end + " of: " + sql);
        }
        return ordinal;
    }

    boolean isNullSafeEquality(SqlNode call) {
        // the masked '=' replaced '<=>' at its own offset; the call's position is its operator's
        return masking.nullSafeEqualities().contains(start(call));
    }
}
