package io.shardwise.it.server.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.shardwise.it.server.clients.ClientFixture.Endpoint;
import io.shardwise.it.server.clients.ClientProcess.Result;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Real non-Java clients through the Shardwise server on the sharded sample, each compared with the
 * same client against the unsharded copy of the same data: the {@code mariadb} command line in batch
 * mode, {@code mysqlslap}, PyMySQL (it/src/test/python) and go-sql-driver/mysql (it/src/test/go).
 * Each prints its results in a canonical text form (rows ordered by the statement, or sorted where
 * it has none), and the two outputs must be identical once the unsharded database's name reads as
 * "shop". A missing client fails the test naming the package; bin/test installs them all.
 */
class ClientCompatibilityIT {
    /** Connect-time and browsing statements first, then data; every one ordered. */
    static final String CLI_SCRIPT = """
            SELECT DATABASE();
            SELECT COUNT(*), SUM(amount), MIN(created_at), MAX(created_at) FROM orders;
            SELECT order_id, user_id, status, amount, created_at FROM orders WHERE user_id = 7 ORDER BY order_id;
            SELECT o.order_id, COUNT(*) AS items, SUM(i.quantity) FROM orders o JOIN order_items i
              ON i.user_id = o.user_id AND i.order_id = o.order_id WHERE o.user_id = 3 GROUP BY o.order_id ORDER BY o.order_id;
            SELECT status, COUNT(*), MIN(amount), MAX(amount), AVG(amount) FROM orders GROUP BY status ORDER BY status;
            SELECT id, category FROM small WHERE small.category='books' /* Added */ /* some */ /* comments */ ORDER BY id;
            SHOW TABLES;
            SHOW FULL TABLES LIKE 'order%';
            DESCRIBE orders;
            SHOW COLUMNS FROM users;
            SHOW CREATE TABLE order_items;
            SHOW WARNINGS;
            SELECT SCHEMA_NAME, DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA
              WHERE SCHEMA_NAME = DATABASE();
            SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, ENGINE, TABLE_COLLATION FROM information_schema.TABLES
              WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME;
            SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_DEFAULT, IS_NULLABLE, COLUMN_TYPE, COLUMN_KEY, EXTRA
              FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION;
            SELECT c.TABLE_NAME, COUNT(*) FROM information_schema.COLUMNS AS c JOIN information_schema.TABLES t
              ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
              WHERE t.TABLE_SCHEMA = DATABASE() GROUP BY c.TABLE_NAME ORDER BY c.TABLE_NAME;
            SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE, INDEX_SCHEMA FROM information_schema.STATISTICS
              WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX;
            SELECT CONSTRAINT_SCHEMA, CONSTRAINT_NAME, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION FROM information_schema.KEY_COLUMN_USAGE
              WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION;
            SELECT CONSTRAINT_NAME, TABLE_NAME, CONSTRAINT_TYPE FROM information_schema.TABLE_CONSTRAINTS
              WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, CONSTRAINT_NAME;
            SELECT COLLATION_NAME FROM information_schema.COLLATIONS WHERE COLLATION_NAME = 'utf8mb4_general_ci';
            """;
    static final String HSCALE = "SELECT id, category FROM small WHERE small.category='books' /* Added */ /* some */ /* comments */";

    private static ClientFixture fixture;
    @RegisterExtension
    static final ClientFixture.Lifecycle LIFECYCLE = new ClientFixture.Lifecycle(() -> ClientFixture.start("clients"), f -> fixture = f);

    private static Path root() {
        String root = System.getProperty("shardwise.root");
        if (root == null) {
            throw new IllegalStateException("system property shardwise.root is not set; run through Maven (./mvnw verify)");
        }
        return Path.of(root).toAbsolutePath().normalize();
    }

    /** Runs {@code client} (given an endpoint) through the server and directly; returns both outputs after checking both exited as expected. */
    private static Result[] both(java.util.function.Function<Endpoint, Result> client, int exit) {
        Result via = client.apply(fixture.viaServer());
        Result direct = client.apply(fixture.direct());
        assertEquals(exit, via.exit(), () -> "through Shardwise: " + via.describe());
        assertEquals(exit, direct.exit(), () -> "direct: " + direct.describe());
        return new Result[] {via, new Result(direct.exit(), fixture.logical(direct.out()), fixture.logical(direct.err()))};
    }

