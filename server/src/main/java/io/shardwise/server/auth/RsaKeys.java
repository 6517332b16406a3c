package io.shardwise.server.auth;

import io.shardwise.core.config.PemFiles;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;

/**
 * The RSA key pair caching_sha2_password clients without TLS encrypt their password with (MySQL's
 * caching_sha2_password_private_key_path, auto-generated). Separate from the TLS key: one key, one
 * use. Made once per JVM on first use, since 2048-bit generation takes tens of milliseconds or more.
 */
public record RsaKeys(PublicKey publicKey, PrivateKey privateKey, String publicKeyPem) {
    private static final class Shared {
        static final RsaKeys INSTANCE = generate();
    }

    public static RsaKeys shared() {
        return Shared.INSTANCE;
    }

    static RsaKeys generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048, new SecureRandom());
            KeyPair pair = generator.generateKeyPair();
            // clients read it as PEM "PUBLIC KEY" (SubjectPublicKeyInfo), what getEncoded() gives
            return new RsaKeys(pair.getPublic(), pair.getPrivate(), PemFiles.pem("PUBLIC KEY", pair.getPublic().getEncoded()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has RSA", e);
        }
    }

    @Override
    public String toString() {
        return "RsaKeys[" + publicKey.getAlgorithm() + "]";
    }
}
