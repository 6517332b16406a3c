package io.shardwise.core.config;

import static io.shardwise.core.config.ConfigLoaderTest.BASE;
import static io.shardwise.core.config.ConfigLoaderTest.assertOneProblem;
import static io.shardwise.core.config.ConfigLoaderTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server section's limits, TLS files and authentication plugin (fixtures made with openssl req -x509). */
class ServerSectionTest {
    private static String file(String name) {
        try {
            return Path.of(ServerSectionTest.class.getResource("/tls/" + name).toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ServerConfig server(String section) {
        ConfigLoader.Result r = parse(BASE + "server: " + section + "\n");
        assertEquals(List.of(), r.problems());
        return r.config().server();
    }

    @Test
    void defaultsAreMysqlsOwnWhereAProxyHasNoReasonToDiffer() {
        ServerConfig s = server("{}");
        assertEquals(1000, s.maxConnections());
        assertEquals(Duration.ZERO, s.idleTimeout());
        assertEquals(64 << 20, s.maxPacketSize());
        assertEquals(TlsConfig.GENERATED, s.tls());
        assertEquals("mysql_native_password", s.defaultAuthPlugin());
        assertEquals(true, s.relay());
        assertEquals(Duration.ofSeconds(10), s.connectTimeout());
        assertEquals(100, s.maxConnectErrors());
        assertEquals(Duration.ofSeconds(20), s.shutdownTimeout());
    }

    @Test
    void theShutdownTimeoutIsConfigurableAndValidated() {
        assertEquals(Duration.ofSeconds(5), server("{ shutdownTimeout: 5s }").shutdownTimeout());
        assertEquals(Duration.ZERO, server("{ shutdownTimeout: 0 }").shutdownTimeout());
        assertOneProblem(BASE + "server: { shutdownTimeout: later }\n", "server.shutdownTimeout (line 8)", "'later' is not a duration");
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.DEFAULT.withShutdownTimeout(Duration.ofSeconds(-1)));
    }

    @Test
    void theConnectGuardsAreConfigurableAndValidated() {
        ServerConfig s = server("{ connectTimeout: 2500ms, maxConnectErrors: 5 }");
        assertEquals(Duration.ofMillis(2500), s.connectTimeout());
        assertEquals(5, s.maxConnectErrors());
        assertEquals(Duration.ofMinutes(1), server("{ connectTimeout: 1m }").connectTimeout());
        assertOneProblem(BASE + "server: { connectTimeout: 0 }\n", "server.connectTimeout (line 8)", "'0' is too short; expected at least 1ms");
        assertOneProblem(BASE + "server: { connectTimeout: soon }\n", "server.connectTimeout (line 8)", "'soon' is not a duration");
        assertOneProblem(BASE + "server: { maxConnectErrors: 0 }\n", "server.maxConnectErrors (line 8)", "expected an integer from 1 to");
        assertOneProblem(BASE + "server: { connecttimeout: 5s }\n", "unknown key 'connecttimeout'. Did you mean 'connectTimeout'?");
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.DEFAULT.withConnectGuards(Duration.ZERO, 1));
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.DEFAULT.withConnectGuards(Duration.ofSeconds(1), 0));
    }

    @Test
    void theRelayCanBeSwitchedOff() {
        assertEquals(false, server("{ relay: false }").relay());
        assertEquals(true, server("{ relay: on }").relay());
        assertOneProblem(BASE + "server: { relay: sometimes }\n", "server.relay (line 8)", "'sometimes' is not a boolean");
    }

    @Test
    void theAnnouncedVersionIsTheBackendsUnlessConfigured() {
        assertEquals(null, server("{}").version());
        assertEquals("10.11.6-MariaDB", server("{ version: 10.11.6-MariaDB }").version());
        assertEquals("8.0.36", server("{ version: \"8.0.36\" }").version());
        assertOneProblem(BASE + "server: { version: eight }\n", "server.version (line 8)", "'eight' is not a server version");
    }

    @Test
    void limitsAcceptDurationsAndSizesWithUnits() {
        ServerConfig s = server("{ maxConnections: 20, idleTimeout: 8h, maxPacketSize: 16M }");
        assertEquals(20, s.maxConnections());
        assertEquals(Duration.ofHours(8), s.idleTimeout());
        assertEquals(16 << 20, s.maxPacketSize());
        assertEquals(1 << 30, server("{ maxPacketSize: 1g }").maxPacketSize());
        assertEquals(4096, server("{ maxPacketSize: \"4096\" }").maxPacketSize());
        assertEquals(2048, server("{ maxPacketSize: 2 K }").maxPacketSize());
    }

