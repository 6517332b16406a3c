package io.shardwise.server.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.PemFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hand-written DER, checked by the JDK's own X.509 parser and against encodings from X.690's examples. */
class GeneratedCertificateTest {
    @Test
    void derEncodesObjectIdentifiersLengthsAndTimesAsX690Says() {
        HexFormat hex = HexFormat.of();
        assertArrayEquals(hex.parseHex("06092a864886f70d01010b"), Der.oid("1.2.840.113549.1.1.11"));
        assertArrayEquals(hex.parseHex("0603551d13"), Der.oid("2.5.29.19"));
        assertArrayEquals(hex.parseHex("0482010000"), java.util.Arrays.copyOf(Der.octetString(new byte[256]), 5));
        assertArrayEquals(hex.parseHex("047f"), java.util.Arrays.copyOf(Der.octetString(new byte[127]), 2));
        assertArrayEquals(hex.parseHex("048180"), java.util.Arrays.copyOf(Der.octetString(new byte[128]), 3));
        assertEquals("260301120000Z", new String(Der.time(Instant.parse("2026-03-01T12:00:00Z")), 2, 13, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(0x18, Der.time(Instant.parse("2050-01-01T00:00:00Z"))[0], "GeneralizedTime from 2050");
    }

    @Test
    void theCertificateIsAValidSelfSignedV3CertificateForLocalhost() throws Exception {
        Instant now = Instant.parse("2026-11-23T00:00:00Z");
        GeneratedCertificate g = GeneratedCertificate.generate(now);
        X509Certificate c = g.certificate();
        c.verify(c.getPublicKey());
        assertEquals(3, c.getVersion());
        assertEquals("CN=" + GeneratedCertificate.COMMON_NAME, c.getSubjectX500Principal().getName());
        assertEquals(c.getSubjectX500Principal(), c.getIssuerX500Principal());
        c.checkValidity(java.util.Date.from(now.plusSeconds(86400L * 365 * 9)));
        assertEquals(Integer.MAX_VALUE, c.getBasicConstraints(), "CA:TRUE without a path length");
        assertEquals(List.of(List.of(2, "localhost"), List.of(7, "127.0.0.1")), c.getSubjectAlternativeNames().stream().toList());
        // P-256, not RSA-2048: a full handshake's signature is the bulk of its CPU
        assertEquals("SHA256withECDSA", c.getSigAlgName());
        assertEquals("EC", c.getPublicKey().getAlgorithm());
        assertEquals(256, ((java.security.interfaces.ECPublicKey) c.getPublicKey()).getParams().getCurve().getField().getFieldSize());
        PemFiles.checkPair(c, g.key());
    }

    @Test
    void itsPemFilesLoadAsAConfiguredIdentity(@TempDir Path dir) throws Exception {
        GeneratedCertificate g = GeneratedCertificate.generate(Instant.now());
        Path cert = Files.writeString(dir.resolve("cert.pem"), PemFiles.pem("CERTIFICATE", g.certificate().getEncoded()));
        Path key = Files.writeString(dir.resolve("key.pem"), PemFiles.pem("PRIVATE KEY", g.key().getEncoded()));
        assertEquals(g.certificate(), PemFiles.certificates(cert).get(0));
        assertEquals(g.key(), PemFiles.privateKey(key));
        try (ServerTls tls = ServerTls.of(new io.shardwise.core.config.TlsConfig(cert, key, true))) {
            assertTrue(tls.required());
            assertTrue(tls.describe().startsWith("TLS required, certificate " + cert + " (SHA-256 "), tls.describe());
            assertTrue(tls.describe().endsWith(", " + tls.engineName() + ", session resumption on"), tls.describe());
        }
    }
}
