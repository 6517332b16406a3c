package io.shardwise.it.server.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.Engine;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.it.server.clients.ClientFixture.Endpoint;
import io.shardwise.it.server.clients.ClientProcess.Result;
import io.shardwise.server.ShardwiseServer;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 14 item 12: {@code mysqldump} and {@code mariadb-dump} of the sharded sample through
 * Shardwise (defaults, which LOCK TABLES every logical table, and {@code --single-transaction}), the
 * file restored through Shardwise with the {@code mariadb} CLI into an empty copy of the layout, then
 * every physical table of the copy compared with the original row by row: each logical table whole,
 * each row on its shard. The dump itself must read as one MySQL's: one CREATE TABLE per logical
 * table under its logical name, and all its rows.
 */
class DumpAndRestoreIT {
    private static ClientFixture source;
    private static SampleTarget copyTarget;
    private static Engine copyEngine;
    private static ShardwiseServer copyServer;
    private static ShardwiseServer copyExecutorServer;

    @BeforeAll
    static void start() {
        source = ClientFixture.start("dump");
        MysqlServer backend = source.backend();
        copyTarget = new SampleTarget(backend.host(), backend.port(), backend.user(), backend.password(),
                TestBackends.uniqueSchemaName("restored"));
        copyEngine = Engine.start(SampleData.rule(copyTarget));
        copyServer = ShardwiseServer.start(copyEngine, "127.0.0.1", 0);
        copyExecutorServer = ShardwiseServer.start(copyEngine, copyEngine.rule().config().server().withRelay(false), 0);
    }

    @AfterAll
    static void stop() {
        if (copyServer != null) {
            copyServer.close();
            copyExecutorServer.close();
            copyEngine.close();
            source.backend().dropSchema(copyTarget.databasePrefix() + "_0");
            source.backend().dropSchema(copyTarget.databasePrefix() + "_1");
        }
        if (source != null) {
            source.close();
        }
    }

    @AfterEach
    void everyBackendConnectionIsReturned() throws InterruptedException {
        source.awaitEveryBackendConnectionReturned();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        while (copyEngine.activeConnections() != 0) {
            assertTrue(System.nanoTime() < deadline, "a backend connection of the copy was not returned to its pool");
            Thread.sleep(20);
        }
    }

    @ParameterizedTest(name = "{0} {1} (relay {2})")
    @CsvSource({
        "mysqldump, '', on",
        "mysqldump, --single-transaction, off",
        "mariadb-dump, '', off",
        "mariadb-dump, --single-transaction, on"})
    void dumpThroughShardwiseRestoresEveryRowOnItsShard(String tool, String option, String relay) throws Exception {
        Endpoint from = relay.equals("on") ? source.viaServer() : source.viaExecutor();
        List<String> command = new ArrayList<>(List.of(ClientProcess.require("mariadb-client (apt-get install mariadb-client)", tool),
                "--protocol=TCP", "-h", from.host(), "-P", Integer.toString(from.port()), "-u", from.user(), "-p" + from.password(),
                "--skip-ssl"));
        if (!option.isEmpty()) {
            command.add(option);
        }
        command.add(from.database());
        Result dump = ClientProcess.run(command, null, null, 300);
        assertEquals(0, dump.exit(), () -> tool + " " + option + ": " + dump.describe().substring(0, Math.min(4000, dump.describe().length())));
        assertTrue(dump.err().isBlank(), dump.err());
        dumpNamesLogicalTablesOnly(dump.out());

        emptyCopy();
        Path file = Files.createTempFile("shardwise-dump", ".sql");
        try {
            Files.writeString(file, dump.out());
            ShardwiseServer into = relay.equals("on") ? copyExecutorServer : copyServer; // restore through the other path
            String mariadb = ClientProcess.require("mariadb-client (apt-get install mariadb-client)", "mariadb", "mysql");
            Result restore = ClientProcess.run(List.of("sh", "-c", "'" + mariadb + "' --protocol=TCP -h 127.0.0.1 -P "
                    + into.address().getPort() + " -u app -papp --skip-ssl shop < '" + file + "'"), null, null, 300);
            assertEquals(0, restore.exit(), restore::describe);
            assertTrue(restore.err().isBlank(), restore.err());
        } finally {
            Files.deleteIfExists(file);
        }
        for (String shard : List.of("_0", "_1")) {
            sameTables(source.databasePrefix() + shard, copyTarget.databasePrefix() + shard);
        }
    }

    /** One CREATE TABLE per logical table, under the logical name, and no physical name anywhere. */
    private static void dumpNamesLogicalTablesOnly(String dump) {
        Matcher created = Pattern.compile("CREATE TABLE `([^`]+)`").matcher(dump);
        List<String> tables = new ArrayList<>();
        while (created.find()) {
            tables.add(created.group(1));
        }
        assertEquals(tables.stream().distinct().toList(), tables, "a logical table created twice");
        assertTrue(tables.containsAll(List.of("orders", "order_items", "users", "countries", "promotions", "events")), tables::toString);
        for (String physical : List.of("orders_0", "orders_1", "events_2025", "users_1")) {
            assertFalse(dump.contains("`" + physical + "`"), "the dump names the physical table " + physical);
        }
        assertFalse(dump.contains(source.databasePrefix()), "the dump names a backend database");
    }

    private static void emptyCopy() {
        for (String shard : List.of("_0", "_1")) {
            source.backend().dropSchema(copyTarget.databasePrefix() + shard);
            source.backend().createSchema(copyTarget.databasePrefix() + shard);
        }
    }

    /** Both databases hold the same tables, with the same definitions and the same rows. */
    private static void sameTables(String original, String copy) throws SQLException {
        TreeMap<String, List<String>> expected = contents(original);
        TreeMap<String, List<String>> actual = contents(copy);
        assertEquals(expected.keySet(), actual.keySet(), "physical tables of " + copy);
        for (String table : expected.keySet()) {
            assertEquals(expected.get(table), actual.get(table), copy + "." + table);
        }
    }

    /** Each table's definition (without its AUTO_INCREMENT counter) and its rows in primary-key order. */
    private static TreeMap<String, List<String>> contents(String database) throws SQLException {
        TreeMap<String, List<String>> out = new TreeMap<>();
        try (Connection c = source.backend().connect(database); Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SHOW TABLES")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            for (String table : tables) {
                List<String> lines = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("SHOW CREATE TABLE `" + table + "`")) {
                    rs.next();
                    lines.add(rs.getString(2).replaceAll(" AUTO_INCREMENT=\\d+", ""));
                }
                try (ResultSet rs = s.executeQuery("SELECT * FROM `" + table + "` ORDER BY 1, 2")) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int i = 1; i <= n; i++) {
                            row.append(rs.getString(i)).append('|');
                        }
                        lines.add(row.toString());
                    }
                }
                assertTrue(lines.size() > 1 || table.startsWith("events") || table.equals("autoinc"), () -> database + "." + table + " is empty");
                out.put(table, lines);
            }
        }
        return out;
    }
}
