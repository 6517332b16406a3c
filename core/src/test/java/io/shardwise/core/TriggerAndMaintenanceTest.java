package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A single table on a backend other than the default one (the sample's {@code promotions}, on ds1), against the same
 * statements on one unsharded MariaDB: DROP TRIGGER finds its trigger where CREATE TRIGGER put it, and ANALYZE / CHECK
 * / OPTIMIZE / REPAIR / CHECKSUM TABLE name the table {@code shop.promotions} in their {@code Table} column, where one
 * MariaDB names its own database.
 */
class TriggerAndMaintenanceTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("trigmaint");

    private static List<String> compared(List<String> script) throws SQLException {
        List<String> expected = new ArrayList<>();
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole())) {
            for (String step : script) {
                expected.add(step + " -> " + SampleEngine.answer(c, step).replace(SAMPLE.whole() + ".", "shop."));
            }
        }
        List<String> actual = new ArrayList<>();
        try (EngineSession s = SAMPLE.engine().openSession()) {
            for (String step : script) {
                actual.add(step + " -> " + SampleEngine.answer(s, step));
            }
        }
        assertEquals(String.join("\n", expected), String.join("\n", actual));
        return actual;
    }

    @Test
    void dropTriggerRunsOnTheBackendOfItsTable() throws SQLException {
        compared(List.of(
                "CREATE TRIGGER promo_keep BEFORE INSERT ON promotions FOR EACH ROW SET NEW.code = NEW.code",
                "DROP TRIGGER promo_keep",
                "DROP TRIGGER promo_keep",
                "DROP TRIGGER IF EXISTS promo_keep",
                "CREATE TRIGGER promo_keep BEFORE INSERT ON promotions FOR EACH ROW SET NEW.code = NEW.code",
                "DROP TRIGGER IF EXISTS `promo_keep`",
                "DROP TRIGGER no_such_trigger"));
    }

    @Test
    void tableMaintenanceNamesTheLogicalSchemaAndTable() throws SQLException {
        List<String> answers = compared(List.of("ANALYZE TABLE promotions", "CHECK TABLE promotions", "OPTIMIZE TABLE promotions",
                "REPAIR TABLE promotions", "CHECKSUM TABLE promotions"));
        for (String answer : answers) {
            assertEquals(true, answer.contains("shop.promotions"), answer);
        }
    }
}
