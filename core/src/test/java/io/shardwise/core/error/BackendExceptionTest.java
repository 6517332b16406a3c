package io.shardwise.core.error;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.mysql.cj.jdbc.exceptions.MysqlDataTruncation;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class BackendExceptionTest {
    @Test
    void aTruncationReadsAsConnectorJWordsItButGoesOnTheWireAsMysqlSentIt() {
        // what Connector/J makes of ERR 1406 from a backend
        SQLException cause = new MysqlDataTruncation("Data too long for column 'code' at row 1", 0, false, false, 0, 0, 1406);
        BackendException e = new BackendException("ds0", cause);
        assertEquals("Data truncation: Data too long for column 'code' at row 1", e.getMessage());
        assertEquals("Data too long for column 'code' at row 1", e.wireMessage());
        assertEquals(1406, e.errno());
        assertEquals("22001", e.sqlState());
    }

    @Test
    void otherBackendErrorsGoOnTheWireUnchanged() {
        BackendException e = new BackendException("ds0", new SQLException("Data truncation: a column comment", "42S22", 1054));
        assertEquals(e.getMessage(), e.wireMessage());
        assertEquals(new ShardwiseException(ErrorCode.UNSUPPORTED, "x").getMessage(),
                new ShardwiseException(ErrorCode.UNSUPPORTED, "x").wireMessage());
    }
}
