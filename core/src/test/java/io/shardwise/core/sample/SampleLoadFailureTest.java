package io.shardwise.core.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** Loader failures say which backend and URL failed, and never show the password. */
class SampleLoadFailureTest {
    private static final String PASSWORD = "hunter2-secret";

    @Test
    void unreachableBackendFailsNamingTheBackendAndUrlButNotThePassword() throws IOException {
        int port = closedPort();
        SampleTarget target = new SampleTarget("127.0.0.1", port, "root", PASSWORD, TestBackends.uniqueSchemaName("sample_failure"));
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> SampleData.loadSharded(SampleData.rule(target)));
        assertEquals(ErrorCode.SHARD_UNAVAILABLE, e.code());
        assertTrue(e.getMessage().contains("backend ds0 at jdbc:mysql://127.0.0.1:" + port + "/" + target.databasePrefix() + "_0?"),
                e.getMessage());
        assertNoPassword(e);
    }

    @Test
    void unreachableOracleFailsNamingItsDatabase() throws IOException {
        int port = closedPort();
        SampleTarget target = new SampleTarget("127.0.0.1", port, "root", PASSWORD, "unused");
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> SampleData.loadUnsharded(target, "oracle_db"));
        assertTrue(e.getMessage().contains("unsharded database oracle_db at jdbc:mysql://127.0.0.1:" + port + "/oracle_db?"),
                e.getMessage());
        assertNoPassword(e);
    }

    @Test
    void rejectedCredentialsFailNamingTheBackendButNotThePassword() {
        MysqlServer server = TestBackends.shared();
        SampleTarget target = new SampleTarget(server.host(), server.port(), "no_such_user_sw", PASSWORD,
                TestBackends.uniqueSchemaName("sample_failure"));
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> SampleData.loadSharded(SampleData.rule(target)));
        assertTrue(e.getMessage().contains("backend ds0") && e.getMessage().contains("'no_such_user_sw'"), e.getMessage());
        assertNoPassword(e);
    }

    @Test
    void passwordParametersInUrlsAreMasked() {
        assertEquals("jdbc:mysql://h:1/db?user=a&password=***&sslMode=DISABLED&PWD=***",
                SampleLoader.redact("jdbc:mysql://h:1/db?user=a&password=p%26w&sslMode=DISABLED&PWD=x"));
    }

    @Test
    void databaseNamesThatWouldNeedQuotingAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new SampleTarget("h", 1, "u", "", "shop-1"));
        SampleTarget target = new SampleTarget("h", 1, "u", "", "shop");
        assertThrows(IllegalArgumentException.class, () -> SampleData.loadUnsharded(target, "x`; DROP DATABASE y"));
    }

    private static void assertNoPassword(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            assertFalse(String.valueOf(t.getMessage()).contains(PASSWORD), t.toString());
            assertFalse(t.toString().contains(PASSWORD), t.toString());
        }
    }

    /** A port nothing listens on: bound and released, so connecting is refused at once. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
