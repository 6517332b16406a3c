package io.shardwise.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.execute.Column;
import org.junit.jupiter.api.Test;

class ColumnDefinitionsTest {
    private static Column column(int type, long length, int flags, int decimals) {
        return new Column("shop", "t", "t", "c", "c", 63, length, type, flags, decimals);
    }

    @Test
    void decimalLengthsCountTheSignAndTheDecimalPointAsMysqlSendsThem() {
        assertEquals(12, ColumnDefinitions.wireLength(column(246, 10, 0, 2)), "DECIMAL(10,2)");
        assertEquals(9, ColumnDefinitions.wireLength(column(246, 8, Column.FLAG_UNSIGNED, 2)), "DECIMAL(8,2) UNSIGNED");
        assertEquals(11, ColumnDefinitions.wireLength(column(246, 10, 0, 0)), "DECIMAL(10,0)");
        assertEquals(5, ColumnDefinitions.wireLength(column(0, 4, 0, 0)), "old DECIMAL type");
    }

    @Test
    void otherTypesKeepTheirLength() {
        assertEquals(11, ColumnDefinitions.wireLength(column(3, 11, 0, 0)));
        assertEquals(22, ColumnDefinitions.wireLength(column(5, 22, 0, 31)));
        assertEquals(256, ColumnDefinitions.of(column(253, 256, 0, 0)).length());
    }
}
