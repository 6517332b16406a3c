package io.shardwise.server.relay;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.shardwise.core.config.BackendUrl;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS toward one backend, as its JDBC URL asks the JDBC executor's connections for it (Connector/J's
 * meaning of each mode): PREFERRED and REQUIRED encrypt without verifying the certificate; VERIFY_CA
 * verifies the chain against {@code trustCertificateKeyStoreUrl} (else the JDK's trust store);
 * VERIFY_IDENTITY also checks that the certificate names the host. Protocols are
 * {@code enabledTLSProtocols} when given, else TLS 1.3 and 1.2. Immutable and shared by every relay
 * connection of the backend; each gets its own {@link SslHandler}.
 */
public final class BackendTls {
    private final BackendUrl.Tls mode;
    private final SslContext context;
    private final String host;
    private final int port;

    private BackendTls(BackendUrl.Tls mode, SslContext context, String host, int port) {
        this.mode = mode;
        this.context = context;
        this.host = host;
        this.port = port;
    }

    /** Null when the URL disables TLS. */
    static BackendTls of(String backend, BackendUrl url, String host, int port) throws BackendAddress.Unrelayable {
        BackendUrl.Tls mode;
        try {
            mode = url.tls();
        } catch (IllegalArgumentException e) {
            throw new BackendAddress.Unrelayable(backend, e.getMessage());
        }
        if (mode == BackendUrl.Tls.DISABLED) {
            return null;
        }
        try {
            SslContextBuilder b = SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
                    .trustManager(mode.verifiesCertificate() ? trustManagers(url) : InsecureTrustManagerFactory.INSTANCE);
            String protocols = url.property("enabledTLSProtocols");
            b.protocols(protocols == null ? new String[] {"TLSv1.3", "TLSv1.2"} : protocols.split("\\s*,\\s*"));
            return new BackendTls(mode, b.build(), host, port);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            throw new BackendAddress.Unrelayable(backend, "its TLS settings cannot be read: " + e.getMessage());
        }
    }

    private static TrustManagerFactory trustManagers(BackendUrl url) throws IOException, GeneralSecurityException {
        TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        String store = url.property("trustCertificateKeyStoreUrl");
        if (store == null || store.isEmpty()) {
            f.init((KeyStore) null); // the JDK's default trust store, as Connector/J uses
            return f;
        }
        String type = url.property("trustCertificateKeyStoreType");
        String password = url.property("trustCertificateKeyStorePassword");
        KeyStore keys = KeyStore.getInstance(type == null || type.isEmpty() ? KeyStore.getDefaultType() : type);
        try (InputStream in = URI.create(store).toURL().openStream()) {
            keys.load(in, password == null ? null : password.toCharArray());
        }
        f.init(keys);
        return f;
    }

    /** Whether a backend that offers no TLS must be refused rather than spoken to in clear. */
    public boolean required() {
        return mode.required();
    }

    /** A handler for one connection; VERIFY_IDENTITY checks the host name as HTTPS does. */
    SslHandler newHandler(ByteBufAllocator alloc) {
        SslHandler handler = context.newHandler(alloc, host, port);
        if (mode == BackendUrl.Tls.VERIFY_IDENTITY) {
            SSLEngine engine = handler.engine();
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            engine.setSSLParameters(parameters);
        }
        return handler;
    }

    @Override
    public String toString() {
        return mode.name();
    }
}
