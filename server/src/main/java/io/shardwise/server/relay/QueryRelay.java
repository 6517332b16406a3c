package io.shardwise.server.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.shardwise.core.RelayPlan;
import io.shardwise.core.RelaySession;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ColumnDefinition;
import io.shardwise.server.protocol.EofPacket;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.HeldColumns;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.Wire;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;

/**
 * One relayed statement, on the client's event loop: each unit's COM_QUERY goes to its backend's
 * relay connection — the first unit of every backend at once, in parallel ({@link Ahead}), a
 * backend's later units one after another on its connection; the client gets the units' responses
 * in unit order all the same. The first unit's column count and definitions (names made logical)
 * reach the client, then every unit's rows as the backend sent them (the same buffers, renumbered),
 * then a final EOF/OK carrying the session's status and the statement's warning count. A unit whose
 * end counted warnings first fetches SHOW WARNINGS on the same connection, so the session's
 * diagnostics hold them (in logical names) before the client can ask. A backend ERR ends the
 * statement with that error in logical names, recorded as the JDBC path records it.
 *
 * <p>Session state is read and written only through {@link RelaySession}, on the client's event
 * loop. Back-pressure: while the client is not writable, the backend connection stops reading.
 * Hazard: a relay that does not reach its end (client gone, KILL QUERY, backend lost) closes its
 * backend connections instead of pooling them: they may still carry part of a response.
 *
 * <p>Output: what goes to the client is gathered, wire headers and all, in one buffer that is
 * written and flushed once per backend read (and at the end): a point select's five packets cost one
 * buffer and one iovec instead of a header buffer, a slice and a {@link Packet} each. Rows of
 * {@link #COPIED} bytes or more are not copied: they go as they came, retained and renumbered,
 * after what was gathered before them.
 *
 * <p>Buffer lifetime: each backend packet is released here once read (a large row's payload is
 * retained first and released by the client channel's encoder); the gathered buffer is written or,
 * when the relay ends without a flush (client gone, connections closed), released.
 */
final class QueryRelay implements BackendConnection.Listener {
    /** The end of a relay, whatever it was: the dispatcher takes commands again. */
    interface Ended {
        void ended(QueryRelay relay);
    }

    private enum Phase { HEADER, COLUMNS, COLUMNS_EOF, ROWS, WARNINGS, DONE }

    private static final int MAX_WIRE = Packet.MAX_WIRE_PAYLOAD;
    /** A payload this long is written as it came (a slice) rather than copied into the gathered output. */
    static final int COPIED = 2048;
    /** Gathered output beyond this is written without waiting for the read to complete, so back-pressure sees it. */
    private static final int GATHERED = 16 * 1024;

    private final Channel client;
    private final Capabilities capabilities;
    private final RelaySession session;
    private final RelayPlan plan;
    private final Map<String, BackendConnection> connections;
    private final ReleaseTo pool;
    private final Ended ended;
    private int sequenceId;
    private int unit;
    private Phase phase = Phase.HEADER;
    private long columnsLeft;
    private BackendConnection current;
    /** Client packets (headers included) not yet written to the channel, or null. */
    private ByteBuf gathered;
    private boolean paused;
    private int warningCount;
    /** The SHOW WARNINGS being read, or null. */
    private ShowWarnings showWarnings;
    /** A write's OK, held while SHOW WARNINGS reads its warnings. */
    private OkPacket written;
    /** The errno the statement failed with, 0 while it has not. */
    private int failedWith;

    /** Where a connection goes back when its responses ended cleanly. */
    interface ReleaseTo {
        void release(BackendConnection connection);
    }

    /**
     * How a unit's statement goes to its backend; its response comes back to the relay as for
     * COM_QUERY. A prepared statement's execution sends COM_STMT_EXECUTE ({@link PreparedRelay}),
     * whose rows are binary but framed and ended alike.
     */
    interface Request {
        void send(BackendConnection connection, ExecutionUnit unit, BackendConnection.Listener relay);

