package io.shardwise.server.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.shardwise.core.config.PemFiles;
import io.shardwise.core.config.TlsConfig;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.SSLException;

/**
 * The server side of TLS: a JDK {@code SSLEngine} context (TLS 1.2 and 1.3) over the configured
 * PEM identity, or over a {@link GeneratedCertificate} when none is configured. Immutable and
 * shared by every connection; each connection that asks for TLS gets its own {@link SslHandler}.
 */
public final class ServerTls {
    private final SslContext context;
    private final X509Certificate certificate;
    private final boolean required;
    private final String source;

    private ServerTls(List<X509Certificate> chain, PrivateKey key, boolean required, String source) {
        try {
            this.context = SslContextBuilder.forServer(key, chain.toArray(X509Certificate[]::new))
                    .sslProvider(SslProvider.JDK).protocols("TLSv1.3", "TLSv1.2").build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS with the " + source + ": " + e.getMessage(), e);
        }
        this.certificate = chain.get(0);
        this.required = required;
        this.source = source;
    }

    /**
     * Reads the configured files (the configuration loader has checked them once already) or takes
     * the JVM's generated certificate.
     *
     * @throws IllegalArgumentException when a file has changed into something unreadable since the configuration loaded
     */
    public static ServerTls of(TlsConfig config) {
        if (config.generatesCertificate()) {
            GeneratedCertificate generated = GeneratedCertificate.shared();
            return new ServerTls(List.of(generated.certificate()), generated.key(), config.required(),
                    "self-signed certificate generated at start");
        }
        return new ServerTls(PemFiles.certificates(config.cert()), PemFiles.privateKey(config.key()), config.required(),
                "certificate " + config.cert());
    }

    public SslHandler newHandler(ByteBufAllocator alloc) {
        return context.newHandler(alloc);
    }

    /** Whether a client must use TLS (else ERR 3159). */
    public boolean required() {
        return required;
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** For the start banner: where the certificate comes from and its SHA-256 fingerprint (what a client can pin). */
    public String describe() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return "TLS " + (required ? "required" : "optional") + ", " + source + " (SHA-256 "
                    + HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest) + ")";
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }
}
