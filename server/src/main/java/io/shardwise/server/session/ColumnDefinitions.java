package io.shardwise.server.session;

import io.shardwise.core.execute.Column;
import io.shardwise.server.protocol.BinaryType;
import io.shardwise.server.protocol.ColumnDefinition;
import java.util.List;

/**
 * A core {@link Column} as the column definition MySQL itself would send. Core's numbers are what
 * Connector/J reports after reading the backend's definition, and Connector/J rewrites them "to
 * align with information_schema": an integer's length becomes its type's digit count, a DECIMAL's
 * loses the sign and the point, FLOAT/DOUBLE decimals 31 ("not fixed") become 0. Clients compute
 * precision and display size from the wire length again, so sent unchanged a DECIMAL(10,2) would
 * reach them as DECIMAL(8,2). Undone here: exactly for DECIMAL; for integers by MySQL's default
 * display width for the type. Hazard: an integer expression's own width ({@code SELECT 1} sends 1,
 * {@code COUNT(*)} 21) is gone by then; such columns get their type's width. A column Shardwise describes
 * itself ({@link Column#wireLength}) goes out as it is.
 */
public final class ColumnDefinitions {
    private static final int NOT_FIXED_DECIMALS = 31;
    private static final int FLAG_BLOB = 16;

    private ColumnDefinitions() {}

    public static ColumnDefinition of(Column c) {
        if (c.wireLength() != 0) {
            return new ColumnDefinition(c.schema(), c.table(), c.orgTable(), c.name(), c.orgName(), c.collation(), c.wireLength(),
                    c.mysqlType(), c.flags(), c.decimals());
        }
        return new ColumnDefinition(c.schema(), c.table(), c.orgTable(), c.name(), c.orgName(), c.collation(), wireLength(c),
                c.mysqlType(), wireFlags(c), wireDecimals(c));
    }

    /**
     * Column {@code i} of a prepared statement's execution as MySQL names it: the name its prepare announced
     * ({@code described}, when it has as many columns as {@code columns}), since MySQL names a server-side prepared
     * item from the prepared text ({@code SUM(amount * ?)}) where the backend ran it with the value inlined; the
     * types are the execution's.
     */
    public static Column prepared(List<Column> columns, List<Column> described, int i) {
        Column c = columns.get(i);
        if (described.size() != columns.size() || described.get(i).name().equals(c.name())) {
            return c;
        }
        return new Column(c.schema(), c.table(), c.orgTable(), described.get(i).name(), c.orgName(), c.collation(),
                c.length(), c.mysqlType(), c.flags(), c.decimals(), c.wireLength());
    }

    /**
     * Connector/J marks a binary string (CHAR/VARCHAR of the binary collation: BINARY, VARBINARY,
     * {@code CAST(x AS BINARY)}) BLOB as well as BINARY (relay.DriverColumns does the same for native
     * reads); MySQL sends BINARY only on these types (a BLOB is its own type), so the BLOB flag goes.
     */
    static int wireFlags(Column c) {
        int type = c.mysqlType();
        boolean binaryString = c.collation() == Column.BINARY_COLLATION && (c.flags() & Column.FLAG_BINARY) != 0
                && (type == BinaryType.STRING || type == BinaryType.VAR_STRING || type == BinaryType.VARCHAR);
        return binaryString ? c.flags() & ~FLAG_BLOB : c.flags();
    }

    /** MySQL's my_decimal_precision_to_length_no_truncation for decimals, the default display width for integers. */
    static long wireLength(Column c) {
        boolean unsigned = c.isUnsigned();
        return switch (c.mysqlType()) {
            case BinaryType.DECIMAL, BinaryType.NEWDECIMAL ->
                    c.length() + (c.decimals() > 0 ? 1 : 0) + (unsigned || c.length() == 0 ? 0 : 1);
            case BinaryType.TINY -> c.length() == 1 ? 1 : unsigned ? 3 : 4; // TINYINT(1) keeps its width: clients read it as boolean
            case BinaryType.SHORT -> unsigned ? 5 : 6;
            case BinaryType.INT24 -> unsigned ? 8 : 9;
            case BinaryType.LONG -> unsigned ? 10 : 11;
            case BinaryType.LONGLONG -> 20;
            default -> c.length();
        };
    }

    /** Connector/J turns FLOAT and DOUBLE's "not fixed" decimals (31) into 0; MySQL sends 31, and clients show it as the scale. */
    static int wireDecimals(Column c) {
        boolean floating = c.mysqlType() == BinaryType.FLOAT || c.mysqlType() == BinaryType.DOUBLE;
        return floating && c.decimals() == 0 ? NOT_FIXED_DECIMALS : c.decimals();
    }
}
