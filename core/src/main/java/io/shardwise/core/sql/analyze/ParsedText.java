package io.shardwise.core.sql.analyze;

import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    private final Map<Integer, Integer> paramOrdinalByOffset = new HashMap<>();

    private ParsedText(String sql, List<Token> tokens, CalciteMasking.Result masking, SqlNode node) {
        this.sql = sql;
        this.tokens = tokens;
        this.masking = masking;
        this.node = node;
        int ordinal = 0;
        for (Token t : tokens) {
            if (t.kind() == Kind.PARAM) {
                paramOrdinalByOffset.put(t.start(), ordinal++);
            }
        }
    }

    static ParsedText parse(String sql, List<Token> tokens) throws SqlParseException {
        CalciteMasking.Result masking = CalciteMasking.mask(sql, tokens);
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

    /** The digest ordinal of the {@code ?} at a node's position. */
    int paramOrdinal(SqlNode param) {
        Integer ordinal = paramOrdinalByOffset.get(start(param));
        if (ordinal == null) {
            throw new IllegalStateException("no ? at offset " + start(param) + " of: " + sql);
        }
        return ordinal;
    }

    boolean isNullSafeEquality(SqlNode call) {
        // the masked '=' replaced '<=>' at its own offset; the call's position is its operator's
        return masking.nullSafeEqualities().contains(start(call));
    }
}
