package io.shardwise.server.relay;

import io.netty.buffer.ByteBuf;
import io.shardwise.core.RelaySession;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.server.protocol.ColumnDefinition;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.Wire;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One unit's response to a COM_QUERY on a native transaction's connection, read as the session's thread
 * consumes it: its head (an OK or ERR, whole, warnings read; or a result's column definitions) completes
 * {@link #head}, then the result's rows go through a bounded queue to the {@link Rows} cursor. When the
 * queue holds {@link #PAUSE_BYTES} of row packets the connection stops reading (the backend waits in TCP)
 * until the cursor has taken it down to {@link #RESUME_BYTES}; the cursor's consumer is itself paced by the
 * client's channel ({@code ResponseWriter}), so memory stays bounded whatever the result's size. The
 * connection is busy until the response's last packet (and the SHOW WARNINGS its end asks for) is read.
 *
 * <p>Threads: {@link #packet}, {@link #lost} on the connection's event loop; the cursor on the session's
 * thread. The queue and the end state are shared under {@link #lock}. Buffer lifetime: every packet is
 * released here; rows are copied out as byte arrays.
 *
 * <p>A cursor closed before the end (the consumer stopped early: the client left, a merge's LIMIT) drops
 * the rest of the response as it comes and waits for its end, so the connection stays usable and the
 * transaction unharmed; {@link #abandoned} tells the transaction to close the connection at its end rather
 * than pool it.
 */
final class StreamedResponse implements BackendConnection.Listener {
    /** Queued row bytes at which the connection stops reading. */
    static final long PAUSE_BYTES = 256 * 1024;
    /** Queued row bytes at which a paused connection reads again. */
    static final long RESUME_BYTES = 64 * 1024;

    private record Row(byte[][] cells, int bytes) {}

    private enum Phase { HEADER, COLUMNS, COLUMNS_EOF, ROWS, WARNINGS, DONE }

    /** The response's head: an OK or ERR (whole), or a result's column definitions (no rows: they stream). */
    final CompletableFuture<ResponseReader.Response> head = new CompletableFuture<>();
    private final BackendConnection connection;
    private final Relays relays;
    // event loop only
    private Phase phase = Phase.HEADER;
    private long columnsLeft;
    private List<ColumnDefinition> columns;
    private OkPacket ok;
    private ShowWarnings showWarnings;
    // shared, under lock
    private final ReentrantLock lock = new ReentrantLock();
    private final java.util.concurrent.locks.Condition changed = lock.newCondition();
    private final ArrayDeque<Row> rows = new ArrayDeque<>();
    private long queued;
    private boolean paused;
    private boolean resumeAsked;
    /** Nothing more comes from the wire: the response (and its SHOW WARNINGS) ended, failed or the connection broke. */
    private boolean ended;
    /** The consumer closed before the end: rows are dropped as they come. */
    private boolean discard;
    private Throwable lostWith;
    private ErrPacket err;
    private int warnings;
    private List<Condition> conditions = List.of();

    private StreamedResponse(BackendConnection connection, Relays relays) {
        this.connection = connection;
        this.relays = relays;
    }

    /** Sends {@code sql} on {@code connection} (ready), its response read as it is consumed. On the loop. */
    static StreamedResponse run(BackendConnection connection, String sql, Relays relays) {
        StreamedResponse response = new StreamedResponse(connection, relays);
        if (!connection.usable()) {
            response.lost(connection, new IllegalStateException("backend " + connection.backend() + " closed the connection"));
            return response;
        }
        relays.countStreamed();
        connection.query(sql, response);
        return response;
    }

    BackendConnection connection() {
        return connection;
    }

    /** The response's last packet was read (or the connection broke): the connection takes the next command. On the loop. */
    boolean wireEnded() {
        return phase == Phase.DONE;
    }

    @Override
    public void packet(BackendConnection c, Packet packet) {
        ByteBuf in = packet.content();
        try {
            int length = in.readableBytes();
            int header = length == 0 ? -1 : in.getUnsignedByte(in.readerIndex());
            boolean end = header == 0xFE && length < Packet.MAX_WIRE_PAYLOAD;
            switch (phase) {
                case HEADER -> {
                    if (header == ErrPacket.HEADER) {
                        c.responseEnded();
                        ErrPacket e = ErrPacket.decode(in);
                        phase = Phase.DONE;
                        head.complete(new ResponseReader.Response(null, e, null, List.of(), 0, List.of(), List.of()));
                        end(null, null);
                    } else if (header == OkPacket.HEADER) {
                        ok = OkPacket.decode(in);
                        ended(c, ok.warnings(), ok.status());
                    } else if (header == LocalFileUpload.REQUEST) {
                        LocalFileUpload.send(c, packet.sequenceId(), null); // no file here: an empty one, as ResponseReader
                    } else {
                        columnsLeft = Wire.readLenenc(in);
                        columns = new ArrayList<>((int) columnsLeft);
                        phase = Phase.COLUMNS;
                    }
                }
                case COLUMNS -> {
                    columns.add(ColumnDefinition.decode(in));
                    if (--columnsLeft == 0) {
                        phase = c.endsResultsWithOk() ? Phase.ROWS : Phase.COLUMNS_EOF;
                        if (phase == Phase.ROWS) {
                            headOfRows();
                        }
                    }
                }
                case COLUMNS_EOF -> {
                    phase = Phase.ROWS;
                    headOfRows();
                }
                case ROWS -> {
                    if (header == ErrPacket.HEADER) {
                        c.responseEnded();
                        phase = Phase.DONE;
                        end(ErrPacket.decode(in), null);
                    } else if (end) {
                        if (c.endsResultsWithOk()) {
                            OkPacket last = OkPacket.decode(in);
                            ended(c, last.warnings(), last.status());
                        } else {
                            in.skipBytes(1);
                            int w = in.readUnsignedShortLE();
                            ended(c, w, new ServerStatus(in.readUnsignedShortLE()));
                        }
                    } else {
                        row(in, length);
                    }
                }
                case WARNINGS -> {
                    if (showWarnings.read(c, in, header, end)) {
                        c.responseEnded();
                        phase = Phase.DONE;
                        lock.lock();
                        try {
                            conditions = showWarnings.conditions();
                        } finally {
                            lock.unlock();
                        }
                        completeEnded();
                    }
                }
                case DONE -> { }
            }
        } catch (RuntimeException e) {
            phase = Phase.DONE;
            c.channel().close(); // the response cannot be followed: the connection's state is unknown
            head.completeExceptionally(e);
            end(null, e);
        } finally {
            packet.release();
        }
    }

    private void headOfRows() {
        head.complete(new ResponseReader.Response(null, null, List.copyOf(columns), List.of(), 0, List.of(), List.of()));
    }

    private void row(ByteBuf in, int length) {
        lock.lock();
        try {
            if (discard) {
                return;
            }
            byte[][] cells = new byte[columns.size()][];
            for (int i = 0; i < cells.length; i++) {
                if (in.getUnsignedByte(in.readerIndex()) == 0xFB) {
                    in.skipBytes(1); // NULL
                } else {
                    cells[i] = Wire.readLenencBytes(in);
                }
            }
            boolean wasEmpty = rows.isEmpty();
            rows.add(new Row(cells, length));
            queued += length;
            relays.streamQueued(queued);
            if (!paused && queued >= PAUSE_BYTES) {
                paused = true;
                connection.channel().config().setAutoRead(false); // the backend waits in TCP until the cursor caught up
            }
            if (wasEmpty) {
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The result's (or OK's) last packet: SHOW WARNINGS next when it counted some. */
    private void ended(BackendConnection c, int count, ServerStatus status) {
        if (status.moreResultsExist()) {
            throw new IllegalStateException("backend " + c.backend() + " announced more results");
        }
        c.responseEnded();
        lock.lock();
        try {
            warnings = count;
        } finally {
            lock.unlock();
        }
        if (count > 0) {
            showWarnings = new ShowWarnings();
            phase = Phase.WARNINGS;
            c.query("SHOW WARNINGS", this);
            return;
        }
        phase = Phase.DONE;
        completeEnded();
    }

    private void completeEnded() {
        if (ok != null) {
            head.complete(new ResponseReader.Response(ok, null, null, List.of(), warnings, conditions, List.of()));
        }
        end(null, null);
    }

    /** Nothing more comes from the wire; a connection paused mid-result reads again (it serves the next command). On the loop. */
    private void end(ErrPacket error, Throwable lost) {
        lock.lock();
        try {
            err = error;
            lostWith = lost;
            ended = true;
            if (paused) {
                paused = false;
                connection.channel().config().setAutoRead(true);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void readComplete(BackendConnection c) {}

    @Override
    public void lost(BackendConnection c, Throwable cause) {
        phase = Phase.DONE;
        head.completeExceptionally(cause);
        end(null, cause);
    }

    /** The cursor took rows down to {@link #RESUME_BYTES}: the paused connection reads again. On the loop. */
    private void resume() {
        lock.lock();
        try {
            resumeAsked = false;
            if (paused && (queued <= RESUME_BYTES || discard) && !ended) {
                paused = false;
                connection.channel().config().setAutoRead(true);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Under lock, on the consumer's thread. */
    private void askResume() {
        if (paused && !resumeAsked && (queued <= RESUME_BYTES || discard)) {
            resumeAsked = true;
            connection.channel().eventLoop().execute(this::resume);
        }
    }

    /**
     * On the consumer's thread: drops what is queued and what still comes, and waits for the response's end,
     * so the connection is usable again when this returns. True when the response had not ended yet.
     */
    boolean abandon() {
        lock.lock();
        try {
            if (ended) {
                rows.clear();
                queued = 0;
                return false;
            }
            discard = true;
            rows.clear();
            queued = 0;
            askResume();
            while (!ended) {
                changed.awaitUninterruptibly(); // a KILL QUERY or the transaction's ROLLBACK from the loop ends it too
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The rows as core's cursor, on the session's thread: {@code unit}'s warnings are recorded (logical names) in
     * {@code diagnostics} as index {@code index} when the end is reached; a backend's error mid-rows (a KILL QUERY's
     * 1317) or a lost connection is thrown by {@link ResultCursor#next}. {@code closed} runs once at close.
     */
    ResultCursor rows(List<Column> columnsOut, RelaySession session, ExecutionUnit unit, int index, Diagnostics diagnostics,
                      java.util.function.Consumer<StreamedResponse> closed) {
        return new Rows(columnsOut, session, unit, index, diagnostics, closed);
    }

    private final class Rows implements ResultCursor {
        private final List<Column> columnsOut;
        private final RelaySession session;
        private final ExecutionUnit unit;
        private final int index;
        private final Diagnostics diagnostics;
        private final java.util.function.Consumer<StreamedResponse> closed;
        private byte[][] current;
        private boolean finished;
        private boolean isClosed;

        Rows(List<Column> columnsOut, RelaySession session, ExecutionUnit unit, int index, Diagnostics diagnostics,
             java.util.function.Consumer<StreamedResponse> closed) {
            this.columnsOut = columnsOut;
            this.session = session;
            this.unit = unit;
            this.index = index;
            this.diagnostics = diagnostics;
            this.closed = closed;
        }

        @Override
        public List<Column> columns() {
            return columnsOut;
        }

        @Override
        public boolean next() {
            if (finished) {
                current = null;
                return false;
            }
            ErrPacket error;
            Throwable lost;
            int count;
            List<Condition> found;
            lock.lock();
            try {
                while (true) {
                    Row r = rows.poll();
                    if (r != null) {
                        queued -= r.bytes();
                        askResume();
                        current = r.cells();
                        return true;
                    }
                    if (ended) {
                        break;
                    }
                    try {
                        changed.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new ShardwiseException(ErrorCode.QUERY_INTERRUPTED);
                    }
                }
                error = err;
                lost = lostWith;
                count = warnings;
                found = conditions;
            } finally {
                lock.unlock();
            }
            current = null;
            finished = true;
            if (lost != null) {
                throw NativeResults.lostError(unit.backend(), lost);
            }
            if (error != null) {
                throw NativeResults.error(session, unit.backend(), error);
            }
            NativeResults.warnings(session, unit, index,
                    new ResponseReader.Response(null, null, null, List.of(), count, found, List.of()), diagnostics);
            return false;
        }

        @Override
        public byte[] get(int i) {
            return current[i];
        }

        @Override
        public void close() {
            if (isClosed) {
                return;
            }
            isClosed = true;
            current = null;
            closed.accept(StreamedResponse.this);
        }
    }
}
