package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;

/**
 * The connection-level utility commands: COM_FIELD_LIST, COM_STATISTICS, COM_PROCESS_KILL,
 * COM_SET_OPTION and COM_RESET_CONNECTION. Records copy what they need out of the payload, so they
 * outlive the packet.
 */
public sealed interface ConnectionCommand extends Command permits ConnectionCommand.FieldList, ConnectionCommand.Statistics,
        ConnectionCommand.ProcessKill, ConnectionCommand.SetOption, ConnectionCommand.ResetConnection {
    int COM_FIELD_LIST = 0x04;
    int COM_STATISTICS = 0x09;
    int COM_PROCESS_KILL = 0x0C;
    int COM_SET_OPTION = 0x1B;
    int COM_RESET_CONNECTION = 0x1F;

    /** @param wildcard the column-name LIKE pattern the client sent, empty for all */
    record FieldList(String table, String wildcard) implements ConnectionCommand {}

    record Statistics() implements ConnectionCommand {}

    /** @param connectionId the 4-byte unsigned id, as a long */
    record ProcessKill(long connectionId) implements ConnectionCommand {}

    /** @param option 0 = MYSQL_OPTION_MULTI_STATEMENTS_ON, 1 = ..._OFF; anything else is refused */
    record SetOption(int option) implements ConnectionCommand {}

    record ResetConnection() implements ConnectionCommand {}

    /** Reads the rest of a payload whose command byte {@code code} (one of this interface's) was read. */
    static ConnectionCommand decode(int code, ByteBuf payload) {
        return switch (code) {
            case COM_FIELD_LIST -> payload.indexOf(payload.readerIndex(), payload.writerIndex(), (byte) 0) < 0
                    ? new FieldList(Wire.readRest(payload), "") // lenient: some clients omit the NUL when there is no wildcard
                    : new FieldList(Wire.readNulTerminated(payload), Wire.readRest(payload));
            case COM_STATISTICS -> new Statistics();
            case COM_PROCESS_KILL -> {
                Wire.need(payload, 4);
                yield new ProcessKill(payload.readUnsignedIntLE());
            }
            case COM_SET_OPTION -> {
                Wire.need(payload, 2);
                yield new SetOption(payload.readUnsignedShortLE());
            }
            case COM_RESET_CONNECTION -> new ResetConnection();
            default -> throw new IllegalArgumentException("not a connection command: " + code);
        };
    }
}
