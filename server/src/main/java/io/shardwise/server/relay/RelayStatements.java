package io.shardwise.server.relay;

import io.netty.buffer.ByteBuf;
import io.netty.util.AttributeKey;
import io.shardwise.core.sql.normalize.ClientCharset;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.StmtCommand;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The backend-side prepared statements of one relay connection, by physical SQL, shared by every
 * client whose executions the connection relays. Bounded: past {@link #MAX} the least recently
 * executed one is closed (COM_STMT_CLOSE, which the backend does not answer), so a pool of
 * {@code pool.max} = 64 connections holds at most MySQL's default {@code max_prepared_stmt_count}
 * (16,382) per backend. Kept as an attribute of the connection's channel: a new connection (after
 * the backend closed or killed the old one) starts empty and prepares again, and the statements die
 * with the connection that prepared them. Event-loop confined, as the connection.
 */
final class RelayStatements {
    static final int MAX = 256;
    private static final AttributeKey<RelayStatements> KEY = AttributeKey.valueOf("shardwise.relayStatements");

    /**
     * A statement the backend prepared: its id on that connection, its marker count, and the
     * parameter types the backend last bound for it (an execute that carried them), which it keeps
     * for an execute that carries none (new-params-bound flag 0).
     */
    static final class Statement {
        private final int id;
        private final int parameters;
        /** Each parameter's type and flag byte as last sent to the backend; null before the first execute. */
        private int[] bound;
        /**
         * Under MariaDB's metadata cache ({@link BackendConnection#cachesMetadata}): the column definitions the
         * backend last sent for it — its prepare's, then those of the last execute that sent any ("metadata follows"
         * = 1) — in {@link io.shardwise.server.protocol.HeldColumns}' format; what an execute answering "metadata
         * follows = 0" means. Null when none were sent (a statement without a result set, or a cache not negotiated).
         */
        private byte[] columns;
        private int columnCount;
        /** The logical rewrite of {@link #columns} the relay made last, for this logical schema and these table names (by identity), or null. */
        private byte[] logical;
        private String logicalSchema;
        private Object logicalTables;

        Statement(int id, int parameters) {
            this.id = id;
            this.parameters = parameters;
        }

        int id() {
            return id;
        }

        int parameters() {
            return parameters;
        }

        /** Whether the backend binds {@code types} for this statement already (the last execute sent exactly these). */
        boolean binds(int[] types) {
            return bound != null && java.util.Arrays.equals(bound, types);
        }

        /** An execute carrying {@code types} was sent: the backend binds them from now on. */
        void bound(int[] types) {
            bound = types;
        }

        /** The backend's definitions an execute without them means, or null when it never sent {@code count} of them. */
        byte[] columns(long count) {
            return columns != null && columnCount == count ? columns : null;
        }

        /** The backend sent these definitions (a prepare, or an execute with "metadata follows" = 1): they replace the last. */
        void columns(int count, byte[] definitions) {
            columns = definitions;
            columnCount = count;
            logical = null;
            logicalSchema = null;
            logicalTables = null;
        }

        /** The logical definitions made of {@link #columns} for this schema and these table names, or null. */
        byte[] logical(String schema, Object tables) {
            return logical != null && logicalTables == tables && schema.equals(logicalSchema) ? logical : null;
        }

        /** Remembers the logical definitions made of the current {@link #columns}. */
        void logical(String schema, Object tables, byte[] definitions) {
            logical = definitions;
            logicalSchema = schema;
            logicalTables = tables;
        }
    }

    /** The end of a COM_STMT_PREPARE on a relay connection, which is ready again by then unless lost. */
    interface Prepared {
        void prepared(Statement statement);

        /** The backend refused it; {@code error} is its ERR packet, the callee's to release. */
        void refused(Packet error);

        void lost(Throwable cause);
    }

    private final LinkedHashMap<String, Statement> bySql = new LinkedHashMap<>(16, 0.75f, true);

    static RelayStatements of(BackendConnection connection) {
        RelayStatements s = connection.channel().attr(KEY).get();
        if (s == null) {
            s = new RelayStatements();
            connection.channel().attr(KEY).set(s);
        }
        return s;
    }

    Statement get(String sql) {
        return bySql.get(sql);
    }

    /** Forgets a statement the backend no longer knows (it answered an execute with 1243). */
    void forget(String sql) {
        bySql.remove(sql);
    }

    int size() {
        return bySql.size();
    }

