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
    void signedIntegersGetTheirSignBackAsMysqlCountsItInTheDisplayWidth() {
        assertEquals(20, ColumnDefinitions.wireLength(column(8, 19, 0, 0)), "BIGINT");
        assertEquals(20, ColumnDefinitions.wireLength(column(8, 20, Column.FLAG_UNSIGNED, 0)), "BIGINT UNSIGNED");
        assertEquals(11, ColumnDefinitions.wireLength(column(3, 10, 0, 0)), "INT");
        assertEquals(10, ColumnDefinitions.wireLength(column(3, 10, Column.FLAG_UNSIGNED, 0)), "INT UNSIGNED");
        assertEquals(4, ColumnDefinitions.wireLength(column(1, 3, 0, 0)), "TINYINT");
        assertEquals(6, ColumnDefinitions.wireLength(column(2, 5, 0, 0)), "SMALLINT");
        assertEquals(9, ColumnDefinitions.wireLength(column(9, 7, 0, 0)), "MEDIUMINT");
        assertEquals(8, ColumnDefinitions.wireLength(column(9, 8, Column.FLAG_UNSIGNED, 0)), "MEDIUMINT UNSIGNED");
        assertEquals(1, ColumnDefinitions.wireLength(column(1, 1, 0, 0)), "TINYINT(1) keeps the width that makes it a boolean");
    }

    @Test
    void floatingPointColumnsWithoutFixedDecimalsSay31() {
        assertEquals(31, ColumnDefinitions.wireDecimals(column(4, 12, 0, 0)), "FLOAT");
        assertEquals(31, ColumnDefinitions.of(column(5, 22, 0, 0)).decimals(), "DOUBLE");
        assertEquals(2, ColumnDefinitions.wireDecimals(column(5, 10, 0, 2)), "DOUBLE(10,2)");
        assertEquals(0, ColumnDefinitions.wireDecimals(column(3, 11, 0, 0)), "INT");
    }

    @Test
    void otherTypesKeepTheirLength() {
        assertEquals(22, ColumnDefinitions.wireLength(column(5, 22, 0, 31)));
        assertEquals(256, ColumnDefinitions.of(column(253, 256, 0, 0)).length());
    }
}
