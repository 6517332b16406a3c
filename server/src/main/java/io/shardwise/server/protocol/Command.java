package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;

/** A client command (the first payload byte names it). Closed set: a new command breaks every switch over it. */
public sealed interface Command permits Command.Query, Command.Ping, Command.Quit, Command.InitDb, Command.Unsupported,
        StmtCommand, ConnectionCommand {
    int COM_QUIT = 0x01;
    int COM_INIT_DB = 0x02;
    int COM_QUERY = 0x03;
    int COM_PING = 0x0E;

    /** @param sql the statement's bytes in the client's character set, which only the session knows (SET NAMES) */
    record Query(byte[] sql) implements Command {}

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
            case COM_QUERY -> new Query(Wire.readRestBytes(payload));
            case COM_PING -> new Ping();
            case COM_QUIT -> new Quit();
            case COM_INIT_DB -> new InitDb(Wire.readRest(payload));
            case StmtCommand.COM_STMT_PREPARE, StmtCommand.COM_STMT_EXECUTE, StmtCommand.COM_STMT_SEND_LONG_DATA,
                 StmtCommand.COM_STMT_CLOSE, StmtCommand.COM_STMT_RESET, StmtCommand.COM_STMT_FETCH -> StmtCommand.decode(code, payload);
            case ConnectionCommand.COM_FIELD_LIST, ConnectionCommand.COM_STATISTICS, ConnectionCommand.COM_PROCESS_KILL,
                 ConnectionCommand.COM_SET_OPTION, ConnectionCommand.COM_RESET_CONNECTION -> ConnectionCommand.decode(code, payload);
            default -> {
                payload.skipBytes(payload.readableBytes());
                yield new Unsupported(code);
            }
        };
    }
}
