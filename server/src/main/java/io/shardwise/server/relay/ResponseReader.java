package io.shardwise.server.relay;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.Promise;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.execute.LocalData;
import io.shardwise.server.protocol.ColumnDefinition;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.Wire;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the whole response to one COM_QUERY on a {@link BackendConnection} into a
 * {@link Response}: an OK, an ERR, or a text result set decoded into rows of cell bytes (MySQL's
 * text-protocol values, what {@link io.shardwise.core.execute.ResultCursor} carries). When the
 * response counted warnings, SHOW WARNINGS follows on the same connection before the promise
 * completes, so its conditions travel with the response. Event-loop confined, one per command.
 *
 * <p>Buffer lifetime: every packet is released here; rows are copied out as byte arrays.
 */
final class ResponseReader implements BackendConnection.Listener {
    /**
     * One response. Exactly one of {@code ok}, {@code err} and {@code columns} is non-null; rows
     * are those of a result set (empty otherwise).
     */
    record Response(OkPacket ok, ErrPacket err, List<ColumnDefinition> columns, List<byte[][]> rows, int warnings,
                    List<Condition> conditions, List<Response> earlier) {}

    private enum Phase { HEADER, COLUMNS, COLUMNS_EOF, ROWS, WARNINGS, DONE }

    /**
     * A response's rows outgrew the budget the caller gave ({@link #run(BackendConnection, String, boolean, long[])}):
     * the reader stopped and closed the connection (its response was not read to its end). Stackless: an
     * expected turn, not a fault.
     */
    static final class OverBudget extends RuntimeException {
        OverBudget() {
            super("the response's rows exceed the statement's budget", null, false, false);
        }
    }

    private final Promise<Response> done;
    private final boolean fetchWarnings;
    private final boolean allResults;
    /** Bytes of row packets the statement may still read, shared by its responses ([0]); null: no bound. */
    private final long[] budget;
    /** Past the budget, read the response to its end without keeping its rows, then fail with {@link OverBudget} (the connection stays usable). */
    private final boolean drain;
    /** Draining: the budget was passed. */
    private boolean over;
    private Phase phase = Phase.HEADER;
    private long columnsLeft;
    private OkPacket ok;
    private List<ColumnDefinition> columns;
    private List<byte[][]> rows = new ArrayList<>();
    /** The results before the last, when the command returns several (a CALL). */
    private final List<Response> earlier = new ArrayList<>();
    private int warnings;
    private List<Condition> conditions = List.of();
    /** The SHOW WARNINGS being read, or null. */
    private ShowWarnings showWarnings;
    /** The rows a LOAD DATA LOCAL unit sends when the backend asks for its file ({@link #load}), or null. */
    private LocalData file;

    private ResponseReader(Promise<Response> done, boolean fetchWarnings, boolean allResults, long[] budget) {
        this(done, fetchWarnings, allResults, budget, false);
    }

    private ResponseReader(Promise<Response> done, boolean fetchWarnings, boolean allResults, long[] budget, boolean drain) {
        this.done = done;
        this.fetchWarnings = fetchWarnings;
        this.allResults = allResults;
        this.budget = budget;
        this.drain = drain;
    }

    /**
     * As {@link #run(BackendConnection, String, boolean, long[])}, except that past the budget the response is
     * still read to its end (rows dropped) before the promise fails with {@link OverBudget}: the connection stays
     * usable, as a transaction's must (closing it would roll back the transaction's work there).
     */
    static Promise<Response> runDraining(BackendConnection connection, String sql, boolean fetchWarnings, long[] budget) {
        Promise<Response> done = connection.channel().eventLoop().newPromise();
        if (!connection.usable()) {
            return done.setFailure(new IllegalStateException("backend " + connection.backend() + " closed the connection"));
        }
        connection.query(sql, new ResponseReader(done, fetchWarnings, false, budget, true));
        return done;
    }

    /**
     * Sends {@code sql} on {@code connection}; the promise completes with its response, or fails when
     * the connection breaks — or broke already: a transaction's connection may close between two of
     * its statements (its backend died), and that must fail the statement, not throw on the loop.
     */
    static Promise<Response> run(BackendConnection connection, String sql, boolean fetchWarnings) {
        return run(connection, sql, fetchWarnings, false);
    }

    /** @param allResults several results may follow (a CALL): all but the last are in {@link Response#earlier} */
    static Promise<Response> run(BackendConnection connection, String sql, boolean fetchWarnings, boolean allResults) {
        Promise<Response> done = connection.channel().eventLoop().newPromise();
        if (!connection.usable()) {
            return done.setFailure(new IllegalStateException("backend " + connection.backend() + " closed the connection"));
        }
        connection.query(sql, new ResponseReader(done, fetchWarnings, allResults, null));
        return done;
    }

    /**
     * As {@link #run(BackendConnection, String, boolean)}, its rows' packets counted against {@code budget[0]}
     * (bytes, shared by the responses of one statement): beyond it the promise fails with {@link OverBudget}
     * and the connection closes.
     */
    static Promise<Response> run(BackendConnection connection, String sql, boolean fetchWarnings, long[] budget) {
        Promise<Response> done = connection.channel().eventLoop().newPromise();
        if (!connection.usable()) {
            return done.setFailure(new IllegalStateException("backend " + connection.backend() + " closed the connection"));
        }
        connection.query(sql, new ResponseReader(done, fetchWarnings, false, budget));
        return done;
    }

