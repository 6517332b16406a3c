package io.shardwise.it.server.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code LOAD XML LOCAL INFILE} through the server, relay on and off, each transcript (affected rows,
 * info, SHOW WARNINGS, the rows written) equal to the same client's against one MariaDB: the three
 * row forms, {@code xsi:nil}, entities, a missing column, IGNORE n ROWS, ROWS IDENTIFIED BY, a column
 * list with @variables and SET, REPLACE / IGNORE, CHARACTER SET, a generated key, a mysqldump --xml file;
 * and what is refused (1235), nothing loaded: a file StAX and MariaDB's reader read differently
 * (malformed, a DTD / external entity, a character reference), the LOAD DATA refusals.
 */
class LoadXmlIT {
    private static ClientFixture fixture;
    @RegisterExtension
    static final ClientFixture.Lifecycle LIFECYCLE = new ClientFixture.Lifecycle(() -> ClientFixture.start("loadxml"), f -> fixture = f);

    private static final String ROWS = """
            <?xml version="1.0"?>
            <resultset statement="select" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
              <row user_id="760001" name="attr &amp; &quot;q&quot;" country_code="DE"/>
              <row><user_id>760002</user_id><name>child &lt;b&gt; &apos;x&apos; \u00e9</name><created_at>2024-02-30</created_at></row>
              <row>
                <field name="user_id">760003</field>
                <field name="name" xsi:nil="true" />
                <field name="country_code">FRA</field>
              </row>
              <row><user_id>760004</user_id></row>
              <row><user_id>760005</user_id><name></name><email>e@x</email></row>
              <row user_id="760002" name="duplicate"/>
              <!-- <row user_id="760099"/> -->
              <row><user_id>-760006</user_id><name>negative</name></row>
            </resultset>
            """;

    private static final String USERS = """
            <users name="outer">
              <user><user_id>760101</user_id><email>a</email></user>
              <user user_id="760102" email="b"/>
              <user user_id="760103" email="c" extra="ignored"/>
              <user user_id="760002" email="replaced"/>
            </users>
            """;

    /** A broadcast table (every copy gets every row, counted once) and a single table, in one file. */
    private static final String OTHER = """
            <data>
              <country code="XA" name="Xland"/>
              <country><code>XB</code><name>Xb &amp; co</name></country>
              <country code="XA" name="duplicate"/>
              <country code="XC"/>
              <promotion id="961" code="P1" discount="5.5"/>
              <promotion><id>962</id><code>P2</code><discount>abc</discount></promotion>
              <promotion id="963"/>
            </data>
            """;

    @Test
    void theMariaDbClientLoadsXmlAsOneMariaDb() throws Exception {
        String binary = ClientProcess.require("the MariaDB command-line client (apt-get install mariadb-client)", "mariadb", "mysql");
        Path rows = Files.createTempFile("shardwise-loadxml", ".xml");
        Path users = Files.createTempFile("shardwise-loadxml", ".xml");
        Path other = Files.createTempFile("shardwise-loadxml", ".xml");
        try {
            Files.writeString(rows, ROWS);
            Files.writeString(users, USERS);
            Files.writeString(other, OTHER);
            String sql = "LOAD XML LOCAL INFILE '" + rows + "' INTO TABLE users;"
                    + " LOAD XML LOCAL INFILE '" + rows + "' IGNORE INTO TABLE users CHARACTER SET utf8mb4 IGNORE 2 ROWS;"
                    + " LOAD XML LOCAL INFILE '" + users + "' REPLACE INTO TABLE users ROWS IDENTIFIED BY '<user>' IGNORE 1 LINES"
                    + " (user_id, @e, name) SET email = CONCAT('m:', @e);"
                    + " LOAD XML LOCAL INFILE '" + other + "' INTO TABLE countries ROWS IDENTIFIED BY '<country>';"
                    + " LOAD XML LOCAL INFILE '" + other + "' INTO TABLE promotions ROWS IDENTIFIED BY '<promotion>';"
                    + " SELECT user_id, name, email, country_code, created_at FROM users WHERE user_id BETWEEN -769999 AND -760000"
                    + " OR user_id BETWEEN 760000 AND 769999 ORDER BY user_id;"
                    + " SELECT * FROM countries WHERE code LIKE 'X%' ORDER BY code; SELECT * FROM promotions WHERE id >= 960 ORDER BY id;";
            Endpoint directEndpoint = fixture.direct();
            Result direct = cli(binary, directEndpoint, sql);
            String expected = timeless(fixture.logical(direct.out() + direct.err()));
            assertEquals(0, direct.exit(), direct::describe);
            assertTrue(expected.contains("Records: 7  Deleted: 0  Skipped: 1  Warnings: "), expected);
            for (Endpoint shardwise : List.of(fixture.viaServer(), fixture.viaExecutor())) {
                Result through = cli(binary, shardwise, sql);
                assertEquals(direct.exit(), through.exit(), through::describe);
                assertEquals(expected, timeless(through.out() + through.err()), () -> "through port " + shardwise.port() + ": "
                        + through.describe());
            }
        } finally {
            Files.deleteIfExists(rows);
            Files.deleteIfExists(users);
            Files.deleteIfExists(other);
        }
    }