        /**
         * The backend statement whose execute was sent last (its stored definitions are what "metadata follows = 0"
         * means, and definitions sent with 1 replace them); null for COM_QUERY.
         */
        default RelayStatements.Statement statement() {
            return null;
        }
    }

    private static final Request TEXT = (connection, unit, relay) -> connection.query(unit.sql(), relay);

    private final Request request;
    /** Per unit, its response read ahead while an earlier unit is relayed; null for a unit sent in turn. */
    private Ahead[] ahead;
    /** The connection's last column definitions (backend bytes to logical bytes), or null: each is rewritten. */
    private LogicalColumns columns;
    /** The column definition {@link #column} reads next, from 0. */
    private int columnIndex;
    /**
     * A prepared execute's: the definitions its client holds, when it negotiated MariaDB's metadata
     * cache; else null. The logical definitions are gathered in {@link #defs} and go to the client only
     * when they are not those it holds: exact whatever the backend or the rewrite did. Independently, a
     * relay connection to MariaDB negotiates the cache itself: its executes omit the definitions the
     * backend statement sent last ({@link #statement}), which then come from the statement's record, and
     * their logical rewrite from its memo when the schema and table names are the same.
     */
    private HeldColumns held;
    /** {@link ServerStatus#METADATA_CHANGED} when this execute's column count is not its statement's last, else 0. */
    private int metadataChanged;
    /** The first unit's logical definitions while they are read ({@link HeldColumns}' format), or null. */
    private ByteBuf defs;
    /** The current unit's column count. */
    private long columnCount;
    /**
     * Under the backend's metadata cache ({@link BackendConnection#cachesMetadata}), a prepared execute's: the backend
     * statement the unit executed ({@link Request#statement}), whose stored definitions "metadata follows = 0" means
     * and whose logical rewrite of them is remembered; else null.
     */
    private RelayStatements.Statement statement;
    /** The definitions an execute sent ("metadata follows = 1") while they are read (HeldColumns' format), or null. */
    private ByteBuf captured;

    QueryRelay(Channel client, Capabilities capabilities, RelaySession session, RelayPlan plan,
               Map<String, BackendConnection> connections, int firstSequenceId, ReleaseTo pool, Ended ended) {
        this(client, capabilities, session, plan, connections, firstSequenceId, pool, ended, TEXT);
    }

    QueryRelay(Channel client, Capabilities capabilities, RelaySession session, RelayPlan plan,
               Map<String, BackendConnection> connections, int firstSequenceId, ReleaseTo pool, Ended ended, Request request) {
        this.request = request;
        this.client = client;
        this.capabilities = capabilities;
        this.session = session;
        this.plan = plan;
        this.connections = connections;
        this.sequenceId = firstSequenceId & 0xFF;
        this.pool = pool;
        this.ended = ended;
    }

    /** Reuses the connection's last column definitions where the backend sends the same again; returns this. */
    QueryRelay columns(LogicalColumns cache) {
        this.columns = cache;
        return this;
    }

    /** A prepared execute's: what the client holds for its statement; returns this. */
    QueryRelay held(HeldColumns held) {
        this.held = held;
        return this;
    }

    void start() {
        sendAhead();
        send(0);
    }

    /**
     * A read over several backends sends the first unit of each other backend now, so the backends
     * answer in parallel rather than one round trip after another (a two-shard scatter's latency is
     * one round trip, not two). A backend's later units wait for its connection (SHOW WARNINGS after
     * a unit must see that unit's warnings); a write is one unit. Autocommit only: when an earlier unit
     * fails, a unit sent ahead is killed and its pooled connection closed.
     */
    private void sendAhead() {
        List<ExecutionUnit> units = plan.units();
        if (units.size() < 2 || plan.write() || plan.transactional()) {
            // a transaction's connection must stay fit for its next statement: a unit whose turn never came (an earlier
            // unit failed) would have to be read to its end first, so a transaction's scatter goes unit after unit
            return;
        }
        String first = units.get(0).backend();
        for (int i = 1; i < units.size(); i++) {
            String backend = units.get(i).backend();
            if (backend.equals(first) || sentBefore(units, i, backend)) {
                continue;
            }
            if (ahead == null) {
                ahead = new Ahead[units.size()];
            }
            BackendConnection c = connections.get(backend);
            ahead[i] = new Ahead(c);
            request.send(c, units.get(i), this);
        }
    }

