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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14's data-safety items through real drivers, on both server paths (packet relay on and
 * off) against one backend as the oracle: a session whose sql_mode has NO_BACKSLASH_ESCAPES gets
 * SERVER_STATUS_NO_BACKSLASH_ESCAPES, so a client escaping values itself doubles quotes and a
 * value like {@code é' OR 1=1 -- \} stays data; and statement text is bytes, so raw bytes in
 * literals ({@code _binary'<00 FF 80>'}) and in prepared parameters are stored byte for byte.
 */
class EscapingAndBytesIT {
    private static final String INJECTION = "é' OR 1=1 -- \\";
    private static final byte[] RAW = {0x00, (byte) 0xFF, (byte) 0x80};
    private static final String HEX_INJECTION = "C3A927204F5220313D31202D2D205C";
    private static ClientFixture fixture;
    @RegisterExtension
    static final ClientFixture.Lifecycle LIFECYCLE = new ClientFixture.Lifecycle(() -> ClientFixture.start("safety"), f -> fixture = f);

    private static Path root() {
        return Path.of(System.getProperty("shardwise.root", "..")).toAbsolutePath().normalize();
    }

    /** The client's output through the relay-on server, the relay-off server and directly: all three must be equal. */
    private static void sameOnEveryPath(java.util.function.Function<Endpoint, Result> client, String mustContain) {
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
    void pymysqlEscapesByTheStatusFlagAndItsBytesArriveExactly() {
        String python = ClientProcess.require("python3 with PyMySQL (apt-get install python3-pymysql)", "/usr/bin/python3", "python3");
        String script = root().resolve("it/src/test/python/pymysql_safety.py").toString();
        sameOnEveryPath(e -> ClientProcess.run(List.of(python, script, e.host(), Integer.toString(e.port()), e.user(), e.password(),
                e.database()), null, null, 120), "## raw bytes in statements (run 2): [(4, '00FF80', '726177'), (5, '00FF80'");
    }

    @Test
    void goSqlDriverPreparedAndInterpolatedValuesArriveExactly() {
        String go = ClientProcess.require("a Go toolchain (apt-get install golang-go)", "go", "/usr/local/go/bin/go");
        Path binary = root().resolve("it/target/gosafety");
        Result build = ClientProcess.run(List.of(go, "build", "-mod=readonly", "-o", binary.toString(), "./safety"), null,
                root().resolve("it/src/test/go"), 600);
        assertEquals(0, build.exit(), () -> "go build: " + build.describe());
        sameOnEveryPath(e -> ClientProcess.run(List.of(binary.toString(), e.host(), Integer.toString(e.port()), e.user(), e.password(),
                e.database()), null, null, 120), "\"1\" | \"00FF80\" | \"é' OR 1=1 -- \\\\\"");
    }

    @Test
    void connectorJEscapesByTheStatusFlagInBothPrepareModes() throws SQLException {
        for (String options : List.of("", "useServerPrepStmts=true")) {
            List<String> direct = connectorJ(fixture.direct(), options);
            assertTrue(direct.contains("2|00FF80|74776F"), direct::toString);
            if (!options.isEmpty()) { // server prepares bind values: the injection is stored as itself in both modes
                assertEquals(4, direct.stream().filter(r -> r.equals("1|" + HEX_INJECTION + "|" + HEX_INJECTION)).count(), direct::toString);
            }
            assertEquals(direct, connectorJ(fixture.viaServer(), options), "relay on, " + options);
            assertEquals(direct, connectorJ(fixture.viaExecutor(), options), "relay off, " + options);
        }
    }

    private static List<String> connectorJ(Endpoint e, String options) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:mysql://" + e.host() + ":" + e.port() + "/" + e.database()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8" + (options.isEmpty() ? "" : "&" + options),
                e.user(), e.password()); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS safety_cj");
            s.execute("CREATE TABLE safety_cj (id INT PRIMARY KEY, v VARBINARY(64), s VARCHAR(64)) DEFAULT CHARSET utf8mb4");
            for (String mode : List.of("CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')", "DEFAULT")) {
                s.execute("SET sql_mode = " + mode);
                s.execute("DELETE FROM safety_cj");
                try (PreparedStatement p = c.prepareStatement("INSERT INTO safety_cj (id, v, s) VALUES (?, ?, ?)")) {
                    p.setInt(1, 1);
                    p.setBytes(2, INJECTION.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    p.setString(3, INJECTION);
                    p.executeUpdate();
                    p.setInt(1, 2);
                    p.setBytes(2, RAW);
                    p.setString(3, "two");
                    p.executeUpdate();
                }
                for (int run = 0; run < 2; run++) { // the second run of a cached SELECT is relayed
                    try (PreparedStatement p = c.prepareStatement("SELECT id, HEX(v), HEX(s) FROM safety_cj WHERE s = ? OR v = ? ORDER BY id")) {
                        p.setString(1, INJECTION);
                        p.setBytes(2, RAW);
                        try (ResultSet rs = p.executeQuery()) {
                            while (rs.next()) {
                                out.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
                            }
                        }
                    }
                }
                out.add("--");
            }
            s.execute("DROP TABLE safety_cj");
        }
        return out;
    }
}