    /** A table dumped with mariadb-dump --xml and loaded back: MariaDB's reader gives a NULL name the table_data's name="users". */
    @Test
    void aMariaDbDumpXmlLoadsBackAsIntoOneMariaDb() throws Exception {
        String dump = ClientProcess.require("mariadb-dump (apt-get install mariadb-client)", "mariadb-dump", "mysqldump");
        String binary = ClientProcess.require("the MariaDB command-line client (apt-get install mariadb-client)", "mariadb", "mysql");
        Endpoint d = fixture.direct();
        List<Path> files = new ArrayList<>();
        try {
            StringBuilder sql = new StringBuilder("DELETE FROM users; DELETE FROM orders;");
            for (String table : List.of("users", "orders")) {
                Result xml = ClientProcess.run(List.of(dump, "--protocol=TCP", "-h", d.host(), "-P", Integer.toString(d.port()), "-u",
                        d.user(), "-p" + d.password(), "--skip-ssl", "--xml", d.database(), table), null, null, 120);
                assertEquals(0, xml.exit(), xml::describe);
                Path file = Files.createTempFile("shardwise-dump", ".xml");
                files.add(file);
                Files.writeString(file, xml.out());
                sql.append(" LOAD XML LOCAL INFILE '").append(file).append("' INTO TABLE ").append(table).append(';');
            }
            sql.append(" SELECT * FROM users ORDER BY user_id; SELECT * FROM orders ORDER BY order_id;");
            assertTrue(Files.readString(files.get(0)).contains("xsi:nil=\"true\""), "the sample has NULL names");
            List<String> out = new ArrayList<>();
            for (Endpoint e : List.of(fixture.direct(), fixture.viaServer(), fixture.viaExecutor())) {
                Result r = cli(binary, e, sql.toString());
                assertEquals(0, r.exit(), r::describe);
                out.add(timeless(e == fixture.direct() ? fixture.logical(r.out() + r.err()) : r.out() + r.err()));
            }
            assertTrue(out.get(0).contains("Records: "), out.get(0));
            assertTrue(out.get(0).contains("| users "), "MariaDB's reader gives a NULL name the name of <table_data name=\"users\">");
            assertEquals(out.get(0), out.get(1), "relay on");
            assertEquals(out.get(0), out.get(2), "relay off");
        } finally {
            for (Path file : files) {
                Files.deleteIfExists(file);
            }
        }
    }

