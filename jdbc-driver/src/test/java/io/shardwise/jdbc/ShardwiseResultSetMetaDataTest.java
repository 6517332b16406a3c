package io.shardwise.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.execute.Column;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShardwiseResultSetMetaDataTest {
    private static ShardwiseResultSetMetaData of(Column c) {
        return new ShardwiseResultSetMetaData(List.of(c), new ColumnType[] {ColumnType.of(c)});
    }

    /**
     * {@code status COLLATE utf8mb4_bin} reaches a utf8mb4_0900_ai_ci client with the BINARY flag and the
     * results' collation (255): Connector/J decides by the collation's name alone and says case-insensitive.
     */
    @Test
    void aTextColumnIsCaseSensitiveByItsCollationAloneAsConnectorJDecides() throws Exception {
        assertFalse(of(new Column("shop", "", "", "s", "", 255, 64, 253, Column.FLAG_BINARY, 0)).isCaseSensitive(1));
        assertTrue(of(new Column("shop", "", "", "s", "", 46, 64, 253, Column.FLAG_BINARY, 0)).isCaseSensitive(1));
        assertTrue(of(new Column("shop", "", "", "b", "", Column.BINARY_COLLATION, 64, 253, Column.FLAG_BINARY, 0)).isCaseSensitive(1));
        // a JSON or TEXT column of a _bin collation (LONGVARCHAR) whose collation id the table does not know: its BINARY flag
        assertTrue(of(new Column("shop", "", "", "j", "", 255, 1 << 30, 252, Column.FLAG_BINARY, 0)).isCaseSensitive(1));
        assertFalse(of(new Column("shop", "", "", "t", "", 255, 1 << 30, 252, 0, 0)).isCaseSensitive(1));
    }
}
