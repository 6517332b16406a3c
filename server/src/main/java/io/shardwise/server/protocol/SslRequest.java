package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Protocol::SSLRequest: the first 32 bytes of a handshake response (capabilities with CLIENT_SSL,
 * max packet size, collation, filler), sent in clear before the client starts its TLS handshake;
 * the full response follows over TLS. MariaDB's extended capabilities (a peer without CLIENT_MYSQL)
 * travel in the last four filler bytes, as in the full response (libmariadb sends them alike).
 */
public record SslRequest(Capabilities capabilities, int maxPacketSize, int collation) {
    public static final int LENGTH = 32;

    /**
     * Whether a handshake response asks for TLS. As MySQL's server does, any response with
     * CLIENT_SSL counts, whatever its length: the fields after the header are read over TLS.
     */
    public static boolean isSslRequest(ByteBuf payload) {
        return payload.readableBytes() >= 4
                && new Capabilities(payload.getIntLE(payload.readerIndex())).asksForTls();
    }

    public ByteBuf encode(ByteBufAllocator alloc) {
        return alloc.buffer(LENGTH).writeIntLE(capabilities.bits() | Capabilities.SSL).writeIntLE(maxPacketSize)
                .writeByte(collation).writeZero(19).writeIntLE(capabilities.mariaDbExtended() ? capabilities.extended() : 0);
    }
}
