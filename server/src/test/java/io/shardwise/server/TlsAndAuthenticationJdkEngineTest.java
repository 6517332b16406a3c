package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.handler.ssl.SslProvider;
import io.shardwise.server.tls.ServerTls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every TLS and authentication test again on the JDK's {@code SSLEngine}: the engine a server falls
 * back to where netty-tcnative does not load (or with {@code -Dshardwise.tls.provider=jdk}) must
 * serve the same clients the same way as the OpenSSL one.
 */
class TlsAndAuthenticationJdkEngineTest extends TlsAndAuthenticationTest {
    @BeforeAll
    static void useTheJdkEngine() {
        System.setProperty("shardwise.tls.provider", "jdk");
        assertEquals(SslProvider.JDK, ServerTls.preferredProvider());
    }

    @AfterAll
    static void useThePreferredEngineAgain() {
        System.clearProperty("shardwise.tls.provider");
    }
}
