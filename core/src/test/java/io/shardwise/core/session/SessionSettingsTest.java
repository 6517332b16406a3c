package io.shardwise.core.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 14 item 11 and the system-schema scan of item 10, below the faces. */
class SessionSettingsTest {
    private static final SessionVariables.Client CLIENT = new SessionVariables.Client("app", "10.0.0.9", 12);

    private static String first(ResultCursor cursor) {
        try (cursor) {
            cursor.next();
            return new String(cursor.get(0), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aSelectMixingKnownAndUnknownItemsGoesToTheBackendWithTheLogicalValuesSpliced() {
        SessionVariables v = new SessionVariables(CLIENT);
        assertEquals("SELECT @@version, @@max_connections, _utf8mb4 X'73686f70' AS `DATABASE()`",
                v.forBackend("SELECT @@version, @@max_connections, DATABASE()", LexicalMode.DEFAULT, true, "shop")
                        .replace(v.text("version"), "x").replaceFirst("^SELECT _utf8mb4 X'[0-9a-f]*' AS `@@version`", "SELECT @@version"));
        assertEquals("SELECT 12 AS c, @@innodb_page_size, NULL AS `schema()`",
                v.forBackend("SELECT CONNECTION_ID() AS c, @@innodb_page_size, schema()", LexicalMode.DEFAULT, true, null));
        assertNull(v.forBackend("SELECT @@innodb_page_size", LexicalMode.DEFAULT, true, "shop"), "nothing known: as it is");
        assertNull(v.forBackend("SELECT DATABASE() = 'x', @@innodb_page_size", LexicalMode.DEFAULT, true, "shop"));
    }

    @Test
    void lastInsertIdIsTheSessionsAndAnInteractiveClientWaitsInteractiveTimeout() {
        SessionVariables v = new SessionVariables(CLIENT, () -> Map.of("wait_timeout", "600", "interactive_timeout", "90"));
        v.lastInsertId(() -> 41);
        assertEquals("41", first(v.answer("SELECT LAST_INSERT_ID()", true, "shop")));
        assertEquals("600", first(v.answer("SELECT @@wait_timeout", true, "shop")));
        v.interactive();
        assertEquals("90", first(v.answer("SELECT @@wait_timeout", true, "shop")), "CLIENT_INTERACTIVE: interactive_timeout");
        v.recordSet("SET wait_timeout = 5");
        assertEquals("5", v.text("wait_timeout"));
        v.reset();
        assertEquals("90", v.text("wait_timeout"), "a reset starts over as the interactive client it is");
    }

    @Test
    void showVariablesSpellsBooleansAsTheServer() {
        assertEquals("ON", ShowStatements.spelledAsShown("1", "OFF".getBytes(StandardCharsets.UTF_8)));
        assertEquals("OFF", ShowStatements.spelledAsShown("0", "ON".getBytes(StandardCharsets.UTF_8)));
        assertEquals("0", ShowStatements.spelledAsShown("0", "5".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void statementsNamingASystemSchemaAreFoundByTheirText() {
        assertArrayEquals(new String[] {"mysql", "user"}, SystemSchemas.named("SELECT * FROM `mysql`.`user` u", LexicalMode.DEFAULT));
        assertArrayEquals(new String[] {"SYS", "version"}, SystemSchemas.named("drop view SYS.version", LexicalMode.DEFAULT));
        assertNull(SystemSchemas.named("SELECT mysql FROM sysbench.mysql", LexicalMode.DEFAULT));
        assertNull(SystemSchemas.named("SELECT 'mysql.user'", LexicalMode.DEFAULT));
        assertNull(SystemSchemas.named("SELECT c FROM sbtest1 WHERE id = 1", LexicalMode.DEFAULT));
    }
}
