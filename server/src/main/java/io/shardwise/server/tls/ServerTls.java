package io.shardwise.server.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.OpenSslSessionStats;
import io.netty.handler.ssl.OpenSslSessionTicketKey;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import io.shardwise.core.config.PemFiles;
import io.shardwise.core.config.TlsConfig;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.SSLException;

/**
 * The server side of TLS (1.2 and 1.3) over the configured PEM identity, or over a
 * {@link GeneratedCertificate} when none is configured. Immutable and shared by every connection;
 * each connection that asks for TLS gets its own {@link SslHandler}.
 *
 * <p>The engine is BoringSSL through Netty's tcnative ({@link SslProvider#OPENSSL}) where its
 * native library loads — a full handshake costs a fraction of the JDK engine's CPU — and the JDK's
 * {@code SSLEngine} otherwise, or when {@code -Dshardwise.tls.provider=jdk} asks for it; the
 * fallback is logged once per JVM. Clients that reconnect resume their TLS session instead of
 * paying the certificate's check and signature again (and under TLS 1.2 the key exchange; TLS 1.3
 * resumption keeps an ECDHE exchange, so it saves a server with a P-256 key little): a
 * server-side session cache (TLS 1.2 session ids) and, under OpenSSL, session tickets (TLS 1.2 tickets, TLS 1.3 PSKs) sealed with keys made
 * at start, so tickets die with the process and never touch disk.
 */
