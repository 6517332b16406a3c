package io.shardwise.it.server.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.it.server.clients.ClientFixture.Endpoint;
import io.shardwise.it.server.clients.ClientProcess.Result;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14 item 3 through real drivers, on both server paths (packet relay on and off), against one
 * backend as the oracle: the character set and collation a client names in its handshake or with
 * SET NAMES / SET CHARACTER SET / character_set_* / collation_connection reach every backend
 * connection its session uses, so a latin1 client writes and reads {@code é} as the byte E9 and
 * the server stores it as utf8mb4 C3A9; unknown names fail with MySQL's 1115 and 1273.
 */
class CharsetsIT {
    private static ClientFixture fixture;
    @RegisterExtension
    static final ClientFixture.Lifecycle LIFECYCLE = new ClientFixture.Lifecycle(() -> ClientFixture.start("charsets"), f -> fixture = f);

    static Path root() {
        return Path.of(System.getProperty("shardwise.root", "..")).toAbsolutePath().normalize();
    }

    /** The client's output through the relay-on server, the relay-off server and directly: all three must be equal. */
    static void sameOnEveryPath(ClientFixture fixture, Function<Endpoint, Result> client, String mustContain) {
        Result direct = client.apply(fixture.direct());
        assertEquals(0, direct.exit(), () -> "direct: " + direct.describe());
        assertTrue(direct.out().contains(mustContain), direct::describe);
        long relayedBefore = fixture.relayedStatements();
        Result relay = client.apply(fixture.viaServer());
        assertEquals(0, relay.exit(), () -> "through Shardwise (relay on): " + relay.describe());
        assertEquals(fixture.logical(direct.out()), relay.out(), "relay on");
        assertTrue(fixture.relayedStatements() > relayedBefore, "the relay-on server relayed none of the statements");
        Result executor = client.apply(fixture.viaExecutor());
        assertEquals(0, executor.exit(), () -> "through Shardwise (relay off): " + executor.describe());
        assertEquals(fixture.logical(direct.out()), executor.out(), "relay off");
    }

    @Test
    void goSqlDriverLatin1ByCharsetParameterAndByHandshakeCollation() {
        String go = ClientProcess.require("a Go toolchain (apt-get install golang-go)", "go", "/usr/local/go/bin/go");
        Path binary = root().resolve("it/target/gocharsets");
        Result build = ClientProcess.run(List.of(go, "build", "-mod=readonly", "-o", binary.toString(), "./charsets"), null,
                root().resolve("it/src/test/go"), 600);
        assertEquals(0, build.exit(), () -> "go build: " + build.describe());
        sameOnEveryPath(fixture, e -> ClientProcess.run(List.of(binary.toString(), e.host(), Integer.toString(e.port()), e.user(),
                e.password(), e.database()), null, null, 120), "\"2\" | \"\\xe9\" | \"C3A9\" | \"1\"");
    }

    /** Connector/J encodes statements and parameters in its characterEncoding and decodes results with it. */
    @Test
    void connectorJLatin1CharacterEncoding() throws SQLException {
        for (String options : List.of("characterEncoding=ISO-8859-1", "characterEncoding=ISO-8859-1&useServerPrepStmts=true",
                "characterEncoding=ISO-8859-1&connectionCollation=latin1_german1_ci")) {
            List<String> direct = connectorJ(fixture.direct(), options);
            assertTrue(direct.stream().anyMatch(r -> r.startsWith("1|été|C3A974C3A9|é|latin1_")), direct::toString);
            assertEquals(direct, connectorJ(fixture.viaServer(), options), "relay on, " + options);
            assertEquals(direct, connectorJ(fixture.viaExecutor(), options), "relay off, " + options);
        }
    }

    private static List<String> connectorJ(Endpoint e, String options) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:mysql://" + e.host() + ":" + e.port() + "/" + e.database()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&" + options, e.user(), e.password());
             Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS charset_cj");
            s.execute("CREATE TABLE charset_cj (id INT PRIMARY KEY, s VARCHAR(32)) DEFAULT CHARSET utf8mb4");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO charset_cj (id, s) VALUES (?, ?)")) {
                p.setInt(1, 1);
                p.setString(2, "été");
                p.executeUpdate();
            }
            s.execute("INSERT INTO charset_cj (id, s) VALUES (2, 'é')");
            for (int run = 0; run < 2; run++) { // the second run of a cached SELECT is relayed
                try (ResultSet rs = s.executeQuery("SELECT @@character_set_client, @@character_set_connection,"
                        + " @@character_set_results, @@collation_connection")) {
                    rs.next();
                    out.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4));
                }
                try (ResultSet rs = s.executeQuery("SELECT id, s, HEX(s), 'é', COLLATION('é') FROM charset_cj ORDER BY id")) {
                    while (rs.next()) {
                        out.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3) + "|" + rs.getString(4) + "|" + rs.getString(5));
                    }
                }
                try (PreparedStatement p = c.prepareStatement("SELECT id FROM charset_cj WHERE s = ? ORDER BY id")) {
                    p.setString(1, "é");
                    try (ResultSet rs = p.executeQuery()) {
                        while (rs.next()) {
                            out.add("by argument " + rs.getString(1));
                        }
                    }
                }
            }
            for (String bad : List.of("SET NAMES nosuch", "SET NAMES latin1 COLLATE nosuch_ci", "SET collation_connection = nosuch_ci")) {
                try {
                    s.execute(bad);
                    out.add(bad + ": ok");
                } catch (SQLException refused) {
                    out.add(bad + ": " + refused.getErrorCode() + " " + refused.getSQLState() + " " + refused.getMessage());
                }
            }
            s.execute("DROP TABLE charset_cj");
        }
        return out;
    }

    @Test
    void pymysqlLatin1AndCollationsAsOneServer() {
        String python = ClientProcess.require("python3 with PyMySQL (apt-get install python3-pymysql)", "/usr/bin/python3", "python3");
        String script = root().resolve("it/src/test/python/pymysql_charsets.py").toString();
        sameOnEveryPath(fixture, e -> ClientProcess.run(List.of(python, script, e.host(), Integer.toString(e.port()), e.user(),
                e.password(), e.database()), null, null, 120), "## latin1 reads (run 2): [(1, 'é', 'C3A9', 2, 1)");
    }
}