    private static boolean sentBefore(List<ExecutionUnit> units, int index, String backend) {
        for (int i = 1; i < index; i++) {
            if (units.get(i).backend().equals(backend)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A unit's response arriving while an earlier unit is relayed: its packets held in order (the relay
     * owns them) until the unit's turn, when they go through the relay as if they came then. Beyond
     * {@link #HELD} bytes its connection stops reading until then, so a large scatter holds little.
     */
    private static final class Ahead {
        final BackendConnection connection;
        final ArrayDeque<Packet> packets = new ArrayDeque<>();
        long bytes;
        /** The connection broke before the unit's turn: the relay fails when it comes. */
        Throwable lost;
        /** The unit's turn came: its packets go through the relay as they arrive. */
        boolean current;

        Ahead(BackendConnection connection) {
            this.connection = connection;
        }

        void hold(Packet packet) {
            packets.addLast(packet);
            bytes += packet.content().readableBytes();
            if (bytes >= HELD) {
                connection.channel().config().setAutoRead(false);
            }
        }

        void release() {
            for (Packet p; (p = packets.pollFirst()) != null; ) {
                p.release();
            }
        }
    }

    /** Bytes of a later unit's response held before its connection stops reading. */
    static final int HELD = 64 * 1024;

    /** The unit sent ahead on {@code connection} whose turn has not come, or null. */
    private Ahead waiting(BackendConnection connection) {
        if (ahead == null || connection == current) {
            return null;
        }
        for (Ahead a : ahead) {
            if (a != null && !a.current && a.connection == connection) {
                return a;
            }
        }
        return null;
    }

    private void send(int index) {
        unit = index;
        phase = Phase.HEADER;
        ExecutionUnit u = plan.units().get(index);
        current = connections.get(u.backend());
        current.channel().config().setAutoRead(!paused);
        Ahead sent = ahead == null ? null : ahead[index];
        if (sent == null) {
            request.send(current, u, this);
            return;
        }
        // its response, or the start of it, is in: through the relay in order, then the rest as it arrives
        sent.current = true;
        for (Packet p; phase != Phase.DONE && unit == index && (p = sent.packets.pollFirst()) != null; ) {
            packet(current, p);
        }
        if (sent.lost != null && phase != Phase.DONE && unit == index) {
            lost(current, sent.lost);
        }
    }

    @Override
    public void packet(BackendConnection connection, Packet packet) {
        if (phase == Phase.DONE) {
            packet.release();
            return;
        }
        Ahead waiting = waiting(connection);
        if (waiting != null) {
            waiting.hold(packet);
            return;
        }
        ByteBuf in = packet.content();
        int length = in.readableBytes();
        int header = length == 0 ? -1 : in.getUnsignedByte(in.readerIndex());
        boolean end = header == 0xFE && length < MAX_WIRE;
        try {
            switch (phase) {
                case HEADER -> header(packet, header);
                case COLUMNS -> column(packet.content());
                case COLUMNS_EOF -> phase = Phase.ROWS;
                case ROWS -> {
                    if (header == ErrPacket.HEADER) {
                        backendError(in);
                    } else if (end) {
                        unitEnded(in);
                    } else {
                        forward(packet.content());
                    }
                }
                case WARNINGS -> {
                    if (showWarnings.read(connection, in, header, end)) {
                        warningsRead();
                    }
                }
                case DONE -> { }
            }
        } catch (RuntimeException e) {
            fail(ErrorCode.BUG, true, "relaying backend " + connection.backend() + "'s response: " + e);
        } finally {
            packet.release();
        }
    }

    private void header(Packet packet, int header) {
        ByteBuf in = packet.content();
        if (header == ErrPacket.HEADER) {
            backendError(in);
            return;
        }
        if (header == 0x00) {
            // a write, or a SELECT that returns no result set (INTO OUTFILE): its OK, as the JDBC path answers an update
            OkPacket ok = OkPacket.decode(in);
            current.responseEnded();
            if (plan.write()) {
                session.wrote(ok.affectedRows(), ok.lastInsertId());
            }
            if (ok.warnings() > 0) {
                // the session's diagnostics hold the write's warnings before the client can ask, as on the JDBC path
                written = ok;
                warningCount = ok.warnings();
                showWarnings();
                return;
            }
            finish(ok, ok.warnings());
            return;
        }
        boolean flagged = current.cachesMetadata(); // the backend's count carries "metadata follows"
        if (unit == 0 && !capabilities.cachesMetadata() && !flagged) {
            forward(in);
        }
        columnsLeft = Wire.readLenenc(in);
        columnCount = columnsLeft;
        boolean follows = !flagged || !in.isReadable() || in.readUnsignedByte() != 0;
        statement = flagged ? request.statement() : null;
        byte[] stored = null;
        if (!follows && (statement == null || (stored = statement.columns(columnsLeft)) == null)) {
            fail(ErrorCode.BUG, true, "relaying backend " + current.backend() + "'s response: an execute omitted column definitions"
                    + " it never sent");
            return;
        }
        if (unit == 0 && !capabilities.cachesMetadata() && flagged) {
            int start = open(); // the count as a client without the cache reads it: no flag byte
            Wire.writeLenenc(gathered, columnsLeft);
            close(start);
        }
        if (unit == 0 && held != null) {
            metadataChanged = held.countChanged((int) columnsLeft);
        }
        if (unit == 0 && capabilities.cachesMetadata()) {
            if (held == null) {
                // a text result: MariaDB's count with "metadata follows" (always 1 outside prepared statements)
                int start = open();
                Wire.writeLenenc(gathered, columnsLeft);
                gathered.writeByte(1);
                close(start);
            } else {
                defs = client.alloc().heapBuffer((int) Math.min(64 * columnsLeft, 4096));
            }
        }
        phase = Phase.COLUMNS;
        if (follows) {
            if (statement != null) {
                // an execute's definitions: what a later "metadata follows = 0" means, from the end of these on
                captured = client.alloc().heapBuffer((int) Math.min(64 * columnsLeft, 4096));
            }
            return;
        }
        // the backend omitted the definitions: they are those it sent last for the statement
        if (unit > 0) {
            columnsLeft = 0;
            phase = Phase.ROWS; // DEPRECATE_EOF: negotiated with the cache, so no EOF follows
            return;
        }
        byte[] logical = defs == null ? null : statement.logical(plan.logicalSchema(), plan.units().get(0).logicalTables());
        if (logical != null) {
            columnsLeft = 0;
            columnsEnded(io.netty.buffer.Unpooled.wrappedBuffer(logical)); // rewritten last time: nothing to decode or rewrite
            return;
        }
        io.netty.buffer.ByteBuf all = io.netty.buffer.Unpooled.wrappedBuffer(stored);
        for (int at = 0; at < stored.length && phase == Phase.COLUMNS; ) {
            int length = all.getUnsignedMediumLE(at);
            column(all.slice(at + 3, length));
            at += 3 + length;
        }
    }

    private void column(ByteBuf in) {
        if (captured != null) {
            HeldColumns.append(captured, in);
        }
        if (unit == 0) {
            ExecutionUnit u = plan.units().get(0);
            int index = columnIndex++;
            int start;
            ByteBuf to;
            if (defs != null) {
                to = defs;
                start = defs.writerIndex();
                defs.writeMedium(0);
            } else {
                start = open();
                to = gathered;
            }
            if (columns == null || !columns.write(index, in, plan.logicalSchema(), u.logicalTables(), to)) {
                int from = to.writerIndex();
                int read = in.readerIndex();
                ColumnDefinition c = ColumnDefinition.decode(in);
                in.readerIndex(read); // remembered below as it came
                ColumnDefinition logical = new ColumnDefinition(c.schema().isEmpty() ? "" : plan.logicalSchema(),
                        u.logicalTable(c.table()), u.logicalTable(c.orgTable()), c.name(), c.orgName(), c.collation(), c.length(),
                        c.type(), c.flags(), c.decimals());
                logical.writeTo(to);
                if (columns != null) {
                    columns.remember(index, in, plan.logicalSchema(), u.logicalTables(), to, from);
                }
            }
            if (defs != null) {
                defs.setMediumLE(start, defs.writerIndex() - start - 3);
            } else {
                close(start);
            }
        }
        if (--columnsLeft == 0) {
            columnsEnded(null);
        }
    }

    /**
     * The unit's last definition was read (or the backend omitted them all): under the backend's metadata cache the
     * statement keeps what it sent; for the first unit, the client's count and definitions (from {@code logical},
     * made before, when not null) when it holds them per statement, and the EOF after them when it expects one.
     */
    private void columnsEnded(ByteBuf logical) {
        phase = current.endsResultsWithOk() ? Phase.ROWS : Phase.COLUMNS_EOF;
        if (captured != null) {
            byte[] bytes = new byte[captured.readableBytes()];
            captured.readBytes(bytes);
            captured.release();
            captured = null;
            statement.columns((int) columnCount, bytes);
        }
        if (defs != null) {
            ByteBuf sent = logical != null ? logical : defs;
            if (logical == null && statement != null) {
                byte[] bytes = new byte[defs.readableBytes()];
                defs.getBytes(defs.readerIndex(), bytes);
                statement.logical(plan.logicalSchema(), plan.units().get(0).logicalTables(), bytes);
            }
            sendHeld(sent);
            releaseDefs();
        }
        if (unit == 0 && !capabilities.endsResultsWithOk()) {
            int start = open();
            new EofPacket(0, status()).writeTo(gathered);
            close(start);
        }
    }

    /**
     * The first unit's column count with "metadata follows", and its definitions ({@code logical}, HeldColumns'
     * format) only when the client does not hold them already (which it does from then on).
     */
    private void sendHeld(ByteBuf logical) {
        boolean follows = held.sendAgain(logical, logical.readerIndex(), logical.readableBytes());
        int start = open();
        Wire.writeLenenc(gathered, columnCount);
        gathered.writeByte(follows ? 1 : 0);
        close(start);
        if (follows) {
            sequenceId = HeldColumns.writePackets(logical, gathered, sequenceId);
        }
    }

    private void releaseDefs() {
        if (defs != null) {
            defs.release();
            defs = null;
        }
        if (captured != null) {
            captured.release();
            captured = null;
        }
    }

    /** The unit's EOF or OK (0xFE): its warning count decides whether SHOW WARNINGS runs before the next unit. */
    private void unitEnded(ByteBuf in) {
        int warnings;
        if (current.endsResultsWithOk()) {
            warnings = OkPacket.decode(in).warnings();
        } else {
            in.skipBytes(1);
            warnings = in.readUnsignedShortLE();
        }
        current.responseEnded();
        if (warnings > 0) {
            warningCount = warnings;
            showWarnings();
            return;
        }
        nextUnit();
    }

    private void showWarnings() {
        showWarnings = new ShowWarnings();
        phase = Phase.WARNINGS;
        current.query("SHOW WARNINGS", this);
    }

    private void warningsRead() {
        session.warnings(unit, current.backend(), warningCount, showWarnings.conditions());
        current.responseEnded();
        if (written != null) {
            finish(written, written.warnings());
            return;
        }
        nextUnit();
    }

    private void nextUnit() {
        if (unit + 1 < plan.units().size()) {
            send(unit + 1);
        } else {
            finish(null, 0);
        }
    }

    /** The client's last packet: an OK for a statement without rows, else the end of the rows; then connections go back. */
    private void finish(OkPacket ok, int okWarnings) {
        phase = Phase.DONE;
        ServerStatus status = status();
        int start = open();
        ByteBuf out = gathered;
        if (ok != null) {
            // a write's info ("Rows matched: 1  Changed: 1  Warnings: 0") is its one backend's, as one MySQL words it
            OkPacket.writeTo(out, false, ok.affectedRows(), ok.lastInsertId(), status, okWarnings, plan.write() ? ok.info() : "");
        } else if (capabilities.endsResultsWithOk()) {
            OkPacket.writeTo(out, true, 0, 0, status, session.warningCount(), "");
        } else {
            new EofPacket(session.warningCount(), status).writeTo(out);
        }
        close(start);
        flush();
        releaseAll();
        end();
    }

    private void backendError(ByteBuf in) {
        ErrPacket err = ErrPacket.decode(in);
        current.responseEnded();
        String message = session.translate(current.backend(), err.errno(), err.message());
        fail(err.errno(), err.sqlState(), message, false);
    }

    private void fail(ErrorCode code, boolean broken, Object... args) {
        fail(code.errno(), code.sqlState(), code.message(args), broken);
    }

    /** Ends with an ERR to the client (recorded for SHOW ERRORS); {@code broken}: the connections may hold a partial response. */
    private void fail(int errno, String sqlState, String message, boolean broken) {
        if (phase == Phase.DONE) {
            return;
        }
        phase = Phase.DONE;
        releaseDefs();
        failedWith = errno;
        session.failed(errno, message);
        forward(new ErrPacket(errno, sqlState, message).encode(client.alloc()), true);
        flush();
        if (broken) {
            closeAll();
        } else {
            releaseAll();
        }
        end();
    }

    /** The errno the statement failed with, 0 if it did not. */
    int failedWith() {
        return failedWith;
    }

    /** Never inside a multi-statement: the session's own status (in a transaction, autocommit, NO_BACKSLASH_ESCAPES). */
    private ServerStatus status() {
        ServerStatus status = ServerStatus.of(session.inTransaction(), session.autocommit());
        int extra = (session.noBackslashEscapes() ? ServerStatus.NO_BACKSLASH_ESCAPES : 0) | metadataChanged;
        return extra == 0 ? status : status.with(extra);
    }

    /** The next client packet, a backend payload the caller still owns (and releases): copied, or retained and written as it is. */
    private void forward(ByteBuf payload) {
        forward(payload, false);
    }

    /** @param owned the payload is this relay's: released once copied, or written as it is */
    private void forward(ByteBuf payload, boolean owned) {
        int length = payload.readableBytes();
        if (length < COPIED) {
            gather().writeMediumLE(length).writeByte(sequenceId).writeBytes(payload, payload.readerIndex(), length);
            if (owned) {
                payload.release();
            }
            sequenceId = (sequenceId + 1) & 0xFF;
            if (gathered.readableBytes() >= GATHERED) {
                writeGathered();
            }
        } else {
            writeGathered(); // what came before it goes first
            client.write(new Packet(sequenceId, owned ? payload : payload.retain()), client.voidPromise());
            sequenceId = (sequenceId + Packet.wirePackets(length)) & 0xFF;
            pauseIfFull();
        }
    }

    private ByteBuf gather() {
        if (gathered == null) {
            gathered = client.alloc().ioBuffer(512);
        }
        return gathered;
    }

    /** Starts a packet this relay writes itself into the gathered output: its header is filled in by {@link #close}. */
    private int open() {
        int start = gather().writerIndex();
        gathered.writeZero(Packet.HEADER_LENGTH);
        return start;
    }

    /** Ends the packet {@link #open} started (always far below 16 MiB: definitions, EOF, OK). */
    private void close(int start) {
        gathered.setMediumLE(start, gathered.writerIndex() - start - Packet.HEADER_LENGTH);
        gathered.setByte(start + 3, sequenceId);
        sequenceId = (sequenceId + 1) & 0xFF;
    }

    private void writeGathered() {
        if (gathered != null) {
            ByteBuf out = gathered;
            gathered = null;
            client.write(out, client.voidPromise()); // whole wire packets: the packet encoder lets a ByteBuf through
            pauseIfFull();
        }
    }

    private void pauseIfFull() {
        if (!paused && !client.isWritable()) {
            paused = true;
            current.channel().config().setAutoRead(false);
            client.flush();
        }
    }

    private void flush() {
        writeGathered();
        client.flush();
    }

    /** Output gathered but never written (the relay ended without a word to the client). */
    private void discardGathered() {
        if (gathered != null) {
            gathered.release();
            gathered = null;
        }
    }

    @Override
    public void readComplete(BackendConnection connection) {
        if (phase != Phase.DONE && waiting(connection) == null) {
            flush();
        }
    }

    @Override
    public void lost(BackendConnection connection, Throwable cause) {
        Ahead waiting = waiting(connection);
        if (waiting != null) {
            waiting.lost = cause; // the client sees the failure in unit order, after the units before it
            return;
        }
        fail(ErrorCode.SHARD_UNAVAILABLE, true, connection.backend(), cause.getMessage());
    }

    /** The client can take more: the backend reads again. */
    void writable() {
        if (paused && client.isWritable() && phase != Phase.DONE) {
            paused = false;
            current.channel().config().setAutoRead(true);
        }
    }

    /**
     * KILL QUERY: outside a transaction the backend connection closes (it may be mid-result) and the
     * client gets 1317, as from a killed backend query.
     */
    void kill() {
        if (plan.transactional()) {
            // a transaction's connection must survive (closing it would doom the transaction, which MySQL's KILL QUERY
            // does not): the backend interrupts the statement and answers 1317 itself
            for (BackendConnection c : connections.values()) {
                if (c.running()) {
                    session.killQuery(c.backend(), c.threadId()); // units sent ahead run too
                }
            }
            return;
        }
        fail(ErrorCode.QUERY_INTERRUPTED, true);
    }

    /** The client left: nothing more is sent, and the connections close. */
    void abort() {
        if (phase == Phase.DONE) {
            return;
        }
        phase = Phase.DONE;
        releaseDefs();
        discardGathered();
        closeAll();
        end();
    }

    private void releaseAll() {
        if (connections.size() == 1 && current != null) {
            // the one connection is the current one: no walk over the map's values view per statement
            current.channel().config().setAutoRead(true);
            pool.release(current);
            return;
        }
        for (BackendConnection c : connections.values()) {
            c.channel().config().setAutoRead(true);
            if (c.running()) {
                // a unit sent ahead whose turn never came (an earlier unit failed): its response is still on the wire
                close(c);
            } else {
                pool.release(c);
            }
        }
        releaseHeld();
    }

    private void releaseHeld() {
        if (ahead != null) {
            for (Ahead a : ahead) {
                if (a != null) {
                    a.release();
                }
            }
        }
    }

    private void close(BackendConnection c) {
        if (c.running()) {
            session.killQuery(c.backend(), c.threadId());
        }
        c.channel().close();
    }

    /**
     * Closes every connection; a backend still running the statement gets a KILL QUERY, since
     * MySQL would otherwise run it to its end (a closed socket is noticed only when it writes).
     */
    private void closeAll() {
        for (BackendConnection c : connections.values()) {
            close(c);
        }
        releaseHeld();
    }

    private void end() {
        session.ended();
        ended.ended(this);
    }
}
