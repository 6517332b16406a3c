package io.shardwise.server.tls;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.spec.ECGenParameterSpec;
import java.security.cert.X509Certificate;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.time.Instant;

/**
 * A self-signed certificate made at start when no certificate is configured, as MySQL 8 does
 * (its auto_generate_certs), so that clients can always negotiate TLS. Its key is ECDSA P-256, not
 * MySQL's RSA-2048: every full handshake signs with it, and a P-256 signature costs the server a
 * small fraction of an RSA-2048 one (connection set-up, see docs/benchmarks/proxy-profile.md); every
 * TLS 1.2/1.3 client this server serves (OpenSSL, GnuTLS, the JDK, Go, Python) accepts it. It encrypts but proves no
 * identity: clients that verify the server (Connector/J VERIFY_CA, mariadb --ssl-verify-server-cert)
 * need a configured certificate or this one exported. Written with the JDK alone (DER by hand, no
 * BouncyCastle), and read back through the JDK's parser, which checks it.
 *
 * @param certificate X.509 v3, CN {@value #COMMON_NAME}, valid ten years, with CA:TRUE (so OpenSSL
 *     accepts it as its own trust anchor) and subjectAltName localhost / 127.0.0.1
 */
public record GeneratedCertificate(X509Certificate certificate, PrivateKey key) {
    public static final String COMMON_NAME = "Shardwise_Auto_Generated_Server_Certificate";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** One per JVM, made on first use: key generation is kept off the connections' path. */
    private static final class Shared {
        static final GeneratedCertificate INSTANCE = generate(Instant.now());
    }

    public static GeneratedCertificate shared() {
        return Shared.INSTANCE;
    }

    public static GeneratedCertificate generate(Instant now) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            KeyPair pair = generator.generateKeyPair();
            byte[] ecdsaWithSha256 = Der.sequence(Der.oid("1.2.840.10045.4.3.2")); // RFC 5758: no parameters
            byte[] name = Der.sequence(Der.set(Der.sequence(Der.oid("2.5.4.3"), Der.utf8(COMMON_NAME))));
            byte[] basicConstraints = Der.sequence(Der.oid("2.5.29.19"), Der.bool(true),
                    Der.octetString(Der.sequence(Der.bool(true))));
            byte[] subjectAltName = Der.sequence(Der.oid("2.5.29.17"), Der.octetString(Der.sequence(
                    Der.implicit(2, "localhost".getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
                    Der.implicit(7, new byte[] {127, 0, 0, 1}))));
            byte[] tbs = Der.sequence(
                    Der.explicit(0, Der.integer(BigInteger.TWO)), // v3
                    Der.integer(new BigInteger(63, RANDOM).add(BigInteger.ONE)),
                    ecdsaWithSha256,
                    name,
                    Der.sequence(Der.time(now.minus(Duration.ofDays(1))), Der.time(now.plus(Duration.ofDays(3650)))),
                    name,
                    pair.getPublic().getEncoded(), // already a SubjectPublicKeyInfo
                    Der.explicit(3, Der.sequence(basicConstraints, subjectAltName)));
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(pair.getPrivate());
            signer.update(tbs);
            byte[] der = Der.sequence(tbs, ecdsaWithSha256, Der.bitString(signer.sign()));
            X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
            certificate.verify(pair.getPublic());
            return new GeneratedCertificate(certificate, pair.getPrivate());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate the self-signed TLS certificate: " + e.getMessage(), e);
        }
    }
}
