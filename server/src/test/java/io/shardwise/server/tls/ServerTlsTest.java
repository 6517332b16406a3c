package io.shardwise.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCounted;
import io.shardwise.core.config.TlsConfig;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.Test;

/** What a TLS connection costs the server besides its handshake: the engine's life. */
class ServerTlsTest {
    /**
     * An engine with a finalizer is registered with the JVM's finalizer when it is made, survives a
     * collection more and is finalized on the finalizer thread: work for every TLS connection that
     * its handler's release already did. The server's engines are reference-counted instead, and
     * freed when the connection's pipeline goes.
     */
    @Test
    void eachConnectionsOpenSslEngineIsFreedByItsHandlerWithNoFinalizer() {
        assumeTrue(OpenSsl.isAvailable(), "the OpenSSL engine is not available here");
        ServerTls tls = ServerTls.of(TlsConfig.GENERATED, SslProvider.OPENSSL);
        try {
            SslHandler handler = tls.newHandler(UnpooledByteBufAllocator.DEFAULT);
            SSLEngine engine = handler.engine();
            assertEquals(List.of(), finalizers(engine.getClass()), "classes of the engine that declare finalize()");
            ReferenceCounted counted = assertInstanceOf(ReferenceCounted.class, engine);
            EmbeddedChannel channel = new EmbeddedChannel(handler);
            assertEquals(1, counted.refCnt());
            channel.finishAndReleaseAll();
            assertEquals(0, counted.refCnt(), "the handler freed its engine when the channel closed");
            assertTrue(tls.describe().contains("OpenSSL engine"), tls.describe());
        } finally {
            tls.close();
        }
    }

    /**
     * The connect timeout ({@code server.connectTimeout}, checked by the handshake handler) is the one
     * deadline of a login, TLS included: Netty's default 10 s handshake timeout would fail a TLS
     * handshake that a longer configured connect timeout allows, and schedule a timer per connection.
     */
    @Test
    void onlyTheConnectTimeoutBoundsATlsHandshake() {
        for (SslProvider provider : OpenSsl.isAvailable() ? List.of(SslProvider.OPENSSL, SslProvider.JDK) : List.of(SslProvider.JDK)) {
            ServerTls tls = ServerTls.of(TlsConfig.GENERATED, provider);
            try {
                SslHandler handler = tls.newHandler(UnpooledByteBufAllocator.DEFAULT);
                assertEquals(0, handler.getHandshakeTimeoutMillis(), provider + ": no handshake timer of its own");
                new EmbeddedChannel(handler).finishAndReleaseAll();
            } finally {
                tls.close();
            }
        }
    }

    private static List<String> finalizers(Class<?> type) {
        List<String> declaring = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                c.getDeclaredMethod("finalize");
                declaring.add(c.getName());
            } catch (NoSuchMethodException none) {
                // this class adds no finalizer
            }
        }
        return declaring;
    }
}
