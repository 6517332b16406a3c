package io.shardwise.server.relay;

import io.netty.buffer.ByteBuf;
import java.util.Map;

/**
 * One client connection's last relayed column definitions: each backend definition's bytes and the
 * logical definition {@link QueryRelay} made of them. A repeated statement gets the same
 * definitions from its backend every time, and the logical one is a function of those bytes, the
 * logical schema and the unit's physical-to-logical table names alone; so a hit copies the bytes
 * made last time instead of decoding six strings and encoding them again (most of what a relayed
 * point select allocated).
 *
 * <p>Bounded: two definitions per column (a statement alternating between two shards, whose
 * schemas differ, hits both), for the first {@link #MAX_COLUMNS} columns, of definitions up to
 * {@link #MAX_BYTES} bytes; others are rewritten every time. At most 2 x 8 x 2 x 192 bytes per
 * connection, and only for what it relayed. The table names are compared by identity: a cached
 * plan's units share one map per node, and any other map is a miss, never a wrong answer.
 *
 * <p>Event-loop confined (the client's), as its {@link RelayExecutor}.
 */
final class LogicalColumns {
    static final int MAX_COLUMNS = 8;
    static final int MAX_BYTES = 192;
    private static final int WAYS = 2;

    private final byte[][] backend = new byte[MAX_COLUMNS * WAYS][];
    private final byte[][] logical = new byte[MAX_COLUMNS * WAYS][];
    private final String[] schemas = new String[MAX_COLUMNS * WAYS];
    private final Object[] tables = new Object[MAX_COLUMNS * WAYS];
    /** Per column, the way the next miss replaces. */
    private final byte[] replace = new byte[MAX_COLUMNS];

    /**
     * Appends column {@code index}'s logical definition when {@code in} (its backend definition, the
     * readable bytes; not consumed) is one remembered with this schema and these table names; false
     * (nothing written) otherwise.
     */
    boolean write(int index, ByteBuf in, String logicalSchema, Map<String, String> logicalTables, ByteBuf out) {
        if (index >= MAX_COLUMNS) {
            return false;
        }
        for (int e = index * WAYS; e < (index + 1) * WAYS; e++) {
            byte[] from = backend[e];
            if (from != null && tables[e] == logicalTables && logicalSchema.equals(schemas[e]) && same(in, from)) {
                out.writeBytes(logical[e]);
                return true;
            }
        }
        return false;
    }

    /** Remembers that {@code in}'s readable bytes became {@code out}'s bytes {@code [from, writerIndex)}. */
    void remember(int index, ByteBuf in, String logicalSchema, Map<String, String> logicalTables, ByteBuf out, int from) {
        int length = out.writerIndex() - from;
        if (index >= MAX_COLUMNS || in.readableBytes() > MAX_BYTES || length > MAX_BYTES) {
            return;
        }
        int e = index * WAYS + replace[index];
        replace[index] = (byte) ((replace[index] + 1) % WAYS);
        backend[e] = copy(in, in.readerIndex(), in.readableBytes());
        logical[e] = copy(out, from, length);
        schemas[e] = logicalSchema;
        tables[e] = logicalTables;
    }

    /** A byte at a time: getBytes into an array makes a NIO view of a direct buffer each call. */
    private static byte[] copy(ByteBuf in, int at, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = in.getByte(at + i);
        }
        return bytes;
    }

    private static boolean same(ByteBuf in, byte[] bytes) {
        if (in.readableBytes() != bytes.length) {
            return false;
        }
        int at = in.readerIndex();
        for (int i = 0; i < bytes.length; i++) {
            if (in.getByte(at + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }
}
