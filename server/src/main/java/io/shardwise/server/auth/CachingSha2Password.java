package io.shardwise.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Arrays;
import javax.crypto.Cipher;

/**
 * caching_sha2_password's cryptography (MySQL's sha2_password.cc and Connector/J's Security). The
 * fast path: the client sends {@code SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) + nonce)}; a server
 * that has {@code SHA256(SHA256(pw))} cached unmasks {@code SHA256(pw)} and hashes it. Full
 * authentication: the password itself, NUL-terminated, over TLS; without TLS XOR-ed with the nonce
 * (cyclically) and RSA-OAEP encrypted with the server's public key.
 */
public final class CachingSha2Password {
    public static final String PLUGIN = "caching_sha2_password";
    /** The client asks for the server's RSA public key (a one-byte packet). */
    public static final byte REQUEST_PUBLIC_KEY = 2;
    /** AuthMoreData bodies: the scramble matched a cached entry; OK follows. */
    public static final byte FAST_AUTH_SUCCESS = 3;
    /** AuthMoreData bodies: send the password (TLS) or ask for the key (no TLS). */
    public static final byte PERFORM_FULL_AUTHENTICATION = 4;
    public static final String RSA_TRANSFORMATION = "RSA/ECB/OAEPWithSHA-1AndMGF1Padding";
    static final int SCRAMBLE_LENGTH = 32;

    private CachingSha2Password() {}

    /** What a client sends on the fast path; empty for an empty password. */
    public static byte[] scramble(byte[] nonce, String password) {
        if (password.isEmpty()) {
            return new byte[0];
        }
        MessageDigest sha256 = sha256();
        byte[] stage1 = sha256.digest(password.getBytes(StandardCharsets.UTF_8));
        byte[] stage2 = sha256.digest(stage1);
        sha256.update(stage2);
        sha256.update(nonce, 0, 20);
        byte[] mask = sha256.digest();
        for (int i = 0; i < mask.length; i++) {
            mask[i] ^= stage1[i];
        }
        return mask;
    }

    /** {@code SHA256(SHA256(password))}: what the server's cache keeps for a user. */
    public static byte[] cacheEntry(String password) {
        MessageDigest sha256 = sha256();
        return sha256.digest(sha256.digest(password.getBytes(StandardCharsets.UTF_8)));
    }

    /** Whether {@code scramble} proves the password behind {@code cacheEntry}; constant-time compare. */
    public static boolean matches(byte[] nonce, byte[] cacheEntry, byte[] scramble) {
        if (scramble.length != SCRAMBLE_LENGTH) {
            return false;
        }
        MessageDigest sha256 = sha256();
        sha256.update(cacheEntry);
        sha256.update(nonce, 0, 20);
        byte[] stage1 = sha256.digest();
        for (int i = 0; i < stage1.length; i++) {
            stage1[i] ^= scramble[i];
        }
        return MessageDigest.isEqual(sha256.digest(stage1), cacheEntry);
    }

    /** What a client sends without TLS once it has the key: RSA-OAEP of (password + NUL) XOR nonce. */
    public static byte[] encryptPassword(PublicKey key, byte[] nonce, String password) throws GeneralSecurityException {
        byte[] plain = Arrays.copyOf(password.getBytes(StandardCharsets.UTF_8), password.getBytes(StandardCharsets.UTF_8).length + 1);
        xor(plain, nonce);
        Cipher cipher = Cipher.getInstance(RSA_TRANSFORMATION);
        cipher.init(Cipher.ENCRYPT_MODE, key);
        return cipher.doFinal(plain);
    }

    /** The password a client encrypted, without its NUL terminator. */
    public static byte[] decryptPassword(PrivateKey key, byte[] nonce, byte[] encrypted) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance(RSA_TRANSFORMATION);
        cipher.init(Cipher.DECRYPT_MODE, key);
        byte[] plain = cipher.doFinal(encrypted);
        xor(plain, nonce);
        return withoutNul(plain);
    }

    /** A cleartext password packet (over TLS) without its NUL terminator. */
    static byte[] withoutNul(byte[] password) {
        int end = password.length;
        while (end > 0 && password[end - 1] == 0) {
            end--;
        }
        return Arrays.copyOf(password, end);
    }

    /** MySQL's xor_string: the nonce repeats over the whole text, terminator included. */
    private static void xor(byte[] text, byte[] nonce) {
        for (int i = 0; i < text.length; i++) {
            text[i] ^= nonce[i % 20];
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
