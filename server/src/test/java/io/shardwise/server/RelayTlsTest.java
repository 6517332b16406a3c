package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.Engine;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.server.tls.GeneratedCertificate;
import io.shardwise.testkit.ControllableServer;
import io.shardwise.testkit.TestBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Relayed statements keep the TLS their backend's URL asks for. The backend is an embedded MariaDB
 * with a certificate, and the backend account REQUIRES SSL: a relay connection in clear would be
 * refused at login and the statement would take the JDBC path, so a statement counted as relayed
 * went over TLS.
 */
class RelayTlsTest {
    @TempDir
    static Path files;
    private static ControllableServer backend;
    private static String database;

    @BeforeAll
    static void startTlsBackend() throws Exception {
        GeneratedCertificate generated = GeneratedCertificate.shared();
        Path cert = files.resolve("cert.pem");
        Path key = files.resolve("key.pem");
        Files.writeString(cert, pem("CERTIFICATE", generated.certificate().getEncoded()));
        Files.writeString(key, pem("PRIVATE KEY", generated.key().getEncoded()));
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("backend", generated.certificate());
        try (var out = Files.newOutputStream(files.resolve("trust.p12"))) {
            trust.store(out, "changeit".toCharArray());
        }
        backend = TestBackends.dedicatedWithTls(cert, key);
        database = TestBackends.uniqueSchemaName("relay_tls");
        try (Connection c = backend.connect("");
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
            s.execute("CREATE TABLE " + database + ".notes (id INT PRIMARY KEY, body VARCHAR(20))");
            s.execute("INSERT INTO " + database + ".notes VALUES (1, 'secret'), (2, 'other')");
            s.execute("CREATE USER 'tls_only'@'127.0.0.1' IDENTIFIED BY 'pw' REQUIRE SSL");
            s.execute("GRANT ALL ON " + database + ".* TO 'tls_only'@'127.0.0.1'");
        }
    }

    @AfterAll
    static void stopBackend() {
        if (backend != null) {
            backend.close();
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    @Test
    void requiredTlsIsRelayedOverTls() throws Exception {
        assertRelayedOverTls("sslMode=REQUIRED");
    }

    @Test
    void preferredTlsIsRelayedOverTlsWhenTheBackendOffersIt() throws Exception {
        assertRelayedOverTls("sslMode=PREFERRED");
    }

    @Test
    void verifiedTlsChecksTheCertificateAgainstTheTrustStore() throws Exception {
        String store = files.resolve("trust.p12").toUri().toString();
        assertRelayedOverTls("sslMode=VERIFY_IDENTITY&trustCertificateKeyStoreUrl=" + store
                + "&trustCertificateKeyStoreType=PKCS12&trustCertificateKeyStorePassword=changeit");
    }

    private static void assertRelayedOverTls(String tls) throws SQLException {
        ShardingRule rule = ShardingRule.load("""
                schema: shop
                backends:
                  ds0: { url: "jdbc:mysql://127.0.0.1:%d/%s?%s", user: tls_only, password: pw }
                server:
                  users: [ { name: app, password: app } ]
                """.formatted(backend.port(), database, tls), "relay-tls.yaml", name -> null);
        try (Engine engine = Engine.start(rule); ShardwiseServer server = ShardwiseServer.start(engine, "127.0.0.1", 0);
             Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.address().getPort()
                     + "/shop?sslMode=DISABLED&allowPublicKeyRetrieval=true", "app", "app");
             Statement s = c.createStatement()) {
            String sql = "SELECT body FROM notes WHERE id = 1";
            assertEquals("secret", single(s, sql)); // a plan-cache miss: the JDBC path, which plans it
            long before = server.relayedStatements();
            // the first statement counts as answered by the time the client reads its last packet, so the next
            // one is relayed at once; over TLS, since one in clear never would be (the account requires SSL)
            assertEquals("secret", single(s, sql));
            assertEquals(before + 1, server.relayedStatements(), "relayed with " + tls);
        }
    }

    private static String single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }
}