    private static List<String> cli(Endpoint e, String... extra) {
        String binary = ClientProcess.require("the MariaDB command-line client (apt-get install mariadb-client)", "mariadb", "mysql");
        List<String> command = new ArrayList<>(List.of(binary, "--no-defaults", "--skip-ssl", "--batch", "--host=" + e.host(),
                "--port=" + e.port(), "--user=" + e.user()));
        if (!e.password().isEmpty()) {
            command.add("--password=" + e.password());
        }
        command.add(e.database());
        command.addAll(Arrays.asList(extra));
        return command;
    }

    @Test
    void mariadbCliScriptOnStdinPrintsWhatOneServerPrints() {
        Result[] r = both(e -> ClientProcess.run(cli(e), CLI_SCRIPT, null, 60), 0);
        assertTrue(r[0].out().contains("Tables_in_shop"), r[0].describe());
        assertEquals(r[1].out(), r[0].out());
    }

    @Test
    void mariadbCliExecuteOptionMatchesWithRowsComparedSortedWhereUnordered() {
        Result[] r = both(e -> ClientProcess.run(cli(e, "-e", HSCALE + "; SELECT * FROM countries; SELECT @@autocommit, @@sql_mode"), null,
                null, 60), 0);
        assertEquals(sortedLines(r[1].out()), sortedLines(r[0].out()));
        Result[] errors = both(e -> ClientProcess.run(cli(e, "-e", "SELECT * FROM no_such_table"), null, null, 60), 1);
        // errno and SQLSTATE as on one server; the message names the shard the error came from (STYLE 9)
        assertEquals(errorCode(errors[1].err()), errorCode(errors[0].err()));
        assertEquals("ERROR 1146 (42S02) at line 1", errorCode(errors[0].err()), errors[0].describe());
    }

    /**
     * Interactive mode (on a pseudo-terminal from script(1)) sends what batch mode does not: {@code select
     * @@version_comment limit 1} and, for completion, SHOW DATABASES, SHOW TABLES and a COM_FIELD_LIST per table.
     */
    @Test
    void mariadbCliInteractiveSessionReadsTableInformationForCompletion() {
        String script = ClientProcess.require("script(1) (apt-get install bsdutils)", "script");
        Endpoint e = fixture.viaServer();
        List<String> cli = cli(e, "--auto-rehash");
        cli.remove("--batch");
        Result r = ClientProcess.run(List.of(script, "-qec", String.join(" ", cli), "/dev/null"),
                "SELECT COUNT(*) AS n FROM orders;\nquit\n", null, 60);
        assertEquals(0, r.exit(), r.describe());
        assertTrue(r.out().contains("Reading table information for completion"), r.describe());
        // the banner names the backend's server (handshake version and @@version_comment), as connected to it directly
        Result backend = ClientProcess.run(cli(fixture.direct(), "-N", "-e", "SELECT CONCAT(VERSION(), ' ', @@version_comment)"), null, null, 60);
        assertEquals(0, backend.exit(), backend.describe());
        assertTrue(r.out().contains("Server version: " + backend.out().strip()), r.describe() + "\nbackend: " + backend.out());
        assertTrue(r.out().contains("| 1000 |"), r.describe());
        assertFalse(r.out().contains("ERROR"), r.describe());
    }

    @Test
    void mysqlslapRunsTheHscaleQueryAtConcurrencyOneAndTenWithoutErrors() {
        for (int concurrency : new int[] {1, 10}) {
            Result r = ClientProcess.run(slap(fixture.viaServer(), "--query=" + HSCALE, "--concurrency=" + concurrency,
                    "--number-of-queries=300", "--iterations=1"), null, null, 120);
            assertEquals(0, r.exit(), r.describe());
            assertTrue(r.out().contains("Number of clients running queries: " + concurrency), r.describe());
            assertTrue(r.err().isBlank(), r.describe());
        }
    }