    @Test
    void connectorJStreamsGeneratedKeysAndRefusals() throws Exception {
        List<String> direct = connectorJ(fixture.direct());
        assertTrue(direct.get(0).startsWith("3 ["), direct::toString);
        assertEquals(direct, connectorJ(fixture.viaServer()), "relay on");
        assertEquals(direct, connectorJ(fixture.viaExecutor()), "relay off");
        try (Connection c = connect(fixture.viaServer()); Statement s = c.createStatement()) {
            s.execute("DELETE FROM orders WHERE user_id BETWEEN 768000 AND 768999");
            assertEquals(2, stream(s, "<r><row user_id=\"768001\" status=\"new\" amount=\"1.5\" created_at=\"2025-01-01\"/>"
                    + "<row><user_id>768002</user_id><status>paid</status><created_at>2025-01-02</created_at></row></r>",
                    "LOAD XML LOCAL INFILE 'x' INTO TABLE orders (user_id, status, amount, created_at)"));
            try (ResultSet rs = s.executeQuery("SELECT COUNT(DISTINCT order_id), MIN(order_id) > 0 FROM orders WHERE user_id BETWEEN 768000 AND 768999")) {
                rs.next();
                assertEquals("2 1", rs.getString(1) + " " + rs.getString(2), "generated order ids");
            }
            for (String[] refusal : new String[][] {
                    {"<r><row user_id=\"769001\"/><row user_id=\"769002\"><name>x</row></r>", "not well-formed XML"},
                    {"<!DOCTYPE r [<!ENTITY e SYSTEM \"file:///etc/hostname\">]><r><row user_id=\"769003\">&e;</row></r>", "a DTD"},
                    {"<r><row user_id=\"769004\" name=\"&#65;\"/></r>", "a character reference"},
                    {"<r><row user_id=\"769005\"><name><![CDATA[x]]></name></row></r>", "a CDATA section"},
                    {"<r><row user_id=\"769006\" name=\"a\tb\"/></r>", "a tab, carriage return or line break inside an attribute value"},
                    {"<r><row user_id=\"769007\"/><row user_id=\"769008\" name=\"a\nb\"/></r>", "inside an attribute value"}}) {
                SQLException e = assertThrows(SQLException.class, () -> stream(s, refusal[0], "LOAD XML LOCAL INFILE 'x' INTO TABLE users"));
                assertEquals(1235, e.getErrorCode(), e.getMessage());
                assertTrue(e.getMessage().contains(refusal[1]), e.getMessage());
            }
            for (String[] refusal : new String[][] {
                    {"LOAD XML INFILE '/etc/passwd' INTO TABLE users", "LOAD XML INFILE of a file on the server's host"},
                    {"LOAD XML LOCAL INFILE 'x' INTO TABLE users (@u, name) SET user_id = @u", "LOAD XML whose SET assigns sharding column"},
                    {"LOAD XML LOCAL INFILE 'x' INTO TABLE users (name)", "LOAD XML into sharded table 'users' without its sharding column"}}) {
                SQLException e = assertThrows(SQLException.class, () -> stream(s, "<r/>", refusal[0]));
                assertEquals(1235, e.getErrorCode(), e.getMessage());
                assertTrue(e.getMessage().contains(refusal[1]), e.getMessage());
            }
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM users WHERE user_id BETWEEN 769000 AND 769999")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "a refused file loads nothing");
            }
        }
    }

    /**
     * A row carrying its own value of the generated key column, which the statement's list lacks: one
     * MariaDB (orders with an AUTO_INCREMENT order_id) ignores it and generates the key, so does
     * Shardwise, whatever form the row's value takes (attribute, element, field, several).
     */
    @Test
    void aRowsOwnValueOfTheGeneratedKeyIsIgnoredAsByOneMariaDb() throws Exception {
        String file = "<r><row user_id=\"768101\" order_id=\"987654321\" status=\"new\" created_at=\"2025-01-01\"/>"
                + "<row order_id=\"987654322\"><user_id>768102</user_id><order_id>987654323</order_id><status>paid</status>"
                + "<created_at>2025-01-02</created_at></row>"
                + "<row><field name=\"user_id\">768103</field><field name=\"order_id\">987654324</field>"
                + "<field name=\"status\">new</field><field name=\"created_at\">2025-01-03</field></row></r>";
        List<String> out = new ArrayList<>();
        List<Endpoint> endpoints = List.of(fixture.direct(), fixture.viaServer(), fixture.viaExecutor());
        for (Endpoint e : endpoints) {
            try (Connection c = connect(e); Statement s = c.createStatement()) {
                String table = "orders";
                if (e == endpoints.get(0)) { // one MariaDB generating the key: the sample's orders, order_id AUTO_INCREMENT
                    table = "orders_generated";
                    s.execute("CREATE TEMPORARY TABLE orders_generated LIKE orders");
                    s.execute("ALTER TABLE orders_generated MODIFY order_id BIGINT NOT NULL AUTO_INCREMENT");
                }
                s.execute("DELETE FROM " + table + " WHERE user_id BETWEEN 768100 AND 768199 OR order_id BETWEEN 987654321 AND 987654324");
                int n = stream(s, file, "LOAD XML LOCAL INFILE 'x' INTO TABLE " + table + " (user_id, status, amount, created_at)");
                StringBuilder got = new StringBuilder(n + " " + warnings(s.getWarnings()));
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(DISTINCT order_id), SUM(order_id BETWEEN 987654321 AND 987654324),"
                        + " MIN(order_id) > 0, GROUP_CONCAT(user_id, ':', status, ':', created_at ORDER BY user_id)"
                        + " FROM " + table + " WHERE user_id BETWEEN 768100 AND 768199")) {
                    rs.next();
                    for (int i = 1; i <= 5; i++) {
                        got.append(' ').append(rs.getString(i));
                    }
                }
                out.add(got.toString());
            }
        }
        assertTrue(out.get(0).matches("3 .* 3 3 0 1 768101:new:2025-01-01.*"), out::toString);
        assertEquals(out.get(0), out.get(1), "relay on");
        assertEquals(out.get(0), out.get(2), "relay off");
    }

    /** The JDBC driver face: the driver reads the file in the application's process, as for LOAD DATA LOCAL. */
    @Test
    void theJdbcDriverLoadsXmlAsOneMariaDb() throws Exception {
        io.shardwise.it.jdbc.Fixture data = io.shardwise.it.jdbc.Fixture.get();
        Path file = Files.createTempFile("shardwise-loadxml", ".xml");
        try {
            Files.writeString(file, "<r><row user_id=\"796101\" name=\"x &amp; y\" country_code=\"DE\"/>"
                    + "<row><field name=\"user_id\">796102</field><field name=\"country_code\">FRA</field></row>"
                    + "<row user_id=\"796101\" name=\"dup\"/></r>");
            String shardwiseUrl = "jdbc:shardwise:" + data.configFile() + "?allowLoadLocalInfile=true";
            List<String> direct = driverLoad(data.direct("allowLoadLocalInfile=true"), file);
            assertTrue(direct.get(0).startsWith("2 ["), direct::toString);
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
            s.execute("DELETE FROM users WHERE user_id BETWEEN 796100 AND 796199");
            int n = s.executeUpdate("LOAD XML LOCAL INFILE '" + file + "' INTO TABLE users (user_id, name, country_code)");
            out.add(n + " " + warnings(s.getWarnings()));
            try (ResultSet rs = s.executeQuery("SELECT user_id, name, country_code FROM users WHERE user_id BETWEEN 796100 AND 796199"
                    + " ORDER BY user_id")) {
                while (rs.next()) {
                    out.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3));
                }
            }
        }
        return out;
    }

    private static List<String> connectorJ(Endpoint e) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connect(e); Statement s = c.createStatement()) {
            s.execute("DELETE FROM users WHERE user_id BETWEEN 767000 AND 767999");
            int n = stream(s, "<r><row user_id=\"767001\" name=\"a\" created_at=\"2024-13-01\"/><row user_id=\"767002\"/>"
                    + "<row><field name=\"user_id\">767003</field><field name=\"name\">c</field></row></r>",
                    "LOAD XML LOCAL INFILE 'x' INTO TABLE users");
            out.add(n + " " + warnings(s.getWarnings()));
            c.setAutoCommit(false);
            n = stream(s, "<r><row user_id=\"767004\"/><row user_id=\"767001\" name=\"replaced\"/></r>",
                    "LOAD XML LOCAL INFILE 'x' REPLACE INTO TABLE users");
            out.add(n + " " + warnings(s.getWarnings()));
            out.add(rows(s));
            c.rollback();
            out.add(rows(s));
        }
        return out;
    }

    private static String rows(Statement s) throws SQLException {
        StringBuilder rows = new StringBuilder();
        try (ResultSet rs = s.executeQuery("SELECT user_id, name, created_at FROM users WHERE user_id BETWEEN 767000 AND 767999 ORDER BY user_id")) {
            while (rs.next()) {
                rows.append(rs.getLong(1)).append('=').append(rs.getString(2)).append('/').append(rs.getString(3)).append(' ');
            }
        }
        return rows.toString().trim();
    }

    private static int stream(Statement s, String xml, String sql) throws SQLException {
        s.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).setLocalInfileInputStream(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        return s.executeUpdate(sql);
    }

    private static Result cli(String binary, Endpoint e, String sql) {
        try (Connection c = connect(e); Statement s = c.createStatement()) {
            s.execute("DELETE FROM users WHERE user_id BETWEEN -769999 AND -760000 OR user_id BETWEEN 760000 AND 769999");
            s.execute("DELETE FROM countries WHERE code LIKE 'X%'");
            s.execute("DELETE FROM promotions WHERE id >= 960");
        } catch (SQLException failed) {
            throw new AssertionError(failed);
        }
        return ClientProcess.run(List.of(binary, "--protocol=TCP", "-h", e.host(), "-P", Integer.toString(e.port()), "-u", e.user(),
                "-p" + e.password(), "--skip-ssl", "--local-infile=1", "-vvv", "--table", "--show-warnings", "-e", sql, e.database()),
                null, null, 120);
    }

    private static String timeless(String out) {
        return out.replaceAll("\\(\\d+\\.\\d+ sec\\)", "(time)").replace("Enter password: ", "");
    }

    private static String warnings(SQLWarning w) {
        StringBuilder out = new StringBuilder();
        for (; w != null; w = w.getNextWarning()) {
            out.append('[').append(w.getErrorCode()).append(' ').append(w.getMessage()).append(']');
        }
        return out.toString();
    }

    private static Connection connect(Endpoint e) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + e.host() + ":" + e.port() + "/" + e.database()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8&allowLoadLocalInfile=true", e.user(), e.password());
    }
}
