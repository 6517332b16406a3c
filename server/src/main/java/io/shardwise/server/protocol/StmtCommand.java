package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;

/**
 * The prepared-statement commands (COM_STMT_*). Statement ids are the client's view of a 4-byte
 * unsigned integer, kept as the int with the same bits. Records copy what they need out of the
 * payload, so they outlive the packet (which the dispatcher releases after the command).
 */
public sealed interface StmtCommand extends Command
        permits StmtCommand.Prepare, StmtCommand.Execute, StmtCommand.Fetch, StmtCommand.SendLongData, StmtCommand.Close,
        StmtCommand.Reset {
    int COM_STMT_PREPARE = 0x16;
    int COM_STMT_EXECUTE = 0x17;
    int COM_STMT_SEND_LONG_DATA = 0x18;
    int COM_STMT_CLOSE = 0x19;
    int COM_STMT_RESET = 0x1A;
    int COM_STMT_FETCH = 0x1C;

    int statementId();

    /** @param sql the statement's bytes in the client's character set */
    record Prepare(byte[] sql) implements StmtCommand {
        @Override
        public int statementId() {
            return 0;
        }
    }

    /**
     * @param body the payload after the statement id (flags, iteration count, NULL bitmap, types,
     *             values); only the statement knows its parameter count, so {@link ExecuteRequest}
     *             decodes it later
     */
    record Execute(int statementId, byte[] body) implements StmtCommand {}

    /** Up to {@code rows} more rows of the cursor an execute opened; {@code rows} is the unsigned 4-byte count. */
    record Fetch(int statementId, long rows) implements StmtCommand {}

    record SendLongData(int statementId, int parameter, byte[] data) implements StmtCommand {}

    record Close(int statementId) implements StmtCommand {}

    record Reset(int statementId) implements StmtCommand {}

    /** Reads the rest of a COM_STMT_* payload whose command byte {@code code} was read. */
    static StmtCommand decode(int code, ByteBuf payload) {
        if (code == COM_STMT_PREPARE) {
            return new Prepare(Wire.readRestBytes(payload));
        }
        Wire.need(payload, 4);
        int id = payload.readIntLE();
        return switch (code) {
            case COM_STMT_EXECUTE -> new Execute(id, rest(payload));
            case COM_STMT_SEND_LONG_DATA -> {
                Wire.need(payload, 2);
                int parameter = payload.readUnsignedShortLE();
                yield new SendLongData(id, parameter, rest(payload));
            }
            case COM_STMT_FETCH -> {
                Wire.need(payload, 4);
                yield new Fetch(id, payload.readUnsignedIntLE());
            }
            case COM_STMT_CLOSE -> new Close(id);
            case COM_STMT_RESET -> new Reset(id);
            default -> throw new IllegalArgumentException("not a COM_STMT_* command: 0x" + Integer.toHexString(code));
        };
    }

    private static byte[] rest(ByteBuf payload) {
        byte[] bytes = new byte[payload.readableBytes()];
        payload.readBytes(bytes);
        return bytes;
    }
}
