package io.shardwise.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.BackendUrl.Host;
import io.shardwise.core.config.BackendUrl.Tls;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackendUrlTest {
    private static BackendUrl url(String url) {
        return new BackendConfig("ds0", url, "app", "secret", PoolConfig.DEFAULT).address();
    }

    @Test
    void hostsPortsAndTheDatabaseAreReadOnce() {
        BackendUrl u = url("jdbc:mysql://db0.internal:3307/shop_0?sslMode=DISABLED");
        assertEquals(List.of(new Host("db0.internal", 3307)), u.hosts());
        assertEquals("shop_0", u.database());
        assertEquals(List.of(new Host("db0", 3306)), url("jdbc:mysql://db0/shop").hosts());
        assertEquals(List.of(new Host("::1", 3306)), url("jdbc:mysql://[::1]:3306/shop").hosts());
        assertEquals(List.of(new Host("h1", 3306), new Host("h2", 3307)), url("jdbc:mariadb://h1:3306,h2:3307/db").hosts());
        assertEquals("h1:3306,h2:3307", url("jdbc:mariadb://H1:3306,h2:3307/db").server().toLowerCase());
        assertFalse(url("jdbc:mysql://db0:port/shop").hosts().get(0).readable());
        assertFalse(url("jdbc:mysql://address=(host=db0)(port=3306)/shop").hosts().get(0).readable());
    }

    @Test
    void theDatabaseAndPropertyValuesAreDecodedAsConnectorJDecodesThem() {
        assertEquals("my db", url("jdbc:mariadb://h1:3306,h2:3306/my%20db").database());
        assertEquals("a+b", url("jdbc:mysql://h/a+b").database()); // Connector/J keeps a plus sign
        assertEquals("sql_mode='ANSI'", url("jdbc:mysql://h/db?sessionVariables=sql_mode%3D%27ANSI%27").property("SESSIONVARIABLES"));
        assertNull(url("jdbc:mysql://127.0.0.1:3306/").database());
        assertNull(url("jdbc:mysql://127.0.0.1:3306?x=/y").database());
        assertEquals("/y", url("jdbc:mysql://127.0.0.1:3306?x=/y").property("x"));
    }

    @Test
    void tlsFollowsSslModeOrTheOlderFlagsWithEachDriversDefault() {
        assertEquals(Tls.PREFERRED, url("jdbc:mysql://h/db").tls());
        assertEquals(Tls.DISABLED, url("jdbc:mariadb://h/db").tls());
        assertEquals(Tls.DISABLED, url("jdbc:mysql://h/db?sslMode=DISABLED").tls());
        assertEquals(Tls.REQUIRED, url("jdbc:mysql://h/db?sslMode=required").tls());
        assertEquals(Tls.VERIFY_CA, url("jdbc:mysql://h/db?sslMode=VERIFY_CA").tls());
        assertEquals(Tls.VERIFY_IDENTITY, url("jdbc:mariadb://h/db?sslMode=verify-full").tls());
        assertEquals(Tls.REQUIRED, url("jdbc:mariadb://h/db?sslMode=trust").tls());
        assertEquals(Tls.DISABLED, url("jdbc:mysql://h/db?useSSL=false").tls());
        assertEquals(Tls.REQUIRED, url("jdbc:mysql://h/db?useSSL=true").tls());
        assertEquals(Tls.VERIFY_CA, url("jdbc:mysql://h/db?useSSL=true&verifyServerCertificate=true").tls());
        assertTrue(Tls.REQUIRED.required() && !Tls.PREFERRED.required());
        assertThrows(IllegalArgumentException.class, () -> url("jdbc:mysql://h/db?sslMode=sometimes").tls());
    }
}
