package io.shardwise.server.relay;

import io.shardwise.core.execute.Column;
import io.shardwise.server.protocol.BinaryType;
import io.shardwise.server.protocol.ColumnDefinition;

/**
 * A backend's column definition read off the wire, as Connector/J hands it to the JDBC executor
 * (ColumnDefinitionReader.unpackField, then Field's flags, with the driver's default properties as
 * BackendConnections leaves them). Core's columns hold those numbers — the merger derives columns from
 * them (SUM(DISTINCT x) is x's length + 22 long) and the server's face restores MySQL's from them
 * (ColumnDefinitions) — so a unit read natively must give the same, or the client sees another length:
 * a native SUM(DISTINCT quantity) over an INT was once described 33 long where MySQL says 32, since the
 * wire says INT is 11 long and Connector/J 10.
 */
final class DriverColumns {
    private static final int NOT_FIXED_DECIMALS = 31;
    private static final int FLAG_BLOB = 16;
    private static final int BIT = 16;

    private DriverColumns() {}

    /**
     * An integer's length is its type's digit count (MysqlType's precision: TINYINT 3, SMALLINT 5, MEDIUMINT
     * 7 or unsigned 8, INT 10, BIGINT 19 or unsigned 20) — except a signed TINYINT(1), which the driver takes
     * for a BIT (tinyInt1isBit) and leaves 1 long. A DECIMAL's is its precision: the wire's minus the sign
     * and the point (never below 0, where the driver would go negative). Other types keep the wire's.
     */
    static long length(ColumnDefinition d) {
        boolean unsigned = (d.flags() & Column.FLAG_UNSIGNED) != 0;
        return switch (d.type()) {
            case BinaryType.TINY -> !unsigned && d.length() == 1 ? 1 : 3;
            case BinaryType.SHORT -> 5;
            case BinaryType.INT24 -> unsigned ? 8 : 7;
            case BinaryType.LONG -> 10;
            case BinaryType.LONGLONG -> unsigned ? 20 : 19;
            case BinaryType.DECIMAL, BinaryType.NEWDECIMAL ->
                    Math.max(0, d.length() - (d.decimals() > 0 ? 1 : 0) - (unsigned ? 0 : 1));
            default -> d.length();
        };
    }

    /** FLOAT's and DOUBLE's "not fixed" scale (31) the driver reports as 0. */
    static int decimals(ColumnDefinition d) {
        boolean floating = d.type() == BinaryType.FLOAT || d.type() == BinaryType.DOUBLE;
        return floating && d.decimals() == NOT_FIXED_DECIMALS ? 0 : d.decimals();
    }

    /**
     * The driver marks binary strings (CHAR/VARCHAR of the binary collation: BINARY, VARBINARY) and BITs
     * wider than one bit as BINARY and BLOB; the rest as sent.
     */
    static int flags(ColumnDefinition d) {
        int flags = d.flags() & 0xFFFF;
        boolean binaryString = (flags & Column.FLAG_BINARY) != 0 && d.collation() == Column.BINARY_COLLATION
                && !d.table().startsWith("#sql_")
                && (d.type() == BinaryType.STRING || d.type() == BinaryType.VAR_STRING || d.type() == BinaryType.VARCHAR);
        boolean wideBit = d.type() == BIT && d.length() > 1;
        return binaryString || wideBit ? flags | Column.FLAG_BINARY | FLAG_BLOB : flags;
    }
}
