package io.shardwise.core;

import static io.shardwise.core.sql.normalize.StatementTokens.word;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code INSERT INTO t VALUES (...)} into a sharded table names no columns, so the router cannot
 * find the sharding key (dump files insert this way). The statement is read with the table's column
 * list made explicit, as MySQL reads it: the columns of its first physical table in ordinal order,
 * invisible ones left out, asked on the session's own connections (under LOCK TABLES too).
 */
final class ImplicitColumns {
    private ImplicitColumns() {}

    /** {@code sql} with the column list spliced before VALUES, or null when it has no VALUES to splice before. */
    static String withColumns(String sql, LexicalMode mode, ExecutionSession execution, DataNode first) {
        List<Token> t = StatementTokens.of(sql, mode);
        int depth = 0;
        for (Token token : t) {
            TokenKind kind = token.kind();
            depth += kind == TokenKind.LEFT_PAREN ? 1 : kind == TokenKind.RIGHT_PAREN ? -1 : 0;
            String w = depth == 0 ? word(sql, token) : "";
            if (w.equals("values") || w.equals("value")) {
                List<String> columns = columns(execution, first);
                if (columns.isEmpty()) {
                    return null;
                }
                StringBuilder list = new StringBuilder(" (");
                for (int i = 0; i < columns.size(); i++) {
                    list.append(i == 0 ? "" : ", ").append('`').append(columns.get(i).replace("`", "``")).append('`');
                }
                return sql.substring(0, token.start()) + list.append(") ") + sql.substring(token.start());
            }
            if (w.equals("select") || w.equals("set")) {
                return null;
            }
        }
        return null;
    }

    /** The table's columns in ordinal order, invisible ones left out; empty when the table does not exist. */
    static List<String> columns(ExecutionSession execution, DataNode node) {
        String sql = "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?"
                + " AND EXTRA NOT LIKE '%INVISIBLE%' ORDER BY ORDINAL_POSITION";
        List<String> names = new ArrayList<>();
        UnitResult result = execution.execute(List.of(new ExecutionUnit(node.backend(), sql, List.of(node.table()), Map.of()))).get(0);
        if (result instanceof UnitResult.Rows rows) {
            try (ResultCursor cursor = rows.cursor()) {
                while (cursor.next()) {
                    names.add(new String(cursor.get(0), StandardCharsets.UTF_8));
                }
            }
        }
        return names;
    }
}
