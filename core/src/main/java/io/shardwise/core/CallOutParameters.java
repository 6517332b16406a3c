package io.shardwise.core;

import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.SqlLexer;
import io.shardwise.core.sql.normalize.TokenKind;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A CALL whose OUT and INOUT parameters are {@code ?} markers (JDBC's CallableStatement), turned
 * into what MySQL runs for Connector/J's CallableStatement: the markers become user variables, set
 * before the CALL (an INOUT parameter's value, NULL for an OUT one) and read after it, then cleared,
 * all on the one backend connection the CALL runs on ({@link #units}: SET, CALL, SELECT, SET NULL),
 * so no variable outlives the statement on a pooled connection.
 *
 * <p>Marker {@code k} of the client is the {@code k}-th {@code ?} of the unit's SQL: literals of
 * the text are spliced in as they were, prepared values stay markers in order.
 */
final class CallOutParameters {
    private static final String PREFIX = "@shardwise_out_";

    private CallOutParameters() {}

    /** SET, CALL, SELECT, clear: run them as one sequence; the third returns the values, labelled by parameter position. */
    static List<ExecutionUnit> units(ExecutionUnit call, BitSet out, LexicalMode mode) {
        String sql = call.sql();
        StringBuilder rewritten = new StringBuilder(sql.length() + 16 * out.cardinality());
        List<Object> inParams = new ArrayList<>();
        List<Object> setValues = new ArrayList<>();
        StringBuilder set = new StringBuilder("SET ");
        StringBuilder select = new StringBuilder("SELECT ");
        StringBuilder clear = new StringBuilder("SET ");
        SqlLexer lexer = new SqlLexer(sql, mode);
        int copied = 0;
        int marker = 0;
        for (TokenKind kind = lexer.next(); kind != TokenKind.EOF; kind = lexer.next()) {
            if (kind != TokenKind.PARAMETER) {
                continue;
            }
            Object value = marker < call.params().size() ? call.params().get(marker) : null;
            if (out.get(marker)) {
                String variable = PREFIX + (marker + 1);
                rewritten.append(sql, copied, lexer.start()).append(variable);
                copied = lexer.end();
                String comma = setValues.isEmpty() ? "" : ", ";
                set.append(comma).append(variable).append(" = ?");
                select.append(comma).append(variable).append(" AS `").append(marker + 1).append('`');
                clear.append(comma).append(variable).append(" = NULL");
                setValues.add(value);
            } else {
                inParams.add(value);
            }
            marker++;
        }
        rewritten.append(sql, copied, sql.length());
        String backend = call.backend();
        return List.of(new ExecutionUnit(backend, set.toString(), setValues, java.util.Map.of()),
                new ExecutionUnit(backend, rewritten.toString(), inParams, call.logicalTables()),
                new ExecutionUnit(backend, select.toString()),
                new ExecutionUnit(backend, clear.toString()));
    }
}