    /**
     * As {@link #run(BackendConnection, String, boolean)} for a {@code LOAD DATA LOCAL INFILE} unit: when the
     * backend asks for the file, {@code file}'s rows go ({@link LocalFileUpload}), and its OK or ERR after
     * them is the response (warnings read with SHOW WARNINGS as for any statement).
     */
    static Promise<Response> load(BackendConnection connection, String sql, LocalData file) {
        Promise<Response> done = connection.channel().eventLoop().newPromise();
        if (!connection.usable()) {
            return done.setFailure(new IllegalStateException("backend " + connection.backend() + " closed the connection"));
        }
        ResponseReader reader = new ResponseReader(done, true, false, null);
        reader.file = file;
        connection.query(sql, reader);
        return done;
    }

    @Override
    public void packet(BackendConnection connection, Packet packet) {
        ByteBuf in = packet.content();
        try {
            int length = in.readableBytes();
            int header = length == 0 ? -1 : in.getUnsignedByte(in.readerIndex());
            boolean end = header == 0xFE && length < Packet.MAX_WIRE_PAYLOAD;
            switch (phase) {
                case HEADER -> {
                    if (header == ErrPacket.HEADER) {
                        connection.responseEnded();
                        complete(connection, null, ErrPacket.decode(in));
                    } else if (header == OkPacket.HEADER) {
                        ok = OkPacket.decode(in);
                        ended(connection, ok.warnings(), ok.status());
                    } else if (header == LocalFileUpload.REQUEST) {
                        // LOAD DATA LOCAL asks for its file (no column count starts 0xFB): the rows, then the OK or ERR
                        LocalFileUpload.send(connection, packet.sequenceId(), file);
                        file = null;
                    } else {
                        columnsLeft = Wire.readLenenc(in);
                        columns = new ArrayList<>((int) columnsLeft);
                        phase = Phase.COLUMNS;
                    }
                }
                case COLUMNS -> {
                    columns.add(ColumnDefinition.decode(in));
                    if (--columnsLeft == 0) {
                        phase = connection.endsResultsWithOk() ? Phase.ROWS : Phase.COLUMNS_EOF;
                    }
                }
                case COLUMNS_EOF -> phase = Phase.ROWS;
                case ROWS -> {
                    if (header == ErrPacket.HEADER) {
                        connection.responseEnded();
                        complete(connection, null, ErrPacket.decode(in));
                    } else if (end) {
                        if (connection.endsResultsWithOk()) {
                            OkPacket last = OkPacket.decode(in);
                            ended(connection, last.warnings(), last.status());
                        } else {
                            in.skipBytes(1);
                            int w = in.readUnsignedShortLE();
                            ended(connection, w, new ServerStatus(in.readUnsignedShortLE()));
                        }
                    } else {
                        if (over) {
                            return; // draining: the row is dropped
                        }
                        if (budget != null && (budget[0] -= length) < 0 && drain) {
                            over = true;
                            rows = new ArrayList<>(); // what was kept goes now
                            return;
                        }
                        if (budget != null && budget[0] < 0) {
                            phase = Phase.DONE;
                            connection.channel().close(); // mid-response: the connection cannot be reused
                            done.tryFailure(new OverBudget());
                            return;
                        }
                        byte[][] row = new byte[columns.size()][];
                        for (int i = 0; i < row.length; i++) {
                            if (in.getUnsignedByte(in.readerIndex()) == 0xFB) {
                                in.skipBytes(1); // NULL
                            } else {
                                row[i] = Wire.readLenencBytes(in);
                            }
                        }
                        rows.add(row);
                    }
                }
                case WARNINGS -> {
                    if (showWarnings.read(connection, in, header, end)) {
                        conditions = showWarnings.conditions();
                        warningsRead(connection);
                    }
                }
                case DONE -> { }
            }
        } catch (RuntimeException e) {
            phase = Phase.DONE;
            connection.channel().close(); // the response cannot be followed: the connection's state is unknown
            done.tryFailure(e);
        } finally {
            packet.release();
        }
    }

    /** The response's last packet: SHOW WARNINGS next when it counted some. */
    private void ended(BackendConnection connection, int count, ServerStatus status) {
        if (status.moreResultsExist()) {
            if (!allResults) {
                throw new IllegalStateException("backend " + connection.backend() + " announced more results");
            }
            earlier.add(new Response(ok, null, ok == null ? columns : null, rows, count, List.of(), List.of()));
            ok = null;
            columns = null;
            rows = new ArrayList<>();
            phase = Phase.HEADER; // the connection stays busy: the next result follows
            return;
        }
        connection.responseEnded();
        warnings = count;
        if (count > 0 && fetchWarnings) {
            showWarnings = new ShowWarnings();
            phase = Phase.WARNINGS;
            connection.query("SHOW WARNINGS", this);
            return;
        }
        complete(connection, ok, null);
    }

    private void warningsRead(BackendConnection connection) {
        connection.responseEnded();
        complete(connection, ok, null);
    }

    private void complete(BackendConnection connection, OkPacket okPacket, ErrPacket err) {
        phase = Phase.DONE;
        if (over && err == null) {
            done.tryFailure(new OverBudget());
            return;
        }
        done.trySuccess(new Response(err == null ? okPacket : null, err, err == null && okPacket == null ? columns : null, rows, warnings,
                conditions, List.copyOf(earlier)));
    }

    @Override
    public void readComplete(BackendConnection connection) {}

    @Override
    public void lost(BackendConnection connection, Throwable cause) {
        phase = Phase.DONE;
        done.tryFailure(cause);
    }
}
