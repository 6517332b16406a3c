package io.shardwise.core.config;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the PEM files of a TLS identity with the JDK alone, so that a bad file is a configuration
 * problem at load time, not a failed handshake later. Every method throws
 * {@link IllegalArgumentException} with a message meant for the user (what is wrong, how to fix it).
 */
public final class PemFiles {
    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");
    /** AlgorithmIdentifier rsaEncryption, NULL parameters: wraps a PKCS#1 RSA key into PKCS#8. */
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7,
        0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
    private static final String TO_PKCS8 = "convert it with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pkcs8.pem";

    private PemFiles() {}

    /** The certificates of a PEM file, in file order (the server's own certificate first). */
    public static List<X509Certificate> certificates(Path file) {
        List<X509Certificate> chain = new ArrayList<>();
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (Block b : blocks(file)) {
                if (b.type().equals("CERTIFICATE")) {
                    chain.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(b.der())));
                }
            }
        } catch (CertificateException e) {
            throw new IllegalArgumentException(file + " holds a certificate that cannot be read: " + e.getMessage(), e);
        }
        if (chain.isEmpty()) {
            throw new IllegalArgumentException(file + " holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        return List.copyOf(chain);
    }

    /** The private key of a PEM file: PKCS#8 ("PRIVATE KEY": RSA, EC, EdDSA) or PKCS#1 ("RSA PRIVATE KEY"). */
    public static PrivateKey privateKey(Path file) {
        for (Block b : blocks(file)) {
            switch (b.type()) {
                case "PRIVATE KEY" -> {
                    return pkcs8(file, b.der());
                }
                case "RSA PRIVATE KEY" -> {
                    return pkcs8(file, wrapPkcs1(b.der()));
                }
                case "ENCRYPTED PRIVATE KEY" -> throw new IllegalArgumentException(file
                        + " holds an encrypted private key; give an unencrypted one (protect the file instead): " + TO_PKCS8);
                case "EC PRIVATE KEY" -> throw new IllegalArgumentException(file + " holds an EC key in SEC1 form; " + TO_PKCS8);
                default -> { } // certificates and parameters may share the file
            }
        }
        throw new IllegalArgumentException(file + " holds no PEM private key (-----BEGIN PRIVATE KEY-----)");
    }

    /** Fails unless {@code key} is the private half of {@code certificate}'s public key. */
    public static void checkPair(X509Certificate certificate, PrivateKey key) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm(); // EdDSA, Ed25519, Ed448 sign without a separate digest
        };
        byte[] probe = "shardwise".getBytes(StandardCharsets.US_ASCII);
        boolean matches;
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certificate.getPublicKey());
            verifier.update(probe);
            matches = verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            matches = false;
        }
        if (!matches) {
            throw new IllegalArgumentException("the key does not belong to the certificate ("
                    + certificate.getSubjectX500Principal().getName() + "); give the key the certificate was issued for");
        }
    }

    /** A PEM block: {@code der} in Base64, 64 characters a line. */
    public static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    private record Block(String type, byte[] der) {}

    private static List<Block> blocks(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            String why = e instanceof java.nio.file.NoSuchFileException ? "no such file"
                    : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.toString();
            throw new IllegalArgumentException("cannot read " + file.toAbsolutePath() + ": " + why, e);
        }
        List<Block> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            try {
                blocks.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": the " + m.group(1) + " block is not valid Base64", e);
            }
        }
        return blocks;
    }

    private static PrivateKey pkcs8(Path file, byte[] der) {
        for (String algorithm : List.of("RSA", "EC", "EdDSA", "RSASSA-PSS")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this algorithm; try the next
            }
        }
        throw new IllegalArgumentException(file + " holds a private key of an unknown kind; expected RSA, EC or EdDSA in PKCS#8");
    }

    /** PrivateKeyInfo { version 0, rsaEncryption, OCTET STRING { RSAPrivateKey } } (RFC 5208). */
    private static byte[] wrapPkcs1(byte[] pkcs1) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[] {0x02, 0x01, 0x00});
        body.writeBytes(RSA_ALGORITHM);
        body.write(0x04);
        writeLength(body, pkcs1.length);
        body.writeBytes(pkcs1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x30);
        writeLength(out, body.size());
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    private static void writeLength(ByteArrayOutputStream out, int length) {
        if (length < 0x80) {
            out.write(length);
            return;
        }
        int bytes = length > 0xFFFFFF ? 4 : length > 0xFFFF ? 3 : length > 0xFF ? 2 : 1;
        out.write(0x80 | bytes);
        for (int i = bytes - 1; i >= 0; i--) {
            out.write(length >>> (8 * i));
        }
    }
}
