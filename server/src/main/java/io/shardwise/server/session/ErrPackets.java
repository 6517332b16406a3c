package io.shardwise.server.session;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.server.protocol.ErrPacket;

/**
 * ERR packets for the errors the server raises itself, always from core's one catalogue
 * ({@link ErrorCode}): {@code server.protocol} stays free of core, so the bridge lives here.
 */
public final class ErrPackets {
    private ErrPackets() {}

    public static ErrPacket of(ErrorCode code, Object... args) {
        return new ErrPacket(code.errno(), code.sqlState(), code.message(args));
    }
}