    @Test
    void badLimitsAreReportedWithPathLineAndRange() {
        assertOneProblem(BASE + "server: { maxConnections: 0 }\n", "server.maxConnections (line 8)", "expected an integer from 1 to 100000");
        assertOneProblem(BASE + "server: { idleTimeout: 1d }\n", "server.idleTimeout (line 8)", "'1d' is not a duration");
        assertOneProblem(BASE + "server: { maxPacketSize: 2G }\n", "server.maxPacketSize (line 8)", "'2G' is out of range; expected bytes from 1024 to 1G");
        assertOneProblem(BASE + "server: { maxPacketSize: 100 }\n", "server.maxPacketSize", "out of range");
        assertOneProblem(BASE + "server: { maxPacketSize: 64MB }\n", "server.maxPacketSize", "'64MB' is not a size");
        assertOneProblem(BASE + "server: { maxconnections: 5 }\n", "unknown key 'maxconnections'. Did you mean 'maxConnections'?");
    }

    @Test
    void tlsFilesAreReadAndTheKeyMustMatchTheCertificate() {
        String cert = file("server-cert.pem");
        ServerConfig s = server("{ tls: { cert: \"" + cert + "\", key: \"" + file("server-key.pem") + "\", required: true } }");
        assertEquals(new TlsConfig(Path.of(cert), Path.of(file("server-key.pem")), true), s.tls());
        assertFalse(s.tls().generatesCertificate());
        // MySQL's own server-key.pem is PKCS#1 ("BEGIN RSA PRIVATE KEY")
        assertTrue(server("{ tls: { cert: \"" + cert + "\", key: \"" + file("server-key-pkcs1.pem") + "\" } }").tls().cert() != null);
        assertOneProblem(BASE + "server: { tls: { cert: \"" + cert + "\", key: \"" + file("other-key.pem") + "\" } }\n",
                "server.tls.key (line 8)", "the key does not belong to the certificate (CN=shardwise-test)");
        assertTrue(server("{ tls: { required: yes } }").tls().generatesCertificate());
    }

    @Test
    void tlsMistakesNameTheFileAndTheFix(@TempDir Path dir) throws Exception {
        String cert = file("server-cert.pem");
        assertOneProblem(BASE + "server: { tls: { cert: \"" + cert + "\" } }\n", "server.tls (line 8)", "give both cert and key");
        assertOneProblem(BASE + "server: { tls: { cert: \"" + dir.resolve("none.pem") + "\", key: \"" + file("server-key.pem") + "\" } }\n",
                "server.tls.cert (line 8)", "cannot read", "none.pem: no such file");
        assertOneProblem(BASE + "server: { tls: { cert: \"" + file("server-key.pem") + "\", key: \"" + file("server-key.pem") + "\" } }\n",
                "server.tls.cert", "holds no PEM certificate");
        assertOneProblem(BASE + "server: { tls: { cert: \"" + cert + "\", key: \"" + cert + "\" } }\n",
                "server.tls.key", "holds no PEM private key");
        Path encrypted = Files.writeString(dir.resolve("enc.pem"), "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");
        assertOneProblem(BASE + "server: { tls: { cert: \"" + cert + "\", key: \"" + encrypted + "\" } }\n",
                "server.tls.key", "encrypted private key", "openssl pkcs8 -topk8 -nocrypt");
        assertOneProblem(BASE + "server: { tls: { required: maybe } }\n", "server.tls.required", "not a boolean");
        assertOneProblem(BASE + "server: { tls: { crt: x } }\n", "unknown key 'crt'. Did you mean 'cert'?");
    }

    @Test
    void theDefaultPluginIsOneOfTheTwoTheServerSpeaks() {
        assertEquals("caching_sha2_password", server("{ auth: { defaultPlugin: caching_sha2_password } }").defaultAuthPlugin());
        assertOneProblem(BASE + "server: { auth: { defaultPlugin: caching_sha2_pasword } }\n", "server.auth.defaultPlugin (line 8)",
                "'caching_sha2_pasword' is not an authentication plugin of this server. Did you mean 'caching_sha2_password'?",
                "Supported: mysql_native_password, caching_sha2_password");
    }

    @Test
    void theRecordRejectsWhatTheParserWouldHaveReported() {
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.DEFAULT.withLimits(0, Duration.ZERO, 1 << 20));
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.DEFAULT.withLimits(1, Duration.ZERO, 10));
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.DEFAULT.withDefaultAuthPlugin("sha256_password"));
        assertThrows(IllegalArgumentException.class, () -> new TlsConfig(Path.of("c.pem"), null, false));
    }
}
