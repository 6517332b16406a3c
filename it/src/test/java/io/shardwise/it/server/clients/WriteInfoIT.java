package io.shardwise.it.server.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.it.server.clients.ClientFixture.Endpoint;
import io.shardwise.it.server.clients.ClientProcess.Result;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OK packet's info string of UPDATEs and multi-row INSERTs spread over shards ({@code Rows
 * matched: N  Changed: C  Warnings: W}, {@code Records: N  Duplicates: D  Warnings: W}) and their
 * affected rows, with and without CLIENT_FOUND_ROWS, by PyMySQL, the mariadb CLI and Connector/J,
 * through the server on both paths (packet relay on and off: writes take the executor on either),
 * each transcript equal to the same client's against one MariaDB holding the same data. Each run
 * through Shardwise follows a run against the one MariaDB, so both have seen the same writes before.
 */
class WriteInfoIT {
    private static ClientFixture fixture;
    @RegisterExtension
    static final ClientFixture.Lifecycle LIFECYCLE = new ClientFixture.Lifecycle(() -> ClientFixture.start("writeinfo"), f -> fixture = f);

    private static final List<String> STATEMENTS = List.of(
            "UPDATE users SET name = CONCAT(name, '') WHERE user_id < 20",
            "UPDATE users SET name = 'cj' WHERE user_id BETWEEN 1 AND 9",
            "UPDATE orders SET status = 'lim' WHERE user_id < 50 ORDER BY order_id LIMIT 5",
            "INSERT INTO users (user_id, name) VALUES (7201, 'a'), (7202, 'b'), (7203, 'c'), (7204, 'd'), (7208, 'e')",
            "INSERT IGNORE INTO users (user_id, name) VALUES (7201, 'a'), (7205, 'n'), (7204, 'd'), (7212, 'x')",
            "DELETE FROM users WHERE user_id BETWEEN 7200 AND 7299");

    private static Path root() {
        return Path.of(System.getProperty("shardwise.root", "..")).toAbsolutePath().normalize();
    }

    @Test
    void pymysqlSeesOneMariaDbsInfo() {
        String python = ClientProcess.require("python3 with PyMySQL (apt-get install python3-pymysql)", "/usr/bin/python3", "python3");
        String script = root().resolve("it/src/test/python/pymysql_write_info.py").toString();
        Function<Endpoint, Result> client = e -> ClientProcess.run(List.of(python, script, e.host(),
                Integer.toString(e.port()), e.user(), e.password(), e.database()), null, null, 120);
        for (Endpoint shardwise : List.of(fixture.viaServer(), fixture.viaExecutor())) {
            Result direct = client.apply(fixture.direct());
            assertEquals(0, direct.exit(), direct::describe);
            assertTrue(direct.out().contains("Rows matched: 9  Changed: "), direct::describe);
            Result through = client.apply(shardwise);
            assertEquals(0, through.exit(), through::describe);
            assertEquals(fixture.logical(direct.out()), through.out(), "through port " + shardwise.port());
        }
    }

    @Test
    void theMariaDbClientPrintsOneMariaDbsInfo() {
        String binary = ClientProcess.require("the MariaDB command-line client (apt-get install mariadb-client)", "mariadb", "mysql");
        String sql = String.join("; ", STATEMENTS) + ";";
        Function<Endpoint, Result> client = e -> ClientProcess.run(List.of(binary, "--protocol=TCP", "-h", e.host(), "-P",
                Integer.toString(e.port()), "-u", e.user(), "-p" + e.password(), "--skip-ssl", "-vvv", "-e", sql, e.database()), null, null, 120);
        for (Endpoint shardwise : List.of(fixture.viaServer(), fixture.viaExecutor())) {
            Result direct = client.apply(fixture.direct());
            assertEquals(0, direct.exit(), direct::describe);
            String expected = timeless(fixture.logical(direct.out() + direct.err()));
            assertTrue(expected.contains("Records: 5  Duplicates: 0  Warnings: 0"), expected);
            Result through = client.apply(shardwise);
            assertEquals(expected, timeless(through.out() + through.err()), () -> "through port " + shardwise.port() + ": " + through.describe());
        }
    }

    /** Connector/J: the update count under useAffectedRows (false: matched rows; true: changed rows) and the server's info. */
    @Test
    void connectorJCountsAndInfoAreOneMariaDbs() throws SQLException {
        for (String options : List.of("useAffectedRows=false", "useAffectedRows=true", "useAffectedRows=true&useServerPrepStmts=true")) {
            for (Endpoint shardwise : List.of(fixture.viaServer(), fixture.viaExecutor())) {
                List<String> direct = connectorJ(fixture.direct(), options);
                assertTrue(direct.get(0).contains("Rows matched: 23  Changed: 0"), direct::toString);
                assertEquals(direct, connectorJ(shardwise, options), options + " through port " + shardwise.port());
            }
        }
    }

    private static List<String> connectorJ(Endpoint e, String options) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:mysql://" + e.host() + ":" + e.port() + "/" + e.database()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&" + options, e.user(), e.password())) {
            for (String sql : STATEMENTS) {
                boolean prepared = options.contains("useServerPrepStmts");
                try (Statement s = prepared ? c.prepareStatement(sql) : c.createStatement()) {
                    long count = prepared ? ((java.sql.PreparedStatement) s).executeLargeUpdate() : s.executeLargeUpdate(sql);
                    var internal = s.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).getResultSetInternal();
                    out.add(sql + " -> " + count + " " + (internal == null ? null : internal.getServerInfo()));
                }
            }
        }
        return out;
    }

    /** The CLI's timings ("(0.001 sec)") differ run to run; it prompts for the backend's empty password. */
    private static String timeless(String out) {
        return out.replaceAll("\\(\\d+\\.\\d+ sec\\)", "(time)").replace("Enter password: ", "");
    }
}
