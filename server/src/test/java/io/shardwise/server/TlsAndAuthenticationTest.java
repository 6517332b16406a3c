package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.PemFiles;
import io.shardwise.core.config.ServerConfig;
import io.shardwise.core.config.TlsConfig;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.tls.GeneratedCertificate;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS, caching_sha2_password and the configured limits with real clients: Connector/J and the
 * mariadb command-line client. Each test starts its own server over the shared sample engine, with
 * the server section it needs, so that the caching_sha2 cache starts empty.
 */
class TlsAndAuthenticationTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("tls");
    private static long orders;
    @TempDir
    static Path dir;
    /** A configured identity (generated here, loaded from PEM files as a user's would be). */
    private static TlsConfig configured;
    private static Path certFile;
    private static String trustStore;

    @BeforeAll
    static void start() throws Exception {
        orders = sample.directLong("SELECT COUNT(*) FROM orders");
        GeneratedCertificate identity = GeneratedCertificate.generate(Instant.now());
        certFile = Files.writeString(dir.resolve("server-cert.pem"), PemFiles.pem("CERTIFICATE", identity.certificate().getEncoded()));
        Path keyFile = Files.writeString(dir.resolve("server-key.pem"), PemFiles.pem("PRIVATE KEY", identity.key().getEncoded()));
        configured = new TlsConfig(certFile, keyFile, false);
        trustStore = trustStoreOf(identity, "trust.p12");
    }

    private static String trustStoreOf(GeneratedCertificate identity, String name) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setCertificateEntry("shardwise", identity.certificate());
        Path file = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, "changeit".toCharArray());
        }
        return "&trustCertificateKeyStoreUrl=" + file.toUri() + "&trustCertificateKeyStoreType=PKCS12&trustCertificateKeyStorePassword=changeit";
    }

    private static ServerConfig sampleSettings() {
        return sample.engine.rule().config().server();
    }

    /** Connects, counts the orders through Shardwise and compares with the unsharded copy. */
    private static void countOrders(ShardwiseServer server, String password, String options) throws SQLException {
        SampleServer.assertOrders(SampleServer.connect(server, password, options), orders);
    }

    @Test
    void connectorJNegotiatesTlsWhenAskedAndPlainClientsStillWorkWhenTlsIsOptional() throws Exception {
        ShardwiseServer server = sample.serve(sampleSettings());
        countOrders(server, "app", "&sslMode=REQUIRED");
        countOrders(server, "app", "&sslMode=DISABLED");
        countOrders(server, "app", "&sslMode=PREFERRED");
    }

    @Test
    void connectorJVerifiesTheConfiguredCertificateAndRejectsAnother() throws Exception {
        ShardwiseServer server = sample.serve(sampleSettings().withTls(configured));
        countOrders(server, "app", "&sslMode=VERIFY_CA" + trustStore);
        String otherTrust = trustStoreOf(GeneratedCertificate.generate(Instant.now()), "other.p12");
        SQLException e = assertThrows(SQLException.class, () -> SampleServer.connect(server, "app", "&sslMode=VERIFY_CA" + otherTrust).close());
        Throwable cause = e;
        while (cause != null && !(cause instanceof javax.net.ssl.SSLHandshakeException)) {
            cause = cause.getCause();
        }
        assertTrue(cause != null, () -> "expected a failed TLS handshake: " + e);
    }

    @Test
    void whenTlsIsRequiredAPlainClientGets3159AndATlsClientGetsIn() throws Exception {
        ShardwiseServer server = sample.serve(sampleSettings().withTls(new TlsConfig(certFile, configured.key(), true)));
        SQLException e = assertThrows(SQLException.class, () -> SampleServer.connect(server, "app", "&sslMode=DISABLED").close());
        assertEquals(3159, e.getErrorCode(), e.toString());
        assertEquals("Connections using insecure transport are prohibited while --require_secure_transport=ON.", e.getMessage());
        countOrders(server, "app", "&sslMode=REQUIRED");
        countOrders(server, "app", "&sslMode=VERIFY_CA" + trustStore);
    }

    @Test
    void cachingSha2WithoutTlsFetchesTheKeyOnceThenTakesTheFastPath() throws Exception {
        ShardwiseServer server = sample.serve(sampleSettings().withDefaultAuthPlugin(ServerConfig.CACHING_SHA2_PASSWORD));
        // not cached yet: full authentication, which without TLS needs the server's RSA key
        SQLException refused = assertThrows(SQLException.class, () -> SampleServer.connect(server, "app", "&sslMode=DISABLED").close());
        assertTrue(refused.getMessage().contains("Public Key Retrieval is not allowed"), refused.toString());
        SQLException wrong = assertThrows(SQLException.class,
                () -> SampleServer.connect(server, "guess", "&sslMode=DISABLED&allowPublicKeyRetrieval=true").close());
        assertEquals(1045, wrong.getErrorCode());
        assertEquals("Access denied for user 'app'@'127.0.0.1' (using password: YES)", wrong.getMessage());
        countOrders(server, "app", "&sslMode=DISABLED&allowPublicKeyRetrieval=true");
        // cached now: the scramble alone suffices, no key needed
        countOrders(server, "app", "&sslMode=DISABLED");
        SQLException wrongAgain = assertThrows(SQLException.class,
                () -> SampleServer.connect(server, "guess", "&sslMode=DISABLED&allowPublicKeyRetrieval=true").close());
        assertEquals(1045, wrongAgain.getErrorCode());
    }

    @Test
    void cachingSha2OverTlsSendsThePasswordInsideTheTunnel() throws Exception {
        ShardwiseServer server = sample.serve(sampleSettings().withDefaultAuthPlugin(ServerConfig.CACHING_SHA2_PASSWORD).withTls(configured));
        countOrders(server, "app", "&sslMode=VERIFY_CA" + trustStore);
        countOrders(server, "app", "&sslMode=DISABLED"); // the TLS login filled the cache
    }

    @Test
    void clientsProposingTheOtherPluginAreSwitchedBothWays() throws Exception {
        ShardwiseServer sha2 = sample.serve(sampleSettings().withDefaultAuthPlugin(ServerConfig.CACHING_SHA2_PASSWORD));
        countOrders(sha2, "app", "&sslMode=REQUIRED&defaultAuthenticationPlugin=mysql_native_password");
        ShardwiseServer nativeDefault = sample.serve(sampleSettings());
        countOrders(nativeDefault, "app", "&sslMode=DISABLED&defaultAuthenticationPlugin=caching_sha2_password");
        try (RawClient c = RawClient.connect(nativeDefault.address().getPort(), "app", "app", "shop", "caching_sha2_password")) {
            assertEquals(0, c.loginReply.header(), "switched to mysql_native_password, then OK");
        }
    }

    @Test
    void theMariadbClientConnectsOverTlsVerifiesTheCertificateAndAuthenticatesWithBothPlugins() throws Exception {
        ShardwiseServer required = sample.serve(sampleSettings().withDefaultAuthPlugin(ServerConfig.CACHING_SHA2_PASSWORD)
                .withTls(new TlsConfig(certFile, configured.key(), true)));
        // mariadb proposes mysql_native_password and is switched to caching_sha2_password; full authentication over TLS
        assertEquals("COUNT(*)\n" + orders + "\n", mariadb(required, "--ssl", "--ssl-ca=" + certFile, "--ssl-verify-server-cert"));
        assertEquals("COUNT(*)\n" + orders + "\n", mariadb(required, "--ssl")); // now cached: the fast path
        String refused = mariadbFails(required, "--skip-ssl");
        assertTrue(refused.contains("ERROR 3159"), refused);

        ShardwiseServer optional = sample.serve(sampleSettings());
        assertEquals("COUNT(*)\n" + orders + "\n", mariadb(optional, "--skip-ssl"));
        assertEquals("COUNT(*)\n" + orders + "\n", mariadb(optional, "--ssl"));
    }

    /** PyMySQL with an {@code ssl} context, verifying the configured certificate, over TLS 1.3 and 1.2 (the engine in use). */
    @Test
    void pymysqlLogsInOverTls13And12VerifyingTheConfiguredCertificate() throws Exception {
        ShardwiseServer server = sample.serve(sampleSettings().withTls(new TlsConfig(certFile, configured.key(), true)));
        Path script = Path.of("src/test/python/pymysql_tls.py").toAbsolutePath();
        Process p = new ProcessBuilder("/usr/bin/python3", script.toString(), String.valueOf(server.address().getPort()), certFile.toString())
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the script finished");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        assertEquals("TLSv1.3 True " + orders + "\nTLSv1.2 True " + orders + "\n", out);
        assertEquals(2, server.tls().handshakes().completed(), "both logins' handshakes counted");
    }

    @Test
    void theMariadbClientFetchesTheRsaKeyForCachingSha2WithoutTls() throws Exception {
        ShardwiseServer sha2 = sample.serve(sampleSettings().withDefaultAuthPlugin(ServerConfig.CACHING_SHA2_PASSWORD));
        assertEquals("COUNT(*)\n" + orders + "\n", mariadb(sha2, "--skip-ssl"));
        String wrong = mariadbFails(sha2, "--skip-ssl", "-pguess");
        assertTrue(wrong.contains("ERROR 1045") && wrong.contains("Access denied for user 'app'@'127.0.0.1' (using password: YES)"), wrong);
    }

    @Test
    void theConfiguredLimitsApply() throws Exception {
        ShardwiseServer server = sample.serve(sampleSettings().withLimits(1, Duration.ofMillis(400), 4096));
        try (RawClient first = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            assertEquals(0, first.loginReply.header());
            SQLException refused = assertThrows(SQLException.class, () -> SampleServer.connect(server, "app", "&sslMode=DISABLED").close());
            assertEquals(1040, refused.getErrorCode(), refused.toString());
            first.command(0x03, "SELECT '" + "x".repeat(5000) + "'");
            assertEquals(1153, first.readError().errno());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (server.clientCount() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        try (RawClient idle = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            assertEquals(0, idle.loginReply.header());
            assertEquals(4031, idle.readError().errno(), "disconnected after the idle timeout");
        }
    }

    private static String mariadb(ShardwiseServer server, String... options) throws Exception {
        Result r = runMariadb(server, options);
        assertEquals(0, r.exit(), r.output());
        return r.output();
    }

    private static String mariadbFails(ShardwiseServer server, String... options) throws Exception {
        Result r = runMariadb(server, options);
        assertTrue(r.exit() != 0, r.output());
        return r.output();
    }

    private record Result(int exit, String output) {}

    private static Result runMariadb(ShardwiseServer server, String... options) throws Exception {
        String binary = CommandLineClients.require("mariadb", "mysql");
        List<String> command = new ArrayList<>(List.of(binary, "--protocol=TCP", "-h127.0.0.1", "-P" + server.address().getPort(),
                "-uapp", "-papp"));
        command.addAll(List.of(options)); // a later -p wins
        command.addAll(List.of("--batch", "shop", "-e", "SELECT COUNT(*) FROM orders"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the client finished");
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

}
