package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The server's greeting (Protocol::HandshakeV10). {@code authSeed} is the 20-byte scramble, sent as
 * 8 bytes, then 12 bytes and a NUL in the second part.
 */
public record HandshakeV10(String serverVersion, int connectionId, byte[] authSeed, Capabilities capabilities,
                           int collation, ServerStatus status, String authPlugin) {
    public static final int SEED_LENGTH = 20;

    public HandshakeV10 {
        if (authSeed.length != SEED_LENGTH) {
            throw new IllegalArgumentException("the auth seed has " + SEED_LENGTH + " bytes, not " + authSeed.length);
        }
        authSeed = authSeed.clone();
    }

    @Override
    public byte[] authSeed() {
        return authSeed.clone();
    }

    public ByteBuf encode(ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer(96);
        out.writeByte(10);
        Wire.writeNulTerminated(out, serverVersion);
        out.writeIntLE(connectionId);
        out.writeBytes(authSeed, 0, 8).writeByte(0);
        out.writeShortLE(capabilities.bits() & 0xFFFF);
        out.writeByte(collation);
        out.writeShortLE(status.bits());
        out.writeShortLE(capabilities.bits() >>> 16);
        out.writeByte(SEED_LENGTH + 1);
        out.writeZero(6);
        out.writeIntLE(capabilities.mariaDbExtended() ? capabilities.extended() : 0); // MariaDB's extended capabilities, else reserved
        out.writeBytes(authSeed, 8, SEED_LENGTH - 8).writeByte(0);
        Wire.writeNulTerminated(out, authPlugin);
        return out;
    }

    /** Reads a greeting (what a client does; for tests and tools). */
    public static HandshakeV10 decode(ByteBuf in) {
        Wire.need(in, 1);
        int protocol = in.readUnsignedByte();
        if (protocol != 10) {
            throw new MalformedPacketException("protocol version " + protocol + ", not 10");
        }
        String version = Wire.readNulTerminated(in);
        Wire.need(in, 4 + 9 + 2 + 1 + 2 + 2 + 1 + 10);
        int id = in.readIntLE();
        byte[] seed = new byte[SEED_LENGTH];
        in.readBytes(seed, 0, 8);
        in.skipBytes(1);
        int caps = in.readUnsignedShortLE();
        int collation = in.readUnsignedByte();
        int status = in.readUnsignedShortLE();
        caps |= in.readUnsignedShortLE() << 16;
        in.skipBytes(1 + 6);
        int extended = in.readIntLE();
        Wire.need(in, SEED_LENGTH - 8 + 1);
        in.readBytes(seed, 8, SEED_LENGTH - 8);
        in.skipBytes(1);
        return new HandshakeV10(version, id, seed,
                new Capabilities(caps, (caps & Capabilities.CLIENT_MYSQL) == 0 ? extended : 0), collation, new ServerStatus(status), Wire.readNulTerminated(in));
    }
}
