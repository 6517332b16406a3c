package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * COM_STMT_PREPARE_OK: the statement id and how many column and parameter definitions follow.
 * A column count of 0 for a query is allowed: the definitions then come with each execute's result
 * set, which clients read (Connector/J uses prepare-time definitions only when there were some).
 */
public record PrepareOk(int statementId, int columns, int parameters, int warnings) {
    public ByteBuf encode(ByteBufAllocator alloc) {
        return alloc.buffer(12).writeByte(0x00).writeIntLE(statementId).writeShortLE(columns).writeShortLE(parameters)
                .writeByte(0x00).writeShortLE(warnings);
    }

    /** The definition MySQL sends for each parameter: named "?", a binary VAR_STRING. */
    public static final ColumnDefinition PARAMETER = new ColumnDefinition("", "", "", "?", "", 63, 0,
            ColumnDefinition.TYPE_VAR_STRING, 0x80, 0);
}
