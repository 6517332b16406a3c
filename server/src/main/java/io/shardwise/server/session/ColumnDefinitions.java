package io.shardwise.server.session;

import io.shardwise.core.execute.Column;
import io.shardwise.server.protocol.ColumnDefinition;

/**
 * The column-definition packet for an engine {@link Column}. The engine's DECIMAL length counts
 * digits only (Connector/J's {@code Field} removes the sign and the decimal point when it reads the
 * backend's packet); MySQL's wire length counts them, and clients take them off again to compute
 * precision, so they go back on here.
 */
final class ColumnDefinitions {
    private static final int TYPE_DECIMAL = 0;
    private static final int TYPE_NEWDECIMAL = 246;

    private ColumnDefinitions() {}

    static ColumnDefinition of(Column c) {
        return new ColumnDefinition(c.schema(), c.table(), c.orgTable(), c.name(), c.orgName(), c.collation(), wireLength(c),
                c.mysqlType(), c.flags(), c.decimals());
    }

    /** MySQL's my_decimal_precision_to_length_no_truncation for decimals; the length as it is for everything else. */
    static long wireLength(Column c) {
        if (c.mysqlType() != TYPE_DECIMAL && c.mysqlType() != TYPE_NEWDECIMAL) {
            return c.length();
        }
        return c.length() + (c.decimals() > 0 ? 1 : 0) + (c.isUnsigned() || c.length() == 0 ? 0 : 1);
    }
}
