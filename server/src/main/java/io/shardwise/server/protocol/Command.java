package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;

/** A client command (the first payload byte names it). Closed set: a new command breaks every switch over it. */
public sealed interface Command permits Command.Query, Command.Ping, Command.Quit, Command.InitDb, Command.Unsupported {
    int COM_QUIT = 0x01;
    int COM_INIT_DB = 0x02;
    int COM_QUERY = 0x03;
    int COM_PING = 0x0E;

    record Query(String sql) implements Command {}

    record Ping() implements Command {}

    record Quit() implements Command {}

    record InitDb(String schema) implements Command {}

    /** A command this server does not implement (yet); the client gets ERR 1047, not a dropped connection. */
    record Unsupported(int code) implements Command {}

    /** Reads the command of a payload (whose reader index it moves to the end). */
    static Command decode(ByteBuf payload) {
        Wire.need(payload, 1);
        int code = payload.readUnsignedByte();
        return switch (code) {
            case COM_QUERY -> new Query(Wire.readRest(payload));
            case COM_PING -> new Ping();
            case COM_QUIT -> new Quit();
            case COM_INIT_DB -> new InitDb(Wire.readRest(payload));
            default -> {
                payload.skipBytes(payload.readableBytes());
                yield new Unsupported(code);
            }
        };
    }
}
