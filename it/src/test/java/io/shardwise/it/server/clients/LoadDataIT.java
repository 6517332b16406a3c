package io.shardwise.it.server.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.it.server.clients.ClientFixture.Endpoint;
import io.shardwise.it.server.clients.ClientProcess.Result;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14 item 7: {@code LOAD DATA LOCAL INFILE} through the server, on both paths (packet relay on
 * and off), by PyMySQL, the mariadb CLI and Connector/J, each transcript (affected rows, MySQL's
 * info string, SHOW WARNINGS, the rows written) equal to the same client's against one MariaDB
 * holding the same data: sharded rows routed by their key, a broadcast table's copies, a single
 * table, REPLACE / IGNORE, IGNORE n LINES, STARTING BY, @variables and SET, short and long rows.
 */
class LoadDataIT {
    private static ClientFixture fixture;
    @RegisterExtension
    static final ClientFixture.Lifecycle LIFECYCLE = new ClientFixture.Lifecycle(() -> ClientFixture.start("loaddata"), f -> fixture = f);

    private static Path root() {
        return Path.of(System.getProperty("shardwise.root", "..")).toAbsolutePath().normalize();
    }

    @Test
    void pymysqlLoadsAsOneMariaDbOnEveryPath() {
        String python = ClientProcess.require("python3 with PyMySQL (apt-get install python3-pymysql)", "/usr/bin/python3", "python3");
        String script = root().resolve("it/src/test/python/pymysql_load_data.py").toString();
        Function<Endpoint, Result> client = e -> ClientProcess.run(List.of(python, script, e.host(),
                Integer.toString(e.port()), e.user(), e.password(), e.database()), null, null, 120);
        Result direct = client.apply(fixture.direct());
        assertEquals(0, direct.exit(), direct::describe);
        assertTrue(direct.out().contains("Records: 49  Deleted: 0  Skipped: 1"), direct::describe);
        Result relay = client.apply(fixture.viaServer());
        assertEquals(0, relay.exit(), relay::describe);
        assertEquals(fixture.logical(direct.out()), relay.out(), "relay on");
        Result executor = client.apply(fixture.viaExecutor());
        assertEquals(0, executor.exit(), executor::describe);
        assertEquals(fixture.logical(direct.out()), executor.out(), "relay off");
    }

