package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * COM_STMT_PREPARE_OK: the statement id and how many parameter and column definitions follow (in
 * that order, each group ended by an EOF unless CLIENT_DEPRECATE_EOF). Clients decide from the
 * column count whether an execute returns rows (the C API's mysql_stmt_result_metadata, Connector/J's
 * cursor fetch), so a query must announce its columns; 0 is right only for statements without rows,
 * or whose columns only running can tell (CALL), whose executes still send their definitions.
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
