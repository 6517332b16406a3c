package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.InvalidConfigException;
import io.shardwise.core.config.PemFiles;
import io.shardwise.core.config.ServerConfig;
import io.shardwise.core.config.TlsConfig;
import io.shardwise.core.config.UserConfig;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.server.tls.GeneratedCertificate;
import io.shardwise.server.tls.ServerTls;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Passwords and TLS private keys never reach a log or an error message (issue 17): everything the
 * server and its configuration write (stdout, stderr, java.util.logging, where System.Logger goes,
 * and the messages clients and the command line get) is captured during failed logins, broken
 * configuration files holding passwords, and TLS set-ups good and bad, then searched for the
 * secrets: each password, and every line of the private key's PEM body (and its first 20
 * characters, should a message cut it).
 */
class SecretsInLogsTest {
    private static final String USER_SECRET = "Usr-8f3c-Secret-pw";
    private static final String GUESS_SECRET = "Guess-41aa-Secret";
    private static final String BACKEND_SECRET = "Bkd-77e0-Secret-pw";

    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("secrets");
    @TempDir
    Path dir;

    private final StringBuilder captured = new StringBuilder();
    private final ByteArrayOutputStream streams = new ByteArrayOutputStream();
    private PrintStream out;
    private PrintStream err;
    private final Handler julHandler = new Handler() {
        @Override
        public synchronized void publish(LogRecord r) {
            captured.append(r.getLevel()).append(' ').append(r.getLoggerName()).append(": ").append(r.getMessage()).append('\n');
            if (r.getParameters() != null) {
                for (Object p : r.getParameters()) {
                    captured.append("  param: ").append(p).append('\n');
                }
            }
            for (Throwable t = r.getThrown(); t != null; t = t.getCause()) {
                captured.append("  thrown: ").append(t).append('\n');
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void capture() {
        out = System.out;
        err = System.err;
        PrintStream tee = new PrintStream(streams, true, StandardCharsets.UTF_8);
        System.setOut(new PrintStream(new Tee(out, tee), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new Tee(err, tee), true, StandardCharsets.UTF_8));
        Logger root = Logger.getLogger("");
        root.addHandler(julHandler);
        root.setLevel(Level.ALL); // DEBUG and TRACE too: a secret must not hide in a level nobody enables in tests
    }

    @AfterEach
    void restore() {
        System.setOut(out);
        System.setErr(err);
        Logger.getLogger("").removeHandler(julHandler);
        Logger.getLogger("").setLevel(Level.INFO);
    }

    /** Writes to the original stream and to the capture. */
    private static final class Tee extends java.io.OutputStream {
        private final PrintStream a;
        private final PrintStream b;

        Tee(PrintStream a, PrintStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(int c) {
            a.write(c);
            b.write(c);
        }

        @Override
        public void write(byte[] bytes, int off, int len) {
            a.write(bytes, off, len);
            b.write(bytes, off, len);
        }
    }

    private String everything() {
        return captured + "\n" + streams.toString(StandardCharsets.UTF_8);
    }

    private void assertNoSecret(List<String> secrets) {
        String text = everything();
        for (String secret : secrets) {
            int at = text.indexOf(secret);
            assertTrue(at < 0, () -> "a secret appears in the logs or messages: ..." + text.substring(Math.max(0, at - 200),
                    Math.min(text.length(), at + secret.length() + 100)));
        }
    }

    @Test
    void theCaptureSeesEachChannelTheScanRelieson() {
        System.err.println("stderr canary");
        System.out.println("stdout canary");
        System.getLogger("io.shardwise.canary").log(System.Logger.Level.DEBUG, "system logger canary");
        String text = everything();
        assertTrue(text.contains("stderr canary") && text.contains("stdout canary") && text.contains("system logger canary"), text);
    }

    @Test
    void failedLoginsOverPlainAndTlsConnectionsLeaveNoPasswordBehind() throws Exception {
        GeneratedCertificate identity = GeneratedCertificate.generate(Instant.now());
        Path cert = Files.writeString(dir.resolve("cert.pem"), PemFiles.pem("CERTIFICATE", identity.certificate().getEncoded()));
        String keyPem = PemFiles.pem("PRIVATE KEY", identity.key().getEncoded());
        Path key = Files.writeString(dir.resolve("key.pem"), keyPem);
        ServerConfig settings = sample.engine.rule().config().server()
                .withUsers(List.of(new UserConfig("app", USER_SECRET, List.of("shop"))))
                .withTls(new TlsConfig(cert, key, false));
        List<String> messages = new ArrayList<>();
        for (String plugin : List.of(ServerConfig.NATIVE_PASSWORD, ServerConfig.CACHING_SHA2_PASSWORD)) {
            try (ShardwiseServer server = ShardwiseServer.start(sample.engine, settings.withDefaultAuthPlugin(plugin), 0)) {
                System.out.println(server.tls().describe()); // what Main prints at start
                String url = "jdbc:mysql://127.0.0.1:" + server.address().getPort() + "/shop?user=app";
                for (String options : List.of("&sslMode=DISABLED&allowPublicKeyRetrieval=true", "&sslMode=REQUIRED")) {
                    SQLException wrong = assertThrows(SQLException.class,
                            () -> DriverManager.getConnection(url + "&password=" + GUESS_SECRET + options).close());
                    assertEquals(1045, wrong.getErrorCode(), wrong.toString());
                    messages.add(wrong.toString());
                    try (Connection c = DriverManager.getConnection(url + "&password=" + USER_SECRET + options)) {
                        assertTrue(c.isValid(5));
                    }
                    SQLException unknown = assertThrows(SQLException.class, () -> DriverManager.getConnection(
                            url.replace("/shop?", "/nope?") + "&password=" + USER_SECRET + options).close());
                    messages.add(unknown.toString());
                }
            }
        }
        System.err.println(String.join("\n", messages));
        assertTrue(everything().contains("Access denied for user 'app'"), "the messages were captured");
        List<String> secrets = new ArrayList<>(List.of(USER_SECRET, GUESS_SECRET));
        secrets.addAll(keyLines(keyPem));
        assertNoSecret(secrets);
    }

    @Test
    void configurationErrorsNameThePlaceButNotThePassword() throws Exception {
        String yaml = sampleYaml()
                .replace("password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"", "password: \"" + BACKEND_SECRET + "\"")
                .replace("password: \"${env:SHARDWISE_APP_PASSWORD:-app}\", schemas: [shop]",
                        "password: \"" + USER_SECRET + "\", schemas: [shopp]")
                + "  maxConnections: lots\n"
                + "  relay: " + "sometimes\n";
        // a password with a malformed environment reference, and a URL carrying its credentials
        yaml = yaml.replaceFirst("user: \"\\$\\{env:SHARDWISE_SAMPLE_USER:-root}\"\n    password: \"" + BACKEND_SECRET + "\"",
                java.util.regex.Matcher.quoteReplacement("user: root\n    password: \"" + BACKEND_SECRET + "${env:\""));
        yaml = yaml.replaceFirst("url: \"jdbc:mysql://[^\"]*_1[^\"]*\"",
                java.util.regex.Matcher.quoteReplacement("url: \"mysql://root:" + BACKEND_SECRET + "@127.0.0.1:3306/shop_1?password="
                        + BACKEND_SECRET + "\""));
        Path file = Files.writeString(dir.resolve("broken.yaml"), yaml);
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> ShardingRule.load(file, Map.<String, String>of()::get));
        System.err.println(e.getMessage());
        StringWriter check = new StringWriter();
        int exit = Main.commandLine().setOut(new PrintWriter(check)).setErr(new PrintWriter(check))
                .execute("--check", "--config", file.toString());
        System.err.println(check);
        assertEquals(Main.FAILED, exit);
        String text = everything();
        assertTrue(text.contains("server.maxConnections") && text.contains("backends.ds0.password") && text.contains("backends.ds1.url"),
                () -> "each problem is reported: " + e.getMessage());
        assertNoSecret(List.of(USER_SECRET, BACKEND_SECRET));
    }

    @Test
    void tlsSetUpGoodOrBrokenNeverShowsTheKey() throws Exception {
        GeneratedCertificate identity = GeneratedCertificate.generate(Instant.now());
        Path cert = Files.writeString(dir.resolve("cert.pem"), PemFiles.pem("CERTIFICATE", identity.certificate().getEncoded()));
        String keyPem = PemFiles.pem("PRIVATE KEY", identity.key().getEncoded());
        List<String> secrets = keyLines(keyPem);
        String otherPem = PemFiles.pem("PRIVATE KEY", GeneratedCertificate.generate(Instant.now()).key().getEncoded());
        secrets.addAll(keyLines(otherPem));
        List<String> body = keyLines(keyPem);
        Map<String, String> keys = Map.of(
                "good", keyPem,
                "other", otherPem, // does not belong to the certificate
                "corrupt", keyPem.replace(body.get(3), body.get(3).replace('A', '!').replace('M', '*')),
                "truncated", keyPem.substring(0, keyPem.length() / 2) + "\n-----END PRIVATE KEY-----\n",
                "mislabelled", keyPem.replace("PRIVATE KEY", "RSA PRIVATE KEY"));
        for (Map.Entry<String, String> k : keys.entrySet()) {
            Path key = Files.writeString(dir.resolve(k.getKey() + "-key.pem"), k.getValue());
            String yaml = sampleYaml() + "  tls: { cert: \"" + cert + "\", key: \"" + key + "\" }\n";
            try {
                ShardingRule rule = ShardingRule.load(yaml, k.getKey() + ".yaml", Map.of("SHARDWISE_SAMPLE_PASSWORD", "")::get);
                try (ServerTls tls = ServerTls.of(rule.config().server().tls())) {
                    System.out.println(k.getKey() + ": " + tls.describe());
                }
            } catch (InvalidConfigException | IllegalArgumentException | IllegalStateException e) {
                System.err.println(k.getKey() + ": " + e);
            }
        }
        String text = everything();
        assertTrue(text.contains("good: ") && text.contains("other: ") && text.contains("corrupt: ") && text.contains("truncated: "), text);
        assertNoSecret(secrets);
    }

    private static String sampleYaml() throws IOException {
        try (InputStream in = SecretsInLogsTest.class.getResourceAsStream("/io/shardwise/sample/shop.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Each line of a PEM body, and the first 20 characters of each (a message may cut a line short). */
    private static List<String> keyLines(String pem) {
        List<String> out = new ArrayList<>();
        for (String line : pem.split("\n")) {
            if (!line.startsWith("-----") && line.length() >= 20) {
                out.add(line.strip());
                out.add(line.substring(0, 20));
            }
        }
        return out;
    }
}
