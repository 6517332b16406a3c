package io.shardwise.core.execute;

import static io.shardwise.core.execute.ExecutionSessionTest.unit;
import static io.shardwise.core.execute.Shards.insert;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.TransactionConfig;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.testkit.FaultProxy;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transaction mode xa against real MariaDB: ds0 on the shared server, ds1 on the same server
 * through a {@link FaultProxy} that cuts ds1's connection at a chosen XA step. Every test ends by
 * checking each backend directly: a transaction's rows are on all of its backends or on none.
 */
class XaTransactionTest {
    @TempDir
    static Path dir;
    private static MysqlServer real;
    private static FaultProxy proxy;
    private static Shards shards;
    private static Path log;
    private static String instance;

    @BeforeAll
    static void createBackends() {
        real = TestBackends.shared();
        proxy = FaultProxy.to(real.host(), real.port());
        log = dir.resolve("decisions.log");
        instance = "t" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        shards = new Shards(Shards.SMALL_POOL, TransactionConfig.xa(log, instance), real, proxy.view(real));
        for (int i = 0; i < 2; i++) {
            shards.sql(i, "CREATE TABLE t (id INT PRIMARY KEY) ENGINE=InnoDB");
        }
    }

    @AfterAll
    static void dropBackends() {
        shards.close();
        proxy.close();
    }

    @BeforeEach
    void emptyTables() {
        proxy.disarm();
        shards.sql(0, "DELETE FROM t");
        shards.sql(1, "DELETE FROM t");
    }

    @AfterEach
    void nothingIsLeftCheckedOutOrInDoubt() {
        Shards.await(() -> shards.pools.activeConnections() == 0, "every connection is back in its pool");
        assertEquals(List.of(), prepared("sw." + instance + "."), "no branch of this instance is left in doubt");
    }

