package io.shardwise.core.config;

import java.nio.file.Path;

/**
 * The server's TLS identity: a PEM certificate chain and its PEM private key, or neither, in which
 * case the server generates a self-signed certificate at start (as MySQL 8 does), so clients can
 * always negotiate TLS.
 *
 * @param cert the certificate chain file (server certificate first), or null with {@code key} null
 * @param key the private key file (PKCS#8 or PKCS#1 RSA, unencrypted), or null with {@code cert} null
 * @param required whether clients without TLS are refused (ERR 3159, as MySQL's require_secure_transport)
 */
public record TlsConfig(Path cert, Path key, boolean required) {
    public static final TlsConfig GENERATED = new TlsConfig(null, null, false);

    public TlsConfig {
        if ((cert == null) != (key == null)) {
            throw new IllegalArgumentException("give both cert and key, or neither: cert=" + cert + ", key=" + key);
        }
    }

    /** Whether the server makes its own certificate at start. */
    public boolean generatesCertificate() {
        return cert == null;
    }
}
