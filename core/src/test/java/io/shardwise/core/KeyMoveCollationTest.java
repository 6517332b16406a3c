package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.sample.SampleData;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A key move that assigns a string primary key ({@link KeyShifts}) against one database: duplicates are found as the
 * key column's collation finds them, on real backends. {@code words} (a string primary key {@code code}, sharded by
 * {@code k} mod 4 over the sample's four nodes) is created anew for each collation, in the sharded databases and in
 * the unsharded copy; every write runs both ways and must give the same outcome, the same table, and each row on the
 * node its new {@code k} routes to.
 */
class KeyMoveCollationTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("keycoll");

    private static Engine engine;

    @BeforeAll
    static void start() {
        engine = Engine.start(SampleData.rule(SAMPLE.target(), yaml -> yaml.replace("\ntables:\n",
                "\ntables:\n  words: { nodes: \"ds${0..1}.words_${0..1}\", key: k, algorithm: { type: mod } }\n")));
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    /** {@code words} with its code under {@code collation} (a column definition's tail), holding {@code rows} ("(code, k), ..."). */
    private static void words(String collation, String rows) throws SQLException {
        String create = " (code VARCHAR(16) " + collation + " NOT NULL, k INT NOT NULL, PRIMARY KEY (code))";
        String prefix = SAMPLE.target().databasePrefix();
        for (String db : List.of(prefix + "_0", prefix + "_1")) {
            try (Connection c = SAMPLE.server().connect(db); Statement st = c.createStatement()) {
                for (String t : List.of("words_0", "words_1")) {
                    st.execute("DROP TABLE IF EXISTS " + t);
                    st.execute("CREATE TABLE " + t + create);
                }
            }
        }
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole()); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS words");
            st.execute("CREATE TABLE words" + create);
            st.execute("INSERT INTO words VALUES " + rows);
        }
        try (EngineSession s = engine.openSession()) {
            s.execute("INSERT INTO words VALUES " + rows);
        }
    }

    /**
     * The write both ways: the same outcome, the same table after, each row found by a point read of its k. The codes
     * are compared in hex, in the column's own character set (a Connector/J read of the copy returns latin1 bytes
     * unconverted, the engine's read converts them to the results' utf8mb4).
     */
    private static String same(String write) throws SQLException {
        String expected = SAMPLE.directWrite(write);
        try (EngineSession s = engine.openSession()) {
            String actual = SampleEngine.engineWrite(s, write);
            assertEquals(expected, actual, write);
            String all = "SELECT k, HEX(code) FROM words ORDER BY k, HEX(code)";
            assertEquals(SAMPLE.direct(all), SampleEngine.rows(s, all), "the table after " + write);
            for (String k : SAMPLE.direct("SELECT DISTINCT k FROM words ORDER BY 1")) {
                String point = "SELECT k, HEX(code) FROM words WHERE k = " + k.substring(0, k.length() - 1) + " ORDER BY HEX(code)";
                assertEquals(SAMPLE.direct(point), SampleEngine.rows(s, point), "rows of k " + k + " on their node after " + write);
            }
            assertEquals(0, engine.activeConnections(), "every backend connection is back in its pool");
            return actual;
        }
    }

    @Test
    void underABinaryCollationKeysDifferingInCaseAreDifferentKeys() throws SQLException {
        // 'a' takes 'b' while 'B' holds its key: no duplicate in bytes (was a 1062 comparing case-insensitively)
        words("COLLATE utf8mb4_bin", "('a', 1), ('B', 2)");
        assertEquals("affected 2", same("UPDATE words SET code = IF(code = 'a', 'b', 'c'), k = k + 1"));
        words("COLLATE utf8mb4_bin", "('a', 1), ('B', 2)");
        assertEquals("affected 2", same("UPDATE words SET code = IF(code = 'a', 'b', 'c'), k = k + 1 ORDER BY code DESC"));
        // a real duplicate in bytes is still one
        words("COLLATE utf8mb4_bin", "('a', 1), ('B', 2)");
        assertEquals("error 1062", same("UPDATE words SET code = IF(code = 'a', 'B', 'c'), k = k + 1 ORDER BY code DESC"));
    }

    @Test
    void aMultiTableMoveOfKeysDifferingOnlyInCaseMovesEachRow() throws SQLException {
        // 'a' and 'A' are two rows under utf8mb4_bin: both move (one was taken for the other and left on its old node)
        words("COLLATE utf8mb4_bin", "('a', 1), ('A', 5), ('b', 2)");
        assertEquals("affected 3", same("UPDATE words w JOIN countries c ON c.code = 'DE' SET w.k = w.k + 1"));
    }

    @Test
    void underGeneralCiKeysDifferingInAccentOrTrailingSpacesAreOneKey() throws SQLException {
        // 'é' is 'e' under utf8mb4_general_ci: f takes it while e still holds it (MySQL's 1062; was a move past it)
        words("COLLATE utf8mb4_general_ci", "('e', 1), ('f', 2), ('g', 3)");
        assertEquals("error 1062", same("UPDATE words SET code = IF(code = 'f', 'é', CONCAT(code, 'x')), k = k + 1 ORDER BY code DESC"));
        assertEquals("error 1062", same("UPDATE words SET code = IF(code = 'f', 'E ', CONCAT(code, 'x')), k = k + 1 ORDER BY code DESC"));
        // in ascending order e gives its key up first: no duplicate, every row moves
        assertEquals("affected 3", same("UPDATE words SET code = IF(code = 'f', 'é', CONCAT(code, 'x')), k = k + 1 ORDER BY code"));
        // a row keeping its own key in another case takes nothing
        assertEquals("affected 3", same("UPDATE words SET code = UPPER(code), k = k + 5"));
    }

    @Test
    void aColumnInAnotherCharacterSetComparesByItsOwnCollation() throws SQLException {
        // latin1_swedish_ci: 'ü' is 'y' (under utf8mb4_general_ci, the results' collation, it is 'u')
        words("CHARACTER SET latin1", "('y', 1), ('z', 2)");
        assertEquals("error 1062", same("UPDATE words SET code = IF(code = 'z', 'ü', 'x'), k = k + 1 ORDER BY code DESC"));
        words("CHARACTER SET latin1", "('u', 1), ('z', 2)");
        assertEquals("affected 2", same("UPDATE words SET code = IF(code = 'z', 'ü', 'x'), k = k + 1 ORDER BY code DESC"));
    }

    @Test
    void underANoPadCollationTrailingSpacesMakeAnotherKey() throws SQLException {
        boolean mariaDb = SAMPLE.server().version().toLowerCase(java.util.Locale.ROOT).contains("mariadb");
        String noPad = mariaDb ? "COLLATE utf8mb4_nopad_bin" : "COLLATE utf8mb4_0900_bin";
        words(noPad, "('a', 1), ('b', 2)");
        assertEquals("affected 2", same("UPDATE words SET code = IF(code = 'b', 'a ', 'x'), k = k + 1 ORDER BY code DESC"));
        // under PAD SPACE (utf8mb4_bin) they are one key
        words("COLLATE utf8mb4_bin", "('a', 1), ('b', 2)");
        assertEquals("error 1062", same("UPDATE words SET code = IF(code = 'b', 'a ', 'x'), k = k + 1 ORDER BY code DESC"));
    }
}
