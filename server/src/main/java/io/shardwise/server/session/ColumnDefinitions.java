package io.shardwise.server.session;

import io.shardwise.core.execute.Column;
import io.shardwise.server.protocol.BinaryType;
import io.shardwise.server.protocol.ColumnDefinition;

/**
 * A core {@link Column} as the column definition MySQL itself would send. Core's numbers are what
 * Connector/J reports after reading the backend's definition, and Connector/J rewrites them "to
 * align with information_schema": an integer's length becomes its type's digit count, a DECIMAL's
 * loses the sign and the point, FLOAT/DOUBLE decimals 31 ("not fixed") become 0. Clients compute
 * precision from the wire length again, so sent unchanged a DECIMAL(10,2) would reach them as
 * DECIMAL(8,2). Undone here: exactly for DECIMAL; for integers by MySQL's display width for the
 * type (an expression's own width, such as COUNT(*)'s 21, is not recoverable).
 */
final class ColumnDefinitions {
    private static final int NOT_FIXED_DECIMALS = 31;

    private ColumnDefinitions() {}

    static ColumnDefinition of(Column c) {
        return new ColumnDefinition(c.schema(), c.table(), c.orgTable(), c.name(), c.orgName(), c.collation(), length(c),
                c.mysqlType(), c.flags(), decimals(c));
    }

    private static long length(Column c) {
        boolean unsigned = c.isUnsigned();
        return switch (c.mysqlType()) {
            case BinaryType.DECIMAL, BinaryType.NEWDECIMAL -> c.length() + (unsigned ? 0 : 1) + (c.decimals() > 0 ? 1 : 0);
            case BinaryType.TINY -> c.length() == 1 ? 1 : unsigned ? 3 : 4; // TINYINT(1) keeps its width: clients read it as boolean
            case BinaryType.SHORT -> unsigned ? 5 : 6;
            case BinaryType.INT24 -> unsigned ? 8 : 9;
            case BinaryType.LONG -> unsigned ? 10 : 11;
            case BinaryType.LONGLONG -> 20;
            default -> c.length();
        };
    }

    private static int decimals(Column c) {
        boolean floating = c.mysqlType() == BinaryType.FLOAT || c.mysqlType() == BinaryType.DOUBLE;
        return floating && c.decimals() == 0 ? NOT_FIXED_DECIMALS : c.decimals();
    }
}