    /** Adds a statement of a ready {@code connection}, closing the least recently used ones beyond {@link #MAX}. */
    private void put(BackendConnection connection, String sql, Statement statement) {
        bySql.put(sql, statement);
        for (Iterator<Map.Entry<String, Statement>> it = bySql.entrySet().iterator(); bySql.size() > MAX && it.hasNext(); ) {
            Statement eldest = it.next().getValue();
            it.remove();
            connection.commandWithoutReply(close(connection, eldest.id()));
        }
    }

    private static ByteBuf close(BackendConnection connection, int id) {
        return connection.channel().alloc().ioBuffer(5).writeByte(StmtCommand.COM_STMT_CLOSE).writeIntLE(id);
    }

    /**
     * Prepares {@code sql} on a ready {@code connection} and remembers it there; {@code done} hears
     * the outcome. A statement whose marker count differs from {@code parameters} is closed again and
     * reported as lost, never cached (the relay forwards the client's values as they are).
     */
    static void prepare(BackendConnection connection, String sql, int parameters, Prepared done) {
        byte[] text = ClientCharset.utf8(sql); // as COM_QUERY: escaped bytes go back exactly as they came
        ByteBuf payload = connection.channel().alloc().ioBuffer(1 + text.length).writeByte(StmtCommand.COM_STMT_PREPARE).writeBytes(text);
        connection.command(payload, new Reader(sql, parameters, done));
    }

    /**
     * COM_STMT_PREPARE's response: the PREPARE_OK (id, column and parameter counts), then the
     * parameter and column definitions, each group ended by an EOF unless the connection deprecated
     * it; or an ERR.
     */
    private static final class Reader implements BackendConnection.Listener {
        private final String sql;
        private final int parameters;
        private final Prepared done;
        private Statement statement;
        private int left = -1;
        /** Packets after PREPARE_OK before the column definitions (the parameters' and their EOF), and the column count. */
        private int beforeColumns;
        private int columns;
        /** Under the metadata cache: the column definitions as read (HeldColumns' format), else null. */
        private ByteBuf definitions;

        Reader(String sql, int parameters, Prepared done) {
            this.sql = sql;
            this.parameters = parameters;
            this.done = done;
        }

        @Override
        public void packet(BackendConnection connection, Packet packet) {
            ByteBuf in = packet.content();
            if (left < 0) {
                if (in.readableBytes() == 0 || in.getUnsignedByte(in.readerIndex()) == ErrPacket.HEADER) {
                    connection.responseEnded();
                    done.refused(packet);
                    return;
                }
                try {
                    int at = in.readerIndex();
                    statement = new Statement(in.getIntLE(at + 1), in.getUnsignedShortLE(at + 7));
                    columns = in.getUnsignedShortLE(at + 5);
                    int eof = connection.endsResultsWithOk() ? 0 : 1;
                    beforeColumns = statement.parameters() > 0 ? statement.parameters() + eof : 0;
                    left = beforeColumns + (columns > 0 ? columns + eof : 0);
                    if (columns > 0 && connection.cachesMetadata()) {
                        definitions = io.netty.buffer.Unpooled.buffer(64 * columns);
                    }
                } finally {
                    packet.release();
                }
            } else {
                int seen = beforeColumns + (columns > 0 ? columns + (connection.endsResultsWithOk() ? 0 : 1) : 0) - left;
                if (definitions != null && seen >= beforeColumns && seen < beforeColumns + columns) {
                    io.shardwise.server.protocol.HeldColumns.append(definitions, in);
                }
                packet.release();
                left--;
            }
            if (left == 0) {
                left = -2; // nothing more belongs to this response
                connection.responseEnded();
                RelayStatements statements = of(connection);
                if (statement.parameters() != parameters) {
                    connection.commandWithoutReply(close(connection, statement.id()));
                    done.lost(new IllegalStateException("backend " + connection.backend() + " prepared " + statement.parameters()
                            + " markers where the statement has " + parameters));
                    return;
                }
                if (definitions != null) {
                    byte[] bytes = new byte[definitions.readableBytes()];
                    definitions.readBytes(bytes);
                    definitions = null;
                    statement.columns(columns, bytes);
                }
                statements.put(connection, sql, statement);
                done.prepared(statement);
            }
        }

        @Override
        public void readComplete(BackendConnection connection) {}

        @Override
        public void lost(BackendConnection connection, Throwable cause) {
            done.lost(cause);
        }
    }
}
