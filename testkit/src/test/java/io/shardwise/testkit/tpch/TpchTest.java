package io.shardwise.testkit.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Iterator;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class TpchTest {

    @Test
    void everyQueryIsOneMySqlStatementWithoutPrestoSyntax() {
        for (int q = 1; q <= Tpch.QUERIES; q++) {
            String sql = Tpch.query(q);
            String lower = sql.toLowerCase(Locale.ROOT);
            assertTrue(lower.startsWith("select") || lower.startsWith("with"), Tpch.queryName(q) + ": " + sql);
            assertFalse(sql.contains(";"), Tpch.queryName(q) + " holds a semicolon");
            assertFalse(lower.contains("decimal '"), Tpch.queryName(q) + " holds a Presto decimal literal");
            assertFalse(lower.contains("create "), Tpch.queryName(q) + " creates something");
            assertFalse(lower.contains("substr("), Tpch.queryName(q) + " uses substr");
        }
        assertThrows(IllegalArgumentException.class, () -> Tpch.query(23));
    }

    @Test
    void generatedLinesHaveOneFieldPerColumnAndLeadWithTheKey() {
        for (String table : Tpch.TABLES) {
            int columns = Tpch.createTableSql(table, table).split(" NOT NULL").length - 1;
            Iterator<String> lines = Tpch.lines(table, 0.001).iterator();
            assertTrue(lines.hasNext(), table);
            String line = lines.next();
            assertFalse(line.endsWith("|"), table + ": " + line);
            assertEquals(columns, line.split("\\|", -1).length, table + ": " + line);
            String key = table.equals("nation") || table.equals("region") ? "0" : "1";
            assertEquals(key, line.substring(0, line.indexOf('|')), table + " leads with its first key: " + line);
        }
    }

    @Test
    void theConfigurationNamesTheServerAndPrefixItIsGiven() {
        String yaml = Tpch.configYaml("::1", 4406, "u", "p$1", "tpch_x");
        assertFalse(yaml.contains("${env:"), yaml);
        assertTrue(yaml.contains("jdbc:mysql://[::1]:4406/tpch_x_0?"), yaml);
        assertTrue(yaml.contains("jdbc:mysql://[::1]:4406/tpch_x_1?"), yaml);
        assertTrue(yaml.contains("password: \"p$1\""), yaml);
        for (String table : Tpch.TABLES) {
            assertTrue(yaml.contains("\n  " + table + ": {"), table + " has a layout");
        }
    }

    @Test
    void generationIsTheSameOnEveryRun() {
        assertEquals(Tpch.lines("orders", 0.001).iterator().next(), Tpch.lines("orders", 0.001).iterator().next());
    }
}
