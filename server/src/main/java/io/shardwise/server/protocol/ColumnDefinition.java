package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Protocol::ColumnDefinition41: one column of a result set. The catalog is always "def". */
public record ColumnDefinition(String schema, String table, String orgTable, String name, String orgName,
                               int collation, long length, int type, int flags, int decimals) {
    public static final int TYPE_LONGLONG = 8;
    public static final int TYPE_VAR_STRING = 253;
    public static final int UTF8MB4_GENERAL_CI = 45;

    public ByteBuf encode(ByteBufAllocator alloc) {
        return writeTo(alloc.buffer(32 + schema.length() + table.length() + orgTable.length() + name.length() + orgName.length()));
    }

    /** Appends the encoded definition to {@code out}; returns it. */
    public ByteBuf writeTo(ByteBuf out) {
        Wire.writeLenenc(out, "def");
        Wire.writeLenenc(out, schema);
        Wire.writeLenenc(out, table);
        Wire.writeLenenc(out, orgTable);
        Wire.writeLenenc(out, name);
        Wire.writeLenenc(out, orgName);
        out.writeByte(0x0C);
        out.writeShortLE(collation);
        out.writeIntLE((int) length);
        out.writeByte(type);
        out.writeShortLE(flags);
        out.writeByte(decimals);
        return out.writeZero(2);
    }

    public static ColumnDefinition decode(ByteBuf in) {
        Wire.readLenencString(in); // catalog
        String schema = Wire.readLenencString(in);
        String table = Wire.readLenencString(in);
        String orgTable = Wire.readLenencString(in);
        String name = Wire.readLenencString(in);
        String orgName = Wire.readLenencString(in);
        Wire.readLenenc(in);
        Wire.need(in, 12);
        ColumnDefinition c = new ColumnDefinition(schema, table, orgTable, name, orgName, in.readUnsignedShortLE(),
                in.readUnsignedIntLE(), in.readUnsignedByte(), in.readUnsignedShortLE(), in.readUnsignedByte());
        in.skipBytes(2);
        return c;
    }
}