    /**
     * mysqlslap's own tables: --create always begins with DROP/CREATE SCHEMA of --create-schema, which
     * needs a database of its own (on one MySQL too, --create fails for an existing database), so tables
     * in the served schema are made with --pre-query and dropped with --post-query.
     */
    @Test
    void mysqlslapCreatesQueriesAndDropsItsTableAsOnOneServer() {
        // the pre- and post-queries run on a connection with no database selected (1046 on one MySQL too), hence the USE
        Result[] r = both(e -> ClientProcess.run(slap(e, "--delimiter=;", "--pre-query=USE " + e.database() + ";"
                        + " CREATE TABLE slap_t (id INT PRIMARY KEY, v VARCHAR(20)); INSERT INTO slap_t VALUES (1,'a'),(2,'b'),(3,'c')",
                "--query=SELECT v FROM slap_t WHERE id = 2; SELECT COUNT(*) FROM slap_t; UPDATE slap_t SET v = 'x' WHERE id = 3",
                "--post-query=USE " + e.database() + "; DROP TABLE slap_t", "--concurrency=4", "--number-of-queries=200", "--iterations=1"), null, null, 120), 0);
        assertTrue(r[0].err().isBlank(), r[0].describe());
        Result[] tables = both(e -> ClientProcess.run(cli(e, "-e", "SHOW TABLES LIKE 'slap%'"), null, null, 60), 0);
        assertEquals("", tables[0].out(), "the post-query dropped the table");
        assertEquals(tables[1].out(), tables[0].out());

        Result[] create = both(e -> ClientProcess.run(slap(e, "--no-drop", "--create=CREATE TABLE slap_c (id INT)", "--query=SELECT 1"),
                null, null, 60), 1);
        assertEquals(create[1].err(), create[0].err());
        assertTrue(create[0].err().contains("Can't create database 'shop'; database exists"), create[0].describe());
        Result drop = ClientProcess.run(slap(fixture.viaServer(), "--create=CREATE TABLE slap_c (id INT)", "--query=SELECT 1"),
                null, null, 60);
        assertEquals(1, drop.exit(), drop.describe());
        assertTrue(drop.err().contains("doesn't yet support 'DROP SCHEMA IF EXISTS `shop`"), drop.describe());
    }

    private static List<String> slap(Endpoint e, String... options) {
        String binary = ClientProcess.require("mysqlslap (apt-get install mariadb-client)", "mariadb-slap", "mysqlslap");
        List<String> command = new ArrayList<>(List.of(binary, "--no-defaults", "--skip-ssl", "--host=" + e.host(),
                "--port=" + e.port(), "--user=" + e.user(), "--create-schema=" + e.database()));
        if (!e.password().isEmpty()) {
            command.add("--password=" + e.password());
        }
        command.addAll(Arrays.asList(options));
        return command;
    }

    @Test
    void pymysqlSeesWhatItSeesOnOneServer() {
        String python = pythonWithPymysql();
        String script = root().resolve("it/src/test/python/pymysql_client.py").toString();
        Result[] r = both(e -> ClientProcess.run(List.of(python, script, e.host(), Integer.toString(e.port()), e.user(), e.password(),
                e.database()), null, null, 120), 0);
        assertTrue(r[0].out().contains("## SSCursor"), r[0].describe());
        assertEquals(r[1].out(), r[0].out());
    }

    /** Debian's python3 (where python3-pymysql installs), else the first python3 on PATH, whichever has PyMySQL. */
    private static String pythonWithPymysql() {
        List<String> tried = new ArrayList<>();
        for (String candidate : List.of("/usr/bin/python3", "python3")) {
            String python;
            try {
                python = ClientProcess.require("python3", candidate);
            } catch (AssertionError absent) {
                continue;
            }
            if (ClientProcess.run(List.of(python, "-c", "import pymysql"), null, null, 30).exit() == 0) {
                return python;
            }
            tried.add(python);
        }
        fail("PyMySQL is not installed for " + tried + " (apt-get install python3-pymysql; bin/test does it)");
        throw new AssertionError("unreachable");
    }

    /**
     * go-sql-driver/mysql: text queries, and server-side prepared statements for every query with
     * arguments (its sections marked [prepared]).
     */
    @Test
    void goSqlDriverSeesWhatItSeesOnOneServer() {
        String go = ClientProcess.require("a Go toolchain (apt-get install golang-go)", "go", "/usr/local/go/bin/go");
        Path source = root().resolve("it/src/test/go");
        Path binary = root().resolve("it/target/goclient");
        Result build = ClientProcess.run(List.of(go, "build", "-mod=readonly", "-o", binary.toString(), "."), null, source, 600);
        assertEquals(0, build.exit(), () -> "go build (the driver comes from the Go module proxy): " + build.describe());
        Result[] r = both(e -> ClientProcess.run(List.of(binary.toString(), e.host(), Integer.toString(e.port()), e.user(), e.password(),
                e.database()), null, null, 120), 0);
        assertTrue(r[0].out().contains("## [prepared] point select"), r[0].describe());
        assertEquals(r[1].out(), r[0].out());
    }

    /** "ERROR 1146 (42S02) at line 1" of the CLI's error line. */
    private static String errorCode(String stderr) {
        return stderr.lines().filter(l -> l.startsWith("ERROR ")).map(l -> l.substring(0, l.indexOf(':'))).findFirst().orElse(stderr);
    }

    private static List<String> sortedLines(String text) {
        return text.lines().sorted().toList();
    }
}
