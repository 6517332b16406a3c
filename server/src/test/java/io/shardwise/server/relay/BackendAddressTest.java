package io.shardwise.server.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.PoolConfig;
import org.junit.jupiter.api.Test;

class BackendAddressTest {
    private static BackendAddress of(String url) throws BackendAddress.Unrelayable {
        return BackendAddress.of(new BackendConfig("ds0", url, "app", "secret", PoolConfig.DEFAULT));
    }

    private static String refusal(String url) {
        return assertThrows(BackendAddress.Unrelayable.class, () -> of(url)).getMessage();
    }

    @Test
    void hostPortDatabaseAndAccountComeFromTheUrlAndConfig() throws Exception {
        BackendAddress a = of("jdbc:mysql://db0.internal:3307/shop_0?sslMode=DISABLED&allowPublicKeyRetrieval=true");
        assertEquals("db0.internal", a.host());
        assertEquals(3307, a.port());
        assertEquals("shop_0", a.database());
        assertEquals("app", a.user());
        assertEquals("secret", a.password());
        assertEquals(3306, of("jdbc:mysql://db0/shop").port());
        assertEquals("::1", of("jdbc:mysql://[::1]:3306/shop").host());
        assertEquals("", of("jdbc:mariadb://db0:3306").database());
        assertTrue(!a.toString().contains("secret"), "the password never prints");
        assertNull(a.tls(), "sslMode=DISABLED: plain TCP");
    }

    @Test
    void theRelayKeepsTheUrlsTlsSetting() throws Exception {
        assertTrue(of("jdbc:mysql://db0:3306/shop?sslMode=REQUIRED").tls().required());
        assertTrue(of("jdbc:mysql://db0:3306/shop?sslMode=VERIFY_IDENTITY").tls().required());
        assertTrue(of("jdbc:mysql://db0:3306/shop?useSSL=true").tls().required());
        assertFalse(of("jdbc:mysql://db0:3306/shop").tls().required(), "Connector/J's default: PREFERRED");
        assertNull(of("jdbc:mariadb://db0:3306/shop").tls(), "MariaDB Connector/J's default: no TLS");
    }

    @Test
    void whatTheRelayCannotHonourLeavesTheBackendToTheJdbcPath() {
        assertTrue(refusal("jdbc:mysql://db0:3306/shop?sslMode=sometimes").contains("sslMode=sometimes"));
        assertTrue(refusal("jdbc:mysql://db0:3306/shop?sslMode=VERIFY_CA&trustCertificateKeyStoreUrl=file:/nonexistent/trust.p12")
                .contains("TLS settings cannot be read"));
        assertTrue(refusal("jdbc:mysql://db0:3306,db1:3306/shop").contains("no single host"));
        assertTrue(refusal("jdbc:mysql://db0:3306/shop?sessionVariables=sql_mode=ANSI").contains("'sessionvariables'"));
        assertTrue(refusal("jdbc:mysql://db0:3306/shop?characterEncoding=latin1").contains("characterEncoding=latin1"));
        assertTrue(refusal("jdbc:mysql://db0:port/shop").contains("unreadable port"));
    }
}
