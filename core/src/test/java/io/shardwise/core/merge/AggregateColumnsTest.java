package io.shardwise.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.execute.Column;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.AggregateSlot.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

class AggregateColumnsTest {
    /**
     * A merged COUNT(DISTINCT x) is described as the unit's COUNT(*) would be, in core's terms (Connector/J's):
     * BIGINT of length 19, as the oracle's direct database reports it (21 made JDBC's precision and display size 21).
     */
    @Test
    void countDistinctIsDescribedAsConnectorJDescribesOneMysqlsCount() {
        List<Column> out = AggregateColumns.of(List.of(Columns.varchar("COUNT(DISTINCT status)")),
                List.of(AggregateSlot.of(Kind.COUNT_DISTINCT, 0)));
        Column count = out.get(0);
        assertEquals(8, count.mysqlType());
        assertEquals(19, count.length());
        assertEquals(0, count.decimals());
        assertEquals(Column.BINARY_COLLATION, count.collation());
        assertEquals(Column.FLAG_NOT_NULL, count.flags() & Column.FLAG_NOT_NULL);
    }
}
