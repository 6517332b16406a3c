package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import io.shardwise.server.tls.ServerTls;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * TLS session resumption with a real client: OpenSSL's {@code s_client} speaks MySQL's STARTTLS
 * ({@code -starttls mysql}: greeting, SSL request, handshake) and with {@code -reconnect} connects
 * five more times offering the session it got, printing "New" or "Reused" for each connection.
 * A resumed handshake skips the certificate's RSA signature, the bulk of a full handshake's CPU.
 */
class TlsResumptionTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("tlsresume");
    private ShardwiseServer server;

    @AfterEach
    void stop() {
        System.clearProperty("shardwise.tls.provider");
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theOpenSslEngineServesWhereTcnativeShipsAndSaysSo() {
        assumeTrue(shipsTcnative(), "netty-tcnative ships for linux x86_64 and aarch64 only");
        assertTrue(OpenSsl.isAvailable(), () -> "tcnative did not load: " + OpenSsl.unavailabilityCause());
        server = ShardwiseServer.start(sample.engine, "127.0.0.1", 0);
        assertEquals(SslProvider.OPENSSL, server.tls().provider());
        assertTrue(server.tls().describe().contains("OpenSSL engine BoringSSL"), server.tls().describe());
        assertTrue(server.tls().describe().contains("session resumption on"), server.tls().describe());
    }

    /**
     * s_client drops each TLS 1.3 connection before it reads the server's session ticket (a MySQL
     * server says nothing until the client's login arrives), so it can never resume under 1.3. A
     * client that logs in reads it: here the JDK's client engine, which caches the tickets it
     * receives per server and offers one on its next connection.
     */
    @Test
    void aTls13ClientThatLogsInResumesItsSessionByTicketOnTheOpenSslEngine() throws Exception {
        assumeTrue(shipsTcnative() && OpenSsl.isAvailable(), "the OpenSSL engine is not available here");
        server = ShardwiseServer.start(sample.engine, "127.0.0.1", 0);
        javax.net.ssl.SSLContext client = trustingClient("TLSv1.3");
        for (int i = 0; i < 3; i++) {
            try (RawClient c = RawClient.connectTls(server.address().getPort(), "app", "app", "shop", client)) {
                assertEquals(0, c.loginReply.header(), "logged in over TLS");
                assertEquals("TLSv1.3", c.tlsSession().getProtocol());
            }
        }
        ServerTls.Handshakes handshakes = server.tls().handshakes();
        assertEquals(3, handshakes.completed());
        assertEquals(2, handshakes.resumed(), () -> "the second and third connections resumed the first one's session: " + handshakes);
    }

    /** A client context that trusts any certificate (the server's is generated) and speaks only {@code protocol}. */
    private static javax.net.ssl.SSLContext trustingClient(String protocol) throws Exception {
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance(protocol);
        context.init(null, new javax.net.ssl.TrustManager[] {new javax.net.ssl.X509TrustManager() {
            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {}

            @Override
            public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
            }
        }}, null);
        return context;
    }

    @Test
    void aTls12ClientResumesItsSessionOnTheOpenSslEngine() throws Exception {
        assumeTrue(shipsTcnative() && OpenSsl.isAvailable(), "the OpenSSL engine is not available here");
        server = ShardwiseServer.start(sample.engine, "127.0.0.1", 0);
        assertEquals(List.of("New, TLSv1.2", "Reused, TLSv1.2", "Reused, TLSv1.2", "Reused, TLSv1.2", "Reused, TLSv1.2",
                "Reused, TLSv1.2"), reconnects("-tls1_2"));
        assertEquals(5, server.tls().handshakes().resumed());
        assertEquals(6, server.tls().handshakes().completed());
    }

    @Test
    void aTls12ClientResumesItsSessionOnTheJdkEngine() throws Exception {
        System.setProperty("shardwise.tls.provider", "jdk");
        server = ShardwiseServer.start(sample.engine, "127.0.0.1", 0);
        assertEquals(SslProvider.JDK, server.tls().provider());
        assertEquals(-1, server.tls().handshakes().resumed(), "the JDK engine counts no resumptions");
        assertEquals(List.of("New, TLSv1.2", "Reused, TLSv1.2", "Reused, TLSv1.2", "Reused, TLSv1.2", "Reused, TLSv1.2",
                "Reused, TLSv1.2"), reconnects("-tls1_2"));
    }

    private static boolean shipsTcnative() {
        String arch = System.getProperty("os.arch");
        return System.getProperty("os.name").startsWith("Linux") && (arch.equals("amd64") || arch.equals("aarch64"));
    }

    /** "New, TLSv1.3" or "Reused, TLSv1.3" for each of s_client's six connections, in order. */
    private List<String> reconnects(String protocol) throws Exception {
        File openssl = new File("/usr/bin/openssl");
        assumeTrue(openssl.canExecute(), "no openssl command-line tool");
        Process p = new ProcessBuilder(openssl.getPath(), "s_client", "-connect", "127.0.0.1:" + server.address().getPort(),
                "-starttls", "mysql", "-reconnect", protocol).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "s_client finished");
        return output.lines().filter(l -> l.startsWith("New, ") || l.startsWith("Reused, "))
                .map(l -> l.substring(0, l.indexOf(',', l.indexOf(',') + 1))).toList();
    }
}
