package io.shardwise.server.session;

import io.shardwise.core.execute.Column;
import io.shardwise.server.protocol.ColumnDefinition;

/**
 * The column-definition packet for an engine {@link Column}. The engine reads backend metadata
 * through Connector/J, whose column-definition reader rewrites numeric lengths: DECIMAL loses the
 * sign and decimal point, and every integer type gets its type's precision (19 for BIGINT) in place
 * of the display width the server sent. MySQL's wire length counts sign and point, and clients
 * compute precision and display size from it, so they go back on here; so do FLOAT and DOUBLE's
 * "not fixed" decimals (31), which the reader turns into 0. Hazard: an integer
 * expression's own width ({@code SELECT 1} sends 1, {@code COUNT(*)} 21) is gone by then; such
 * columns get their type's full width (11, 20).
 */
final class ColumnDefinitions {
    private static final int TYPE_DECIMAL = 0;
    private static final int TYPE_NEWDECIMAL = 246;
    private static final int TYPE_FLOAT = 4;
    private static final int TYPE_DOUBLE = 5;
    private static final int NOT_FIXED_DECIMALS = 31;
    private static final int TYPE_TINY = 1;
    private static final int TYPE_SHORT = 2;
    private static final int TYPE_LONG = 3;
    private static final int TYPE_LONGLONG = 8;
    private static final int TYPE_INT24 = 9;

    private ColumnDefinitions() {}

    static ColumnDefinition of(Column c) {
        return new ColumnDefinition(c.schema(), c.table(), c.orgTable(), c.name(), c.orgName(), c.collation(), wireLength(c),
                c.mysqlType(), c.flags(), wireDecimals(c));
    }

    /** Connector/J turns FLOAT and DOUBLE's "not fixed" decimals (31) into 0; MySQL sends 31, and clients show it as the scale. */
    static int wireDecimals(Column c) {
        boolean floating = c.mysqlType() == TYPE_FLOAT || c.mysqlType() == TYPE_DOUBLE;
        return floating && c.decimals() == 0 ? NOT_FIXED_DECIMALS : c.decimals();
    }

    /** MySQL's my_decimal_precision_to_length_no_truncation for decimals, the sign back on integers, else the length as it is. */
    static long wireLength(Column c) {
        return switch (c.mysqlType()) {
            case TYPE_DECIMAL, TYPE_NEWDECIMAL -> c.length() + (c.decimals() > 0 ? 1 : 0) + (c.isUnsigned() || c.length() == 0 ? 0 : 1);
            case TYPE_TINY, TYPE_SHORT, TYPE_LONG, TYPE_LONGLONG, TYPE_INT24 ->
                    c.length() == typePrecision(c) && !c.isUnsigned() ? c.length() + 1 : c.length();
            default -> c.length();
        };
    }

    /** Connector/J's MysqlType precision, which it puts in place of an integer column's length. */
    private static long typePrecision(Column c) {
        return switch (c.mysqlType()) {
            case TYPE_TINY -> 3;
            case TYPE_SHORT -> 5;
            case TYPE_INT24 -> c.isUnsigned() ? 8 : 7;
            case TYPE_LONG -> 10;
            default -> c.isUnsigned() ? 20 : 19;
        };
    }
}
