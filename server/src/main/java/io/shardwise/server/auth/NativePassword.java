package io.shardwise.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * mysql_native_password: the client proves it knows the password with
 * {@code SHA1(password) XOR SHA1(seed + SHA1(SHA1(password)))}; an empty password sends nothing.
 */
public final class NativePassword {
    public static final String PLUGIN = "mysql_native_password";
    private static final SecureRandom RANDOM = new SecureRandom();

    private NativePassword() {}

    /**
     * A fresh 20-byte seed of printable ASCII (some clients treat it as a C string, so no NUL). One
     * draw of the shared generator per seed, not one per byte: each draw takes its lock (and, for
     * the native generator, may read the kernel's), once per connection instead of twenty times.
     * The reduction modulo 93 leaves each byte 6.52 of the 6.54 bits of entropy a uniformly drawn
     * printable byte has.
     */
    public static byte[] newSeed() {
        byte[] seed = new byte[20];
        RANDOM.nextBytes(seed);
        for (int i = 0; i < seed.length; i++) {
            seed[i] = (byte) (0x21 + (seed[i] & 0xFF) % (0x7E - 0x21));
        }
        return seed;
    }

    /** What a client sends for {@code password} over {@code seed}. */
    public static byte[] scramble(byte[] seed, String password) {
        if (password.isEmpty()) {
            return new byte[0];
        }
        MessageDigest sha1 = sha1();
        byte[] stage1 = sha1.digest(password.getBytes(StandardCharsets.UTF_8));
        byte[] stage2 = sha1.digest(stage1);
        sha1.update(seed, 0, 20);
        byte[] mask = sha1.digest(stage2);
        for (int i = 0; i < mask.length; i++) {
            mask[i] ^= stage1[i];
        }
        return mask;
    }

    /** Whether {@code response} proves {@code password}; compares in constant time. */
    public static boolean matches(byte[] seed, String password, byte[] response) {
        return MessageDigest.isEqual(scramble(seed, password), response);
    }

    private static MessageDigest sha1() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
