package io.shardwise.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerIdentityTest {
    @Test
    void theDefaultBackendsVersionAndCommentAreAnnounced() {
        ServerIdentity id = ServerIdentity.of(Map.of("version", "11.4.5-MariaDB", "version_comment", "MariaDB Server"), null);
        assertEquals(new ServerIdentity("11.4.5-MariaDB", "MariaDB Server"), id);
        assertTrue(id.mariaDb());
        assertEquals(110405, id.versionId());
    }

    @Test
    void aConfiguredVersionReplacesTheBackendsAndAnUnreachableBackendFallsBack() {
        assertEquals(new ServerIdentity("10.11.6-MariaDB", "MariaDB Server"),
                ServerIdentity.of(Map.of("version", "11.4.5-MariaDB", "version_comment", "MariaDB Server"), "10.11.6-MariaDB"));
        assertEquals(ServerIdentity.FALLBACK, ServerIdentity.of(Map.of(), null));
        assertEquals("8.4.3", ServerIdentity.of(Map.of(), "8.4.3").version());
    }

    /** MariaDB 11.4.5's own greeting carries "11.4.5-MariaDB" (captured from the embedded server); 10.x prefixes 5.5.5-. */
    @Test
    void theHandshakeVersionIsWhatTheServerFamilySendsThere() {
        assertEquals("11.4.5-MariaDB", new ServerIdentity("11.4.5-MariaDB", "").handshakeVersion());
        assertEquals("5.5.5-10.11.6-MariaDB-log", new ServerIdentity("10.11.6-MariaDB-log", "").handshakeVersion());
        assertEquals("8.0.36", new ServerIdentity("8.0.36", "").handshakeVersion());
        assertEquals(80036, new ServerIdentity("8.0.36", "").versionId());
    }

    @Test
    void mariaDbSkipsMySqlOnlyCommentsForMySql57To99() {
        ServerIdentity maria = new ServerIdentity("10.11.6-MariaDB", "");
        assertTrue(maria.executes(40101, false));
        assertFalse(maria.executes(50700, false));
        assertTrue(maria.executes(50700, true));
        assertTrue(maria.executes(101106, false));
        assertFalse(maria.executes(101107, false));
        ServerIdentity mysql = new ServerIdentity("8.0.36", "");
        assertTrue(mysql.executes(80036, false));
        assertFalse(mysql.executes(0, true));
    }
}
