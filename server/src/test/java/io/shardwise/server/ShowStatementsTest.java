package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SHOW and DESCRIBE through the server over logical names, each compared with the same statement
 * on the unsharded copy of the sample data: same labels and types, same rows once the unsharded
 * database's name is read as the logical one.
 */
class ShowStatementsTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("show");

    private static Connection viaServer() throws SQLException {
        return sample.connect("app", "");
    }

    /** Labels and types, then rows as text (sorted), with the unsharded database's name read as "shop". */
    private static List<String> table(Connection c, String sql, int... blanked) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            StringBuilder labels = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                labels.append(md.getColumnLabel(i)).append(':').append(md.getColumnTypeName(i)).append('|');
            }
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    final int column = i;
                    boolean blank = java.util.Arrays.stream(blanked).anyMatch(b -> b == column);
                    row.append(blank ? "?" : rs.getString(i)).append('|');
                }
                rows.add(row.toString().replaceAll(" AUTO_INCREMENT=\\d+", ""));
            }
            Collections.sort(rows);
            rows.add(0, labels.toString().replace("Tables_in_" + sample.whole, "Tables_in_shop"));
            return rows;
        }
    }

    private static void sameAsUnsharded(String sql, int... blanked) throws SQLException {
        try (Connection proxied = viaServer(); Connection plain = sample.backend.connect(sample.whole)) {
            assertEquals(table(plain, sql.replaceAll("\\bshop\\b", sample.whole), blanked), table(proxied, sql, blanked), sql);
        }
    }

    @Test
    void tableListingsAndDescriptionsMatchTheUnshardedDatabase() throws Exception {
        for (String sql : new String[] {
                "SHOW TABLES", "SHOW FULL TABLES", "show tables like 'order%'", "SHOW TABLES FROM shop LIKE 'users'",
                "SHOW COLUMNS FROM orders", "SHOW FULL COLUMNS FROM order_items", "SHOW COLUMNS FROM orders LIKE 'user%'",
                "SHOW FIELDS IN shop.users", "DESCRIBE orders", "DESC countries", "desc `orders` status", "DESCRIBE sbtest1",
                "SHOW CREATE TABLE orders", "SHOW CREATE TABLE shop.promotions", "SHOW CREATE TABLE events",
                "SHOW COLUMNS FROM orders FROM shop;"}) {
            sameAsUnsharded(sql);
        }
        sameAsUnsharded("SHOW INDEX FROM orders", 7); // Cardinality: the first physical table's
        sameAsUnsharded("SHOW KEYS FROM order_items", 7);
    }

    @Test
    void serverWideListingsComeFromTheDefaultBackendWithTheSessionsOwnVariables() throws Exception {
        for (String sql : new String[] {"SHOW ENGINES", "SHOW COLLATION LIKE 'utf8mb4_bin'", "SHOW CHARACTER SET LIKE 'utf8%'",
                "SHOW VARIABLES LIKE 'max_allowed_packet'", "SHOW WARNINGS", "SHOW ERRORS"}) {
            sameAsUnsharded(sql);
        }
        try (Connection proxied = viaServer(); Connection plain = sample.backend.connect(sample.whole)) {
            assertEquals(table(plain, "SHOW GLOBAL STATUS LIKE 'Uptime'").getFirst(),
                    table(proxied, "SHOW GLOBAL STATUS LIKE 'Uptime'").getFirst());
            assertEquals(table(plain, "SHOW SESSION VARIABLES LIKE 'version_comment'"),
                    table(proxied, "SHOW SESSION VARIABLES LIKE 'version_comment'"));
            try (Statement s = proxied.createStatement()) {
                s.execute("SET autocommit = 0");
            }
            assertEquals("autocommit|OFF|", table(proxied, "SHOW VARIABLES LIKE 'autocommit'").get(1));
            assertEquals(List.of("Database:VARCHAR|", "information_schema|", "shop|"), table(proxied, "SHOW DATABASES"));
            assertEquals(List.of("Database (sh%):VARCHAR|", "shop|"), table(proxied, "SHOW DATABASES LIKE 'sh%'"));
        }
    }

    @Test
    void physicalNamesNeverLeakAndUnknownFormsAreRefusedWith1235() throws Exception {
        try (Connection proxied = viaServer(); Statement s = proxied.createStatement()) {
            SQLException physical = assertThrows(SQLException.class, () -> s.executeQuery("SHOW COLUMNS FROM orders_0"));
            assertEquals(1146, physical.getErrorCode());
            SQLException missing = assertThrows(SQLException.class, () -> s.executeQuery("DESCRIBE nope"));
            assertEquals(1146, missing.getErrorCode());
            assertTrue(missing.getMessage().contains("'shop.nope'"), missing.getMessage());
            assertFalse(missing.getMessage().contains(sample.target.databasePrefix()), missing.getMessage());
            SQLException unsupported = assertThrows(SQLException.class, () -> s.executeQuery("SHOW TRIGGERS"));
            assertEquals(1235, unsupported.getErrorCode());
            assertTrue(unsupported.getMessage().contains("SHOW TRIGGERS"), unsupported.getMessage());
            assertEquals(1049, assertThrows(SQLException.class, () -> s.executeQuery("SHOW TABLES FROM other")).getErrorCode());
            try (ResultSet rs = s.executeQuery("SHOW CREATE TABLE orders")) {
                assertTrue(rs.next());
                assertFalse(rs.getString(2).contains("orders_0"), rs.getString(2));
            }
        }
    }

    @Test
    void theMariadbCommandLineListsLogicalTablesInBatchMode() throws Exception {
        String binary = CommandLineClients.require("mariadb", "mysql");
        Process p = new ProcessBuilder(binary, "--protocol=TCP", "-h127.0.0.1", "-P" + sample.server.address().getPort(), "-uapp", "-papp",
                "--skip-ssl", "--batch", "shop", "-e", "SHOW TABLES").redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the client finished");
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), output);
        StringBuilder expected = new StringBuilder("Tables_in_shop\n");
        try (Connection plain = sample.backend.connect(sample.whole)) {
            for (String row : table(plain, "SHOW TABLES").subList(1, table(plain, "SHOW TABLES").size())) {
                expected.append(row, 0, row.length() - 1).append('\n');
            }
        }
        List<String> lines = new ArrayList<>(List.of(output.split("\n")));
        Collections.sort(lines.subList(1, lines.size()));
        assertEquals(expected.toString(), String.join("\n", lines) + "\n");
    }
}