    @Test
    void theMariaDbClientLoadsAsOneMariaDb() throws Exception {
        String binary = ClientProcess.require("the MariaDB command-line client (apt-get install mariadb-client)", "mariadb", "mysql");
        Path file = Files.createTempFile("shardwise-load", ".csv");
        try {
            Files.writeString(file, "780001;'a;b';1.5\n780002;\\N;x\n780003;c\n780004;'d''e';2;extra\n780002;dup;3\n");
            String sql = "LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE users FIELDS TERMINATED BY ';' ENCLOSED BY ''''"
                    + " (user_id, name, @n) SET email = CONCAT('n', @n);"
                    + " SELECT user_id, name, email FROM users WHERE user_id BETWEEN 780000 AND 789999 ORDER BY user_id;";
            Function<String, Function<Endpoint, Result>> client = option -> e -> {
                try (Connection c = connect(e, ""); Statement s = c.createStatement()) {
                    s.execute("DELETE FROM users WHERE user_id BETWEEN 780000 AND 789999");
                } catch (SQLException failed) {
                    throw new AssertionError(failed);
                }
                return ClientProcess.run(List.of(binary, "--protocol=TCP", "-h", e.host(), "-P", Integer.toString(e.port()), "-u", e.user(),
                        "-p" + e.password(), "--skip-ssl", option, "-vvv", "--table", "--show-warnings", "-e", sql, e.database()), null, null, 120);
            };
            for (String option : List.of("--local-infile=1", "--local-infile=0")) {
                Result direct = client.apply(option).apply(fixture.direct());
                String expected = timeless(fixture.logical(direct.out() + direct.err()));
                if (option.endsWith("1")) {
                    assertEquals(0, direct.exit(), direct::describe);
                    assertTrue(expected.contains("Records: 5  Deleted: 0  Skipped: 1  Warnings: "), expected);
                } else {
                    assertNotEquals(0, direct.exit(), direct::describe);
                }
                for (Endpoint shardwise : List.of(fixture.viaServer(), fixture.viaExecutor())) {
                    Result through = client.apply(option).apply(shardwise);
                    assertEquals(direct.exit(), through.exit(), through::describe);
                    assertEquals(expected, timeless(through.out() + through.err()), () -> option + " through port " + shardwise.port()
                            + ": " + through.describe());
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** The CLI's timings ("(0.001 sec)") differ run to run; it prompts for the backend's empty password. */
    private static String timeless(String out) {
        return out.replaceAll("\\(\\d+\\.\\d+ sec\\)", "(time)").replace("Enter password: ", "");
    }

    @Test
    void connectorJLoadsFilesAndStreamsAsOneMariaDb() throws Exception {
        Path file = Files.createTempFile("shardwise-load", ".tsv");
        try {
            StringBuilder rows = new StringBuilder();
            for (int i = 0; i < 300; i++) {
                rows.append(790000 + i).append('\t').append(i % 7 == 0 ? "\\N" : "name " + i).append('\t')
                        .append(i % 11 == 0 ? "2024-02-30" : "2024-01-0" + (1 + i % 9)).append('\n');
            }
            Files.writeString(file, rows);
            for (String options : List.of("", "&useServerPrepStmts=true")) {
                List<String> direct = connectorJ(fixture.direct(), options, file);
                assertTrue(direct.get(0).startsWith("file: 300 [1265 Data truncated for column 'created_at' at row 1]"), direct::toString);
                assertEquals(direct, connectorJ(fixture.viaServer(), options, file), "relay on " + options);
                assertEquals(direct, connectorJ(fixture.viaExecutor(), options, file), "relay off " + options);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void theJdbcDriverReadsTheFileInTheApplicationsProcess() throws Exception {
        io.shardwise.it.jdbc.Fixture data = io.shardwise.it.jdbc.Fixture.get();
        Path file = Files.createTempFile("shardwise-load", ".csv");
        try {
            Files.writeString(file, "796001,\"x, y\",DE\n796002,\\N,FRA\n796003\n796001,dup,IT\n");
            String shardwiseUrl = "jdbc:shardwise:" + data.configFile() + "?allowLoadLocalInfile=true";
            List<String> direct = driverLoad(data.direct("allowLoadLocalInfile=true"), file);
            assertTrue(direct.get(0).startsWith("3 ["), direct::toString);
            assertEquals(direct, driverLoad(DriverManager.getConnection(shardwiseUrl), file));
            SQLException refused = assertThrows(SQLException.class, () -> driverLoad(data.shardwise(), file));
            assertEquals(4166, refused.getErrorCode(), refused.getMessage());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static List<String> driverLoad(Connection connection, Path file) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connection; Statement s = c.createStatement()) {
            s.execute("DELETE FROM users WHERE user_id >= 796000");
            int n = s.executeUpdate("LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE users FIELDS TERMINATED BY ','"
                    + " OPTIONALLY ENCLOSED BY '\"' (user_id, name, country_code)");
            out.add(n + " " + warnings(s.getWarnings()));
            try (ResultSet rs = s.executeQuery("SELECT user_id, name, country_code FROM users WHERE user_id >= 796000 ORDER BY user_id")) {
                while (rs.next()) {
                    out.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3));
                }
            }
        }
        return out;
    }

    private static List<String> connectorJ(Endpoint e, String options, Path file) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(e, "allowLoadLocalInfile=true" + options); Statement s = c.createStatement()) {
            s.execute("DELETE FROM users WHERE user_id BETWEEN 790000 AND 795999");
            int n = s.executeUpdate("LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE users (user_id, name, created_at)");
            out.add("file: " + n + " " + warnings(s.getWarnings()));
            s.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).setLocalInfileInputStream(new ByteArrayInputStream(
                    "790000,streamed,DE\n791000,new,FR\n".getBytes(StandardCharsets.UTF_8)));
            n = s.executeUpdate("LOAD DATA LOCAL INFILE 'ignored' REPLACE INTO TABLE users FIELDS TERMINATED BY ','"
                    + " (user_id, name, country_code)");
            out.add("stream: " + n + " " + warnings(s.getWarnings()));
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(name), MIN(created_at), MAX(created_at), SUM(user_id),"
                    + " GROUP_CONCAT(country_code ORDER BY user_id) FROM users WHERE user_id BETWEEN 790000 AND 795999")) {
                rs.next();
                out.add("rows: " + rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4) + " "
                        + rs.getString(5) + " " + rs.getString(6));
            }
            try (ResultSet rs = s.executeQuery("SHOW WARNINGS")) {
                out.add("show warnings after a select: " + rs.next());
            }
        }
        return out;
    }

    @Test
    void generatedKeysFillAMissingKeyAndServerFilesAreRefused() throws SQLException {
        try (Connection c = connect(fixture.viaServer(), "allowLoadLocalInfile=true"); Statement s = c.createStatement()) {
            s.execute("DELETE FROM orders WHERE user_id >= 795000");
            s.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).setLocalInfileInputStream(new ByteArrayInputStream(
                    "795001,new,1.50,2025-01-01\n795002,paid,2.50,2025-01-02\n795003,new,3.50,2025-01-03\n795004,new,4.5,2025-01-04\n"
                            .getBytes(StandardCharsets.UTF_8)));
            assertEquals(4, s.executeUpdate("LOAD DATA LOCAL INFILE 'x' INTO TABLE orders FIELDS TERMINATED BY ','"
                    + " (user_id, status, amount, created_at)"));
            Set<Long> ids = new HashSet<>();
            for (long user = 795001; user <= 795004; user++) {
                try (ResultSet rs = s.executeQuery("SELECT order_id, status FROM orders WHERE user_id = " + user)) {
                    assertTrue(rs.next(), "the row of user " + user + " is on the shard its key routes to");
                    assertTrue(rs.getLong(1) > 0, "a generated order_id");
                    ids.add(rs.getLong(1));
                }
            }
            assertEquals(4, ids.size(), "distinct generated keys");
            SQLException server = assertThrows(SQLException.class, () -> s.execute("LOAD DATA INFILE '/etc/passwd' INTO TABLE users"));
            assertEquals(1235, server.getErrorCode(), server.getMessage());
            assertTrue(server.getMessage().contains("LOAD DATA INFILE of a file on the server's host"), server.getMessage());
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders WHERE user_id >= 795000")) {
                rs.next();
                assertEquals(4, rs.getInt(1), "still usable after the refusal");
            }
        }
    }

    /**
     * Inside a transaction LOAD DATA leaves the client's savepoints alone: it used to set, move and
     * release one of its own under a name a client may use, so the client's ROLLBACK TO that name
     * failed with 1305 or undid less than it should. (With LOCAL a duplicate key is skipped with a
     * warning, as under IGNORE.)
     */
    @Test
    void inATransactionALoadKeepsTheClientsSavepoints() throws SQLException {
        List<String> direct = loadInTransaction(fixture.direct());
        assertTrue(direct.contains("rollback to: ok"), direct::toString);
        assertTrue(direct.stream().anyMatch(line -> line.startsWith("load with a duplicate: 3 [1062")), direct::toString);
        assertEquals(direct, loadInTransaction(fixture.viaServer()), "relay on");
        assertEquals(direct, loadInTransaction(fixture.viaExecutor()), "relay off");
    }

    private static List<String> loadInTransaction(Endpoint e) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(e, "allowLoadLocalInfile=true"); Statement s = c.createStatement()) {
            s.execute("DELETE FROM users WHERE user_id BETWEEN 797000 AND 797999");
            c.setAutoCommit(false);
            s.execute("INSERT INTO users (user_id, name, country_code) VALUES (797000, 'before', 'DE')");
            s.execute("SAVEPOINT shardwise_load_data");
            s.execute("INSERT INTO users (user_id, name, country_code) VALUES (797001, 'after the savepoint', 'DE')");
            out.add("load: " + streamLoad(s, "797002,a,DE\n797003,b,FR\n797005,c,IT\n"));
            out.add("load with a duplicate: " + streamLoad(s, "797004,d,DE\n797006,e,FR\n797000,duplicate,IT\n797007,f,DE\n")
                    + " " + warnings(s.getWarnings()));
            out.add("rows: " + userRows(s));
            try {
                s.execute("ROLLBACK TO SAVEPOINT shardwise_load_data");
                out.add("rollback to: ok");
            } catch (SQLException lost) {
                out.add("rollback to: " + lost.getErrorCode() + " " + lost.getMessage());
            }
            out.add("rows: " + userRows(s));
            c.rollback();
            out.add("after rollback: " + userRows(s));
        }
        return out;
    }

    private static int streamLoad(Statement s, String rows) throws SQLException {
        s.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).setLocalInfileInputStream(
                new ByteArrayInputStream(rows.getBytes(StandardCharsets.UTF_8)));
        return s.executeUpdate("LOAD DATA LOCAL INFILE 'x' INTO TABLE users FIELDS TERMINATED BY ','"
                + " (user_id, name, country_code)");
    }

    private static String userRows(Statement s) throws SQLException {
        StringBuilder rows = new StringBuilder();
        try (ResultSet rs = s.executeQuery("SELECT user_id, name FROM users WHERE user_id BETWEEN 797000 AND 797999 ORDER BY user_id")) {
            while (rs.next()) {
                rows.append(rs.getLong(1)).append('=').append(rs.getString(2)).append(' ');
            }
        }
        return rows.toString().trim();
    }

    /** Issue 14 item 10: a sharded table's statistics in information_schema.TABLES are the whole table's, not one shard's. */
    @Test
    void informationSchemaSumsTheStatisticsOfEveryShard() throws SQLException {
        long rows = 0;
        long data = 0;
        long index = 0;
        for (String db : List.of(fixture.databasePrefix() + "_0", fixture.databasePrefix() + "_1")) {
            try (Connection c = fixture.backend().connect(db); Statement s = c.createStatement()) {
                s.execute("ANALYZE TABLE users_0, users_1");
                try (ResultSet rs = s.executeQuery("SELECT SUM(TABLE_ROWS), SUM(DATA_LENGTH), SUM(INDEX_LENGTH) FROM information_schema.TABLES"
                        + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('users_0', 'users_1')")) {
                    rs.next();
                    rows += rs.getLong(1);
                    data += rs.getLong(2);
                    index += rs.getLong(3);
                }
            }
        }
        for (Endpoint e : List.of(fixture.viaServer(), fixture.viaExecutor())) {
            try (Connection c = connect(e, ""); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT TABLE_NAME, TABLE_ROWS, DATA_LENGTH, INDEX_LENGTH, AUTO_INCREMENT"
                        + " FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'users'")) {
                    assertTrue(rs.next());
                    assertEquals("users", rs.getString(1));
                    assertEquals(rows, rs.getLong(2), "TABLE_ROWS of every shard");
                    assertEquals(data, rs.getLong(3), "DATA_LENGTH of every shard");
                    assertEquals(index, rs.getLong(4), "INDEX_LENGTH of every shard");
                    assertEquals(null, rs.getObject(5), "no AUTO_INCREMENT column");
                }
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM users")) {
                    rs.next();
                    assertEquals(rs.getLong(1), rows, "InnoDB counts these small tables exactly");
                }
                for (String table : List.of("VIEWS", "PROCESSLIST")) {
                    SQLException refused = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM information_schema." + table));
                    assertEquals(1235, refused.getErrorCode(), refused.getMessage());
                    assertTrue(refused.getMessage().contains("information_schema." + table + " ("), refused.getMessage());
                }
            }
        }
    }

    private static String warnings(SQLWarning w) {
        StringBuilder out = new StringBuilder();
        for (; w != null; w = w.getNextWarning()) {
            out.append('[').append(w.getErrorCode()).append(' ').append(w.getMessage()).append(']');
        }
        return out.toString();
    }

    private static Connection connect(Endpoint e, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + e.host() + ":" + e.port() + "/" + e.database()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8&" + options, e.user(), e.password());
    }
}
