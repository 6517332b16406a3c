package io.shardwise.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the backend's collation table decides for a session: a handshake's id, a character set's
 * default collation (what SET NAMES gives collation_connection), MySQL's errors for unknown names, and
 * what SET NAMES / SET CHARACTER SET make clients read back.
 */
class CollationsTest {
    static final Collations TABLE = Collations.of(new String[][] {
            {"8", "latin1_swedish_ci", "latin1", "Yes"}, {"5", "latin1_german1_ci", "latin1", ""},
            {"47", "latin1_bin", "latin1", ""}, {"45", "utf8mb4_general_ci", "utf8mb4", "Yes"},
            {"46", "utf8mb4_bin", "utf8mb4", ""}, {"33", "utf8mb3_general_ci", "utf8mb3", "Yes"}});

    @Test
    void aHandshakeIdNamesItsCollationAndCharacterSet() {
        assertEquals(new Collations.Collation("latin1_german1_ci", "latin1"), TABLE.byId(5));
        assertNull(TABLE.byId(250), "an id the backend does not know keeps the server's default");
    }

    @Test
    void unknownNamesFailAsMysqlFailsThem() {
        assertEquals(1115, assertThrows(ShardwiseException.class, () -> TABLE.charset("nosuch")).errno());
        ShardwiseException collation = assertThrows(ShardwiseException.class, () -> TABLE.collation("nosuch_ci", "latin1"));
        assertEquals(1273, collation.errno());
        assertEquals("Unknown collation: 'nosuch_ci'", collation.getMessage());
        ShardwiseException mismatch = assertThrows(ShardwiseException.class, () -> TABLE.collation("utf8mb4_bin", "latin1"));
        assertEquals(1253, mismatch.errno());
        assertEquals("42000", mismatch.sqlState());
        assertEquals("latin1_swedish_ci", TABLE.charset("LATIN1").name());
        assertEquals("utf8mb3", TABLE.charsetName("utf8"), "utf8 is the backend's utf8mb3");
        assertEquals("utf8mb3_general_ci", TABLE.collation("utf8_general_ci", "utf8").name());
    }

    @Test
    void withoutATableNothingIsRefused() {
        assertNull(Collations.UNKNOWN.charset("nosuch"));
        assertNull(Collations.UNKNOWN.collation("nosuch_ci", null));
    }

    @Test
    void setNamesAndSetCharacterSetReadBackAsMysqlSetsThem() {
        SessionVariables variables = new SessionVariables(new SessionVariables.Client("app", "h", 1), Map::of, () -> null, () -> TABLE);
        String sql = "SELECT @@character_set_client, @@character_set_connection, @@character_set_results, @@collation_connection";
        variables.recordSet("SET NAMES latin1 COLLATE latin1_german1_ci");
        assertEquals("latin1|latin1|latin1|latin1_german1_ci", row(variables.answer(sql, true, "shop")));
        variables.recordSet("SET NAMES utf8mb4");
        assertEquals("utf8mb4|utf8mb4|utf8mb4|utf8mb4_general_ci", row(variables.answer(sql, true, "shop")),
                "NAMES without COLLATE: the character set's default collation");
        variables.recordSet("SET CHARACTER SET latin1");
        assertEquals("latin1|utf8mb4|latin1|utf8mb4_general_ci", row(variables.answer(sql, true, "shop")),
                "CHARACTER SET: the connection's character set is the database's");
        variables.recordSet("SET character_set_connection = utf8");
        assertEquals("latin1|utf8mb3|latin1|utf8mb3_general_ci", row(variables.answer(sql, true, "shop")));
    }

    private static String row(ResultCursor cursor) {
        List<String> out = new ArrayList<>();
        try (cursor) {
            cursor.next();
            for (Column ignored : cursor.columns()) {
                byte[] v = cursor.get(out.size());
                out.add(v == null ? "NULL" : new String(v, StandardCharsets.UTF_8));
            }
        }
        return String.join("|", out);
    }
}
