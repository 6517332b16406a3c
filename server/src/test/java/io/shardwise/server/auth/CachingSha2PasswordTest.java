package io.shardwise.server.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.PemFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The password crypto against vectors computed outside this code: Python's hashlib for the hashes
 * (the formulas of MySQL's sha2_password.cc and the protocol's mysql_native_password page), and
 * {@code openssl pkeyutl -encrypt -pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha1} for the
 * RSA ciphertext (of ("secret" + NUL) XOR nonce, under src/test/resources/auth/rsa-key.pem).
 */
class CachingSha2PasswordTest {
    /** 0x21..0x34, printable as greetings send it. */
    private static final byte[] NONCE = "!\"#$%&'()*+,-./01234".getBytes(StandardCharsets.US_ASCII);
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void theFastPathScrambleIsSha256OfThePasswordMaskedWithTheNonce() {
        assertArrayEquals(HEX.parseHex("3e6e1d1225dfe8531b46e47caf897453dba8211b1e2fdca5e10ef0f98718b18e"),
                CachingSha2Password.scramble(NONCE, "secret"));
        assertArrayEquals(new byte[0], CachingSha2Password.scramble(NONCE, ""));
    }

    @Test
    void theCacheKeepsTheDoubleSha256AndAcceptsOnlyTheMatchingScramble() {
        byte[] entry = HEX.parseHex("3881219d087dd9c634373fd33dfa33a2cb6bfc6c520b64b8bb60ef2ceb534ae7");
        assertArrayEquals(entry, CachingSha2Password.cacheEntry("secret"));
        byte[] scramble = HEX.parseHex("3e6e1d1225dfe8531b46e47caf897453dba8211b1e2fdca5e10ef0f98718b18e");
        assertTrue(CachingSha2Password.matches(NONCE, entry, scramble));
        scramble[31] ^= 1;
        assertFalse(CachingSha2Password.matches(NONCE, entry, scramble));
        assertFalse(CachingSha2Password.matches(NONCE, entry, new byte[20]), "a native-length answer is no scramble");
        byte[] otherNonce = NONCE.clone();
        otherNonce[0] = 'x';
        assertFalse(CachingSha2Password.matches(otherNonce, entry, HEX.parseHex(
                "3e6e1d1225dfe8531b46e47caf897453dba8211b1e2fdca5e10ef0f98718b18e")), "a replay under another nonce fails");
    }

    @Test
    void theNativeScrambleMatchesTheProtocolsFormula() {
        assertArrayEquals(HEX.parseHex("1f44f306295a10870fd7895d358cb5f975d7d47f"), NativePassword.scramble(NONCE, "secret"));
    }

    @Test
    void aPasswordOpensslEncryptedWithOaepSha1DecryptsToThePassword() throws Exception {
        PrivateKey key = PemFiles.privateKey(resource("rsa-key.pem"));
        byte[] encrypted = HEX.parseHex(Files.readString(resource("secret-encrypted.hex")).trim());
        assertArrayEquals("secret".getBytes(StandardCharsets.UTF_8), CachingSha2Password.decryptPassword(key, NONCE, encrypted));
        byte[] otherNonce = NONCE.clone();
        otherNonce[1] ^= 1;
        assertFalse(java.util.Arrays.equals("secret".getBytes(StandardCharsets.UTF_8),
                CachingSha2Password.decryptPassword(key, otherNonce, encrypted)), "the nonce is part of the plaintext");
        encrypted[10] ^= 1;
        assertThrows(GeneralSecurityException.class, () -> CachingSha2Password.decryptPassword(key, NONCE, encrypted));
    }

    @Test
    void whatAClientEncryptsWithTheServersKeyTheServerDecrypts() throws Exception {
        RsaKeys keys = RsaKeys.shared();
        byte[] encrypted = CachingSha2Password.encryptPassword(keys.publicKey(), NONCE, "pässwörd with a long tail........");
        assertArrayEquals("pässwörd with a long tail........".getBytes(StandardCharsets.UTF_8),
                CachingSha2Password.decryptPassword(keys.privateKey(), NONCE, encrypted));
        assertTrue(keys.publicKeyPem().startsWith("-----BEGIN PUBLIC KEY-----\n"));
    }

    private static Path resource(String name) throws Exception {
        return Path.of(CachingSha2PasswordTest.class.getResource("/auth/" + name).toURI());
    }
}
