package io.shardwise.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.jdbc.Driver;
import io.shardwise.testkit.Await;
import io.shardwise.testkit.FaultProxy;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transaction mode xa through the JDBC driver: ds0 direct, ds1 behind a {@link FaultProxy}. The
 * recovery interval is an hour, so a branch that missed its commit is completed by the recovery a
 * failed commit starts by itself, not by a periodic pass.
 */
class XaDriverIT {
    @TempDir
    static Path dir;
    private static MysqlServer real;
    private static FaultProxy proxy;
    private static String s0;
    private static String s1;
    private static String url;

    @BeforeAll
    static void start() throws Exception {
        real = TestBackends.shared();
        proxy = FaultProxy.to(real.host(), real.port());
        s0 = TestBackends.uniqueSchemaName("xadriver0");
        s1 = TestBackends.uniqueSchemaName("xadriver1");
        for (String s : List.of(s0, s1)) {
            real.createSchema(s);
            try (Connection c = real.connect(s); Statement st = c.createStatement()) {
                st.execute("CREATE TABLE acct (id INT PRIMARY KEY, v INT) ENGINE=InnoDB");
            }
        }
        url = "jdbc:shardwise:" + config("driver.yaml", dir.resolve("xa.log"));
    }

    private static Path config(String name, Path log) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, """
                schema: bank
                backends:
                  ds0: { url: "%s", user: "%s", password: "%s" }
                  ds1: { url: "%s", user: "%s", password: "%s" }
                defaultBackend: ds0
                tables:
                  acct: { nodes: "ds${0..1}.acct", key: id, algorithm: { type: mod } }
                transaction: { mode: xa, log: "%s", recoveryInterval: 1h }
                """.formatted(real.jdbcUrl(s0), real.user(), real.password(), proxy.view(real).jdbcUrl(s1), real.user(),
                real.password(), log));
        return file;
    }

    @AfterAll
    static void stop() throws Exception {
        Driver.shutdown(url);
        proxy.close();
        real.dropSchema(s0);
        real.dropSchema(s1);
    }

    @BeforeEach
    void empty() throws Exception {
        proxy.disarm();
        for (String s : List.of(s0, s1)) {
            try (Connection c = real.connect(s); Statement st = c.createStatement()) {
                st.execute("DELETE FROM acct");
            }
        }
    }

    private static String ids(String schema) {
        try (Connection c = real.connect(schema); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT COALESCE(GROUP_CONCAT(id ORDER BY id), '') FROM acct")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aTransactionOverBothShardsCommitsOnBothAndLogsItsDecision() throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            long before = Files.readAllLines(dir.resolve("xa.log")).size(); // the engine, and its log, start with the first connection
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO acct (id, v) VALUES (2, 1), (3, 1)");
            c.commit();
            assertEquals(before + 1, Files.readAllLines(dir.resolve("xa.log")).size());
        }
        assertEquals("2", ids(s0));
        assertEquals("3", ids(s1));
    }

    @Test
    void aCommitThatMissedOneShardIsCompletedByTheRecoveryItStarts() throws Exception {
        int fired = proxy.fired();
        proxy.arm("XA COMMIT", FaultProxy.Fault.CUT);
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO acct (id, v) VALUES (4, 1), (5, 1)");
            c.commit(); // the decision is logged: committed, as the client is told
        }
        assertEquals(fired + 1, proxy.fired());
        assertEquals("4", ids(s0));
        Await.until("the branch ds1 missed is committed by recovery", () -> ids(s1).equals("5"));
    }

    @Test
    void anAutocommitWriteOverBothShardsIsAllOrNothing() throws Exception {
        proxy.arm("XA PREPARE", FaultProxy.Fault.CUT);
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO acct (id, v) VALUES (6, 1), (7, 1)"));
            assertTrue(e.getMessage().contains("rolled back on every backend"), e.getMessage());
        }
        assertEquals("", ids(s0));
        assertEquals("", ids(s1));
    }

    @Test
    void aSecondEngineOnTheSameLogRefusesToStart() throws Exception {
        String other = "jdbc:shardwise:" + config("other.yaml", dir.resolve("xa.log"));
        SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(other).close());
        assertEquals(1105, e.getErrorCode());
        assertTrue(e.getMessage().contains("in use by another Shardwise instance"), e.getMessage());
    }
}