    /** Read on the real server, never through the proxy. */
    private static String ids(int backend) {
        try (Connection c = real.connect(shards.schemas.get(backend)); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COALESCE(GROUP_CONCAT(id ORDER BY id), '') FROM t")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> decisions() {
        try {
            return Files.readAllLines(log, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** "gtrid/bqual" of every prepared branch on the server whose gtrid starts with {@code prefix}. */
    private static List<String> prepared(String prefix) {
        List<String> xids = new ArrayList<>();
        try (Connection c = real.connect(null); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("XA RECOVER")) {
            while (rs.next()) {
                byte[] data = rs.getBytes(4);
                String gtrid = new String(data, 0, rs.getInt(2), StandardCharsets.US_ASCII);
                if (gtrid.startsWith(prefix)) {
                    xids.add(gtrid + "/" + new String(data, rs.getInt(2), rs.getInt(3), StandardCharsets.UTF_8));
                }
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        return xids;
    }

    @Test
    void aTransactionOverTwoBackendsLogsItsDecisionAndCommitsOnBoth() {
        int before = decisions().size();
        try (ExecutionSession s = shards.session()) {
            s.begin();
            insert(s, 0, 1);
            insert(s, 1, 2);
            assertEquals("", ids(0), "nothing is visible before the commit");
            s.commit();
            assertFalse(s.inTransaction());
        }
        assertEquals("1", ids(0));
        assertEquals("2", ids(1));
        assertEquals(before + 1, decisions().size(), "the commit decision was logged: " + decisions());
        assertTrue(decisions().getLast().startsWith("C sw." + instance + "."), decisions().getLast());
    }

    @Test
    void aOneBackendTransactionCommitsInOnePhaseAndWritesNoDecision() {
        int before = decisions().size();
        try (ExecutionSession s = shards.session()) {
            s.begin();
            insert(s, 1, 1);
            insert(s, 1, 2);
            s.commit();
        }
        assertEquals("1,2", ids(1));
        assertEquals(before, decisions().size(), "no prepare, no log write");
    }

    @Test
    void aBranchThatOnlyReadCommitsWithTheOthers() {
        shards.sql(0, "INSERT INTO t (id) VALUES (5)");
        try (ExecutionSession s = shards.session()) {
            s.begin();
            assertEquals("1", Shards.single(s.execute(List.of(unit("ds0", "SELECT COUNT(*) FROM t"))).getFirst()));
            insert(s, 1, 2);
            s.commit();
        }
        assertEquals("2", ids(1));
    }

    @Test
    void rollbackUndoesEveryBranch() {
        shards.assertRollbackUndoesBothBackends(XaTransactionTest::ids);
    }

    @Test
    void aSavepointSetBeforeABackendJoinedAlsoUndoesThatBackendsWork() {
        shards.assertSavepointSetBeforeABackendJoinedUndoesItsWork(XaTransactionTest::ids);
    }

    @Test
    void aStatementThatWouldCommitImplicitlyIsRefusedWith1399AndTheTransactionGoesOn() {
        try (ExecutionSession s = shards.session()) {
            s.begin();
            insert(s, 0, 1);
            io.shardwise.core.error.BackendException e = assertThrows(io.shardwise.core.error.BackendException.class,
                    () -> s.execute(List.of(unit("ds0", "CREATE TABLE u (id INT)"))));
            assertEquals(1399, e.errno());
            insert(s, 1, 2);
            s.commit();
        }
        assertEquals("1", ids(0));
        assertEquals("2", ids(1));
    }

    @Test
    void aPrepareThatFailsOnOneBackendRollsBackEveryBackend() {
        int before = decisions().size();
        proxy.arm("XA PREPARE", FaultProxy.Fault.CUT);
        try (ExecutionSession s = shards.session()) {
            s.begin();
            insert(s, 0, 1);
            insert(s, 1, 2);
            ShardwiseException e = assertThrows(ShardwiseException.class, s::commit);
            assertTrue(e.getMessage().contains("rolled back on every backend"), e.getMessage());
            assertFalse(s.inTransaction());
        }
        assertEquals(1, proxy.fired(), "ds1's connection was cut as it sent XA PREPARE");
        assertEquals(before, decisions().size(), "no commit decision");
        assertEquals(List.of(), shards.pools.recoverTransactions().failures());
        assertEquals("", ids(0), "ds0 had prepared: rolled back");
        assertEquals("", ids(1));
    }

    @Test
    void aBackendLostBetweenPrepareAndCommitGetsTheCommitFromRecovery() {
        int fired = proxy.fired();
        proxy.arm("XA COMMIT", FaultProxy.Fault.CUT);
        try (ExecutionSession s = shards.session()) {
            s.begin();
            insert(s, 0, 1);
            insert(s, 1, 2);
            s.commit(); // decided and logged: committed, though ds1 has not heard it yet
        }
        assertEquals(fired + 1, proxy.fired(), "ds1's connection was cut as it sent XA COMMIT");
        assertEquals("1", ids(0));
        RecoveryReport r = shards.pools.recoverTransactions(); // the coordinator may have run one already (kick)
        assertEquals(List.of(), r.failures());
        assertEquals("2", ids(1), "recovery committed ds1's prepared branch");
        assertTrue(decisions().isEmpty(), "a pass that finished every branch drops their decisions: " + decisions());
    }

    @Test
    void anotherInstanceNeverResolvesThisInstancesBranchesAndThisOneResolvesThemByItsLog(@TempDir Path other) throws Exception {
        String a = instance + "a";
        String committed = "sw." + a + ".x.1";
        String undecided = "sw." + a + ".x.2";
        String foreign = "someone-else";
        prepare(committed, 7, Xid.FORMAT_ID);
        prepare(undecided, 8, Xid.FORMAT_ID);
        prepare(foreign, 9, 1);
        try {
            Files.writeString(other.resolve("a.log"), "C " + committed + "\n");
            try (BackendPools b = pools(TransactionConfig.xa(other.resolve("b.log"), instance + "b"))) {
                RecoveryReport r = b.recoverTransactions();
                assertEquals(0, r.committed() + r.rolledBack(), r.toString());
            }
            assertEquals(2, prepared("sw." + a + ".").size(), "instance b left instance a's branches alone");
            try (BackendPools pa = pools(TransactionConfig.xa(other.resolve("a.log"), a))) {
                pa.recoverTransactions();
                Shards.await(() -> prepared("sw." + a + ".").isEmpty(), "instance a resolved its branches");
            }
            assertEquals("7", ids(1), "the logged decision committed x.1, presumed abort rolled back x.2");
            assertEquals(1, prepared(foreign).size(), "an XID of another format is nobody's business");
        } finally {
            try (Connection c = real.connect(null); Statement s = c.createStatement()) {
                s.execute("XA ROLLBACK '" + foreign + "','ds1',1");
            }
        }
    }

    @Test
    void recoveryLeavesABranchAloneWhileItsLiveCoordinatorIsDecidingIt() throws Exception {
        XaCoordinator xa = shards.pools.xa();
        String gtrid = xa.newGtrid();
        prepare(gtrid, 3, Xid.FORMAT_ID);
        xa.begin(gtrid); // between PREPARE and the decision, as far as recovery can tell
        try {
            assertEquals(List.of(), shards.pools.recoverTransactions().failures());
            assertEquals(List.of(gtrid + "/ds1"), prepared(gtrid), "a live transaction's branch is not recovery's to resolve");
        } finally {
            xa.end(gtrid);
        }
        assertEquals(List.of(), shards.pools.recoverTransactions().failures());
        assertEquals(List.of(), prepared(gtrid), "once it is over, an undecided branch is rolled back (presumed abort)");
        assertEquals("", ids(1));
    }

    /** A prepared branch of ds1 made by hand, as a crashed coordinator would leave it. */
    private static void prepare(String gtrid, int id, int format) throws SQLException {
        String xid = "'" + gtrid + "','ds1'," + format;
        try (Connection c = real.connect(shards.schemas.get(1)); Statement s = c.createStatement()) {
            s.execute("XA START " + xid);
            s.execute("INSERT INTO t (id) VALUES (" + id + ")");
            s.execute("XA END " + xid);
            s.execute("XA PREPARE " + xid);
        }
    }

    private static BackendPools pools(TransactionConfig transaction) {
        List<BackendConfig> configs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            configs.add(new BackendConfig("ds" + i, real.jdbcUrl(shards.schemas.get(i)), real.user(), real.password(), Shards.SMALL_POOL));
        }
        return new BackendPools(configs, BackendMessages.NONE, transaction);
    }
}