public final class ServerTls implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ServerTls.class.getName());
    /** Sessions the server remembers for resumption by id; an entry is a few hundred bytes. */
    static final int SESSION_CACHE_SIZE = 20_480;
    /** How long a session (or ticket) may be resumed: MySQL's clients reconnect within seconds to minutes. */
    static final int SESSION_TIMEOUT_SECONDS = 3_600;
    /** Set once the JDK fallback was logged: one line per JVM, not one per server or test. */
    private static volatile boolean fallbackLogged;

    private final SslContext context;
    private final SslProvider provider;
    private final X509Certificate certificate;
    private final boolean required;
    private final String source;
    /** Counted here: BoringSSL keeps no count of accepted handshakes (its SSL_CTX_sess_accept_good is 0). */
    private final LongAdder completed = new LongAdder();

    private ServerTls(List<X509Certificate> chain, PrivateKey key, boolean required, String source, SslProvider provider) {
        try {
            this.context = SslContextBuilder.forServer(key, chain.toArray(X509Certificate[]::new))
                    .sslProvider(engineProvider(provider)).protocols("TLSv1.3", "TLSv1.2")
                    .sessionCacheSize(SESSION_CACHE_SIZE).sessionTimeout(SESSION_TIMEOUT_SECONDS).build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS with the " + source + ": " + e.getMessage(), e);
        }
        if (context.sessionContext() instanceof OpenSslSessionContext sessions) {
            // tcnative sets SSL_OP_NO_TICKET until ticket keys are given: without them TLS 1.3 clients never resume
            sessions.setTicketKeys(newTicketKey());
        }
        this.provider = provider;
        this.certificate = chain.get(0);
        this.required = required;
        this.source = source;
    }

    /**
     * The reference-counted flavour of the OpenSSL engine: {@link SslProvider#OPENSSL}'s engines and
     * context have a {@code finalize()}, so every TLS connection's engine would be registered with
     * the JVM's finalizer at its creation, outlive one more collection and be finalized on the
     * finalizer thread, although the {@code SslHandler} already frees it (it releases a
     * reference-counted engine when it leaves the pipeline, at the latest when the channel closes).
     * The context is released by {@link #close()}.
     */
    static SslProvider engineProvider(SslProvider provider) {
        return provider == SslProvider.OPENSSL ? SslProvider.OPENSSL_REFCNT : provider;
    }

    private static OpenSslSessionTicketKey newTicketKey() {
        SecureRandom random = new SecureRandom();
        byte[] name = new byte[OpenSslSessionTicketKey.NAME_SIZE];
        byte[] hmac = new byte[OpenSslSessionTicketKey.HMAC_KEY_SIZE];
        byte[] aes = new byte[OpenSslSessionTicketKey.AES_KEY_SIZE];
        random.nextBytes(name);
        random.nextBytes(hmac);
        random.nextBytes(aes);
        return new OpenSslSessionTicketKey(name, hmac, aes);
    }

    /**
     * Reads the configured files (the configuration loader has checked them once already) or takes
     * the JVM's generated certificate.
     *
     * @throws IllegalArgumentException when a file has changed into something unreadable since the configuration loaded
     */
    public static ServerTls of(TlsConfig config) {
        return of(config, preferredProvider());
    }

    /** As {@link #of(TlsConfig)} with the given engine (tests run both). */
    public static ServerTls of(TlsConfig config, SslProvider provider) {
        if (config.generatesCertificate()) {
            GeneratedCertificate generated = GeneratedCertificate.shared();
            return new ServerTls(List.of(generated.certificate()), generated.key(), config.required(),
                    "self-signed certificate generated at start", provider);
        }
        return new ServerTls(PemFiles.certificates(config.cert()), PemFiles.privateKey(config.key()), config.required(),
                "certificate " + config.cert(), provider);
    }

    /**
     * OpenSSL (BoringSSL) when tcnative loads and {@code shardwise.tls.provider} is not {@code jdk};
     * else the JDK, with one log line saying why.
     */
    public static SslProvider preferredProvider() {
        String asked = System.getProperty("shardwise.tls.provider", "");
        if ("jdk".equalsIgnoreCase(asked)) {
            return SslProvider.JDK;
        }
        if (OpenSsl.isAvailable()) {
            return SslProvider.OPENSSL;
        }
        if (!fallbackLogged) {
            fallbackLogged = true;
            Throwable why = OpenSsl.unavailabilityCause();
            LOG.log(System.Logger.Level.WARNING, "TLS uses the JDK's engine: netty-tcnative (BoringSSL) is not available on this platform ("
                    + (why == null ? "unknown reason" : why.getMessage()) + "); TLS handshakes cost several times more CPU");
        }
        return SslProvider.JDK;
    }

    public SslHandler newHandler(ByteBufAllocator alloc) {
        SslHandler handler = context.newHandler(alloc);
        // the server's connect timeout bounds the whole login, the TLS handshake included (HandshakeHandler):
        // the SslHandler's own 10 s timer would cut a handshake short of a longer configured connectTimeout,
        // and cost every TLS connection a timer scheduled and cancelled on its event loop
        handler.setHandshakeTimeoutMillis(0);
        handler.handshakeFuture().addListener(done -> {
            if (done.isSuccess()) {
                completed.increment();
            }
        });
        return handler;
    }

    /** Frees the OpenSSL context's native memory (its engines are freed by their handlers); the server calls it once its connections are closed. */
    @Override
    public void close() {
        ReferenceCountUtil.release(context);
    }

    /** The engine in use: {@link SslProvider#OPENSSL} (BoringSSL through tcnative) or {@link SslProvider#JDK}. */
    public SslProvider provider() {
        return provider;
    }

    /** TLS handshakes completed since the start, full and resumed, and of them the resumed ones. */
    public Handshakes handshakes() {
        return new Handshakes(completed.sum(), resumed());
    }

    /** Sessions resumed by id or ticket, as the OpenSSL engine counts them; -1 under the JDK engine, which keeps no such count. */
    private long resumed() {
        if (context.sessionContext() instanceof OpenSslSessionContext sessions) {
            OpenSslSessionStats stats = sessions.stats();
            return stats.hits() + stats.ticketKeyResume();
        }
        return -1;
    }

    /** @param completed handshakes that completed; {@code resumed} of them resumed a session (-1: unknown, the JDK engine) */
    public record Handshakes(long completed, long resumed) {}

    /** Whether a client must use TLS (else ERR 3159). */
    public boolean required() {
        return required;
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** For the start banner: required or optional, where the certificate comes from and its SHA-256 fingerprint (what a client can pin), the engine. */
    public String describe() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return "TLS " + (required ? "required" : "optional") + ", " + source + " (SHA-256 "
                    + HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest) + "), " + engineName() + ", session resumption on";
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** "OpenSSL engine BoringSSL" or "JDK engine". */
    public String engineName() {
        return switch (provider) {
            case OPENSSL, OPENSSL_REFCNT -> "OpenSSL engine " + OpenSsl.versionString();
            case JDK -> "JDK engine";
        };
    }
}
