package io.shardwise.server.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.shardwise.core.RelayPlan;
import io.shardwise.core.RelaySession;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.server.protocol.BinaryRow;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.EofPacket;
import io.shardwise.server.protocol.HeldColumns;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.TextRow;
import io.shardwise.server.protocol.Wire;
import io.shardwise.server.session.ColumnDefinitions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A merged read (ORDER BY, aggregates, DISTINCT, LIMIT over several units) answered on the client's event
 * loop, without the session's thread: its units were sent ahead as the statement arrived — on a native
 * transaction's connections ({@link PinnedTransaction#prefetch}), or in autocommit on leased relay
 * connections ({@link AutocommitReads#prefetch}); once every unit has answered,
 * the loop merges their rows with core's merger ({@link RelaySession#merge}) and writes the result, packet
 * for packet what the session's thread writes (CommandHandler.stream). Before, the loop handed the statement
 * to that thread and its answer back: two thread hops per statement, which on a loaded machine cost more than
 * the backends' round trips. A prepared statement's execute of such a shape is answered the same way, in binary
 * rows with the names its prepare announced (as PreparedStatements.stream), its units' text carrying the values bound;
 * under MariaDB's metadata cache its definitions go only when the client does not hold them ({@link HeldColumns}).
 *
 * <p>Only the common case: every unit answered rows (no error, nothing lost, nothing killed) of at most
 * {@link #BOUND} bytes of row packets in all, and the whole merge ran without an exception. The merge over
 * rows in memory is CPU alone (no planning, no JDBC, no wait), and the bound keeps its time on the loop small.
 * Anything else goes to the session's thread as before, which takes the same responses and answers
 * (errors included) as it always did: until the answer is complete nothing was sent nor recorded.
 *
 * <p>Event-loop confined (the client's loop), as its {@link RelayExecutor}.
 */
final class LoopMerges {
    /**
     * Bytes of row packets (as the backends sent them) a merged read may read and still be merged on the event
     * loop: 1 MiB, a few milliseconds of merging at most, while sysbench's ranges read ~12 KiB; overridden by
     * the system property {@code shardwise.loopMergeBytes} (0: never on the loop).
     */
    static final long BOUND = 1L << 20;

    /**
     * Who sent a merged read's units ahead and holds their responses until the session's thread takes them
     * (when the loop does not answer): a native transaction, or the session's autocommit reads. On the loop.
     */
    interface SentAhead {
        /** Bytes of row packets the units sent ahead as {@code responses} read, or -1 when they are not the ones held. */
        long prefetchedBytes(CompletableFuture<ResponseReader.Response[]> responses);

        /** The loop answered the units sent ahead as {@code responses} itself: nothing is left for the session's thread. */
        void prefetchAnswered(CompletableFuture<ResponseReader.Response[]> responses);

        /** KILL QUERY on what the units still run: the session's thread then reports it (1317). */
        void cancel();
    }

    private final Relays relays;
    private final Channel client;
    private final Capabilities capabilities;
    private final RelaySession session;
    /** Whose merged read waits for its units, or null. */
    private SentAhead waiting;

    LoopMerges(Relays relays, Channel client, Capabilities capabilities, RelaySession session) {
        this.relays = relays;
        this.client = client;
        this.capabilities = capabilities;
        this.session = session;
    }

    static long bound() {
        return Long.getLong("shardwise.loopMergeBytes", BOUND);
    }

    /** A merged read waits for its units: the client's next commands wait too. */
    boolean busy() {
        return waiting != null;
    }

    /** KILL QUERY: what the waiting read's units run is killed; the session's thread then reports it (1317) as before. */
    void kill() {
        if (waiting != null) {
            waiting.cancel();
        }
    }

    /**
     * An autocommit merged read ({@link RelayPlan#merged}, not transactional): its units are leased and sent now
     * ({@link AutocommitReads#prefetch}), and {@link #answer}ed here once in. False when the session's thread must
     * run it — a backend not relayable, or the loop's merges turned off ({@link #bound} 0) — or take what was sent
     * at once (no relay connection to lease: it runs on the JDBC executor).
     */
    boolean answerAutocommit(Packet packet, String sql, RelayPlan plan, List<Column> described, HeldColumns held,
                             AutocommitReads reads, Consumer<Packet> fallback, Runnable ended) {
        CompletableFuture<ResponseReader.Response[]> responses = reads.prefetch(plan.units(), plan.setup());
        if (responses == null || responses.isDone() || bound() <= 0) {
            return false;
        }
        answer(packet, sql, plan, described, held, reads, responses, fallback, ended);
        return true;
    }

    /**
     * Answers {@code sql} (merged read {@code plan}) once {@code responses}, its units sent ahead by {@code ahead}, are
     * in; or hands the packet to {@code fallback} (the session's thread), which takes them. {@code ended} runs either
     * way. {@code packet} is a COM_QUERY ({@code described} null: text rows) or a prepared statement's COM_STMT_EXECUTE,
     * {@code described} the columns its prepare announced: binary rows, as the session's thread answers an execute
     * (PreparedStatements.stream), and under MariaDB's metadata cache with the "metadata follows" byte and the
     * definitions only when they are not those the client holds for the statement ({@code held}, which records them
     * once the answer is complete; null: always sent).
     */
    void answer(Packet packet, String sql, RelayPlan plan, List<Column> described, HeldColumns held, SentAhead ahead,
                CompletableFuture<ResponseReader.Response[]> responses, Consumer<Packet> fallback, Runnable ended) {
        waiting = ahead;
        responses.whenComplete((answered, failure) -> {
            waiting = null;
            if (!client.isActive()) {
                packet.release(); // the session's close settles the units sent ahead and rolls back
                ended.run();
                return;
            }
            ByteBuf result;
            try {
                result = failure == null ? merged(sql, packet.sequenceId() + 1, plan, described, held, ahead, responses, answered) : null;
            } catch (RuntimeException e) {
                result = null; // never lost in the future's callback: the client would wait for an answer for ever
            }
            if (result == null) {
                fallback.accept(packet);
                ended.run();
                return;
            }
            packet.release();
            ahead.prefetchAnswered(responses);
            relays.countLoopMerged();
            client.writeAndFlush(result, client.voidPromise());
            session.ended();
            ended.run();
        });
    }

    /**
     * The whole answer (column count, definitions, rows, end) with the statement recorded as the session's last, or
     * null (nothing recorded) when the session's thread must answer: an error, too many bytes, a merge that failed.
     */
    private ByteBuf merged(String sql, int firstSequenceId, RelayPlan plan, List<Column> described, HeldColumns held,
                           SentAhead ahead, CompletableFuture<ResponseReader.Response[]> responses,
                           ResponseReader.Response[] answered) {
        long bytes = ahead.prefetchedBytes(responses);
        if (answered == null || bytes < 0 || bytes > bound()) { // null: autocommit units past their budget, or not leased
            return null;
        }
        List<ExecutionUnit> units = plan.units();
        for (ResponseReader.Response r : answered) {
            if (r == null || r.columns() == null) {
                return null; // an error or an OK: the session's thread says what it always said
            }
        }
        Diagnostics area = new Diagnostics(units.size());
        List<UnitResult> results = new ArrayList<>(units.size());
        for (int i = 0; i < units.size(); i++) {
            NativeResults.warnings(session, units.get(i), i, answered[i], area);
            results.add(NativeResults.result(units.get(i), answered[i], plan.logicalSchema()));
        }
        ByteBuf out = client.alloc().ioBuffer((int) Math.min(bytes + 1024, 1 << 20));
        ResultCursor merged;
        try {
            merged = session.merge(plan, results, area);
        } catch (RuntimeException e) {
            merged = null; // the session's thread merges again, and reports what fails as it always did
        }
        if (merged == null) {
            out.release();
            return null;
        }
        // a prepared execute's definitions under MariaDB's metadata cache, gathered to compare with what the client holds
        ByteBuf defs = null;
        try (ResultCursor cursor = merged) {
            Frames frames = new Frames(out, firstSequenceId);
            List<Column> columns = cursor.columns();
            int n = columns.size();
            int[] types = described == null ? null : new int[n];
            if (described != null && held != null && capabilities.cachesMetadata()) {
                defs = client.alloc().heapBuffer(64 * n);
                for (int i = 0; i < n; i++) {
                    Column c = ColumnDefinitions.prepared(columns, described, i);
                    types[i] = c.mysqlType();
                    int lengthAt = defs.writerIndex();
                    defs.writeMedium(0);
                    ColumnDefinitions.of(c).writeTo(defs);
                    defs.setMediumLE(lengthAt, defs.writerIndex() - lengthAt - 3);
                }
                // as PreparedStatements.columns decides, but recorded only once this answer is complete (below)
                boolean follows = !held.holds(defs, defs.readerIndex(), defs.readableBytes());
                ByteBuf count = frames.begin();
                Wire.writeLenenc(count, n);
                count.writeByte(follows ? 1 : 0);
                frames.end();
                for (int at = defs.readerIndex(); follows && at < defs.writerIndex(); ) {
                    int length = defs.getUnsignedMediumLE(at);
                    frames.begin().writeBytes(defs, at + 3, length);
                    frames.end();
                    at += 3 + length;
                }
            } else {
                ByteBuf count = frames.begin();
                Wire.writeLenenc(count, n);
                if (capabilities.cachesMetadata()) {
                    count.writeByte(1); // MariaDB's "metadata follows": a text result's always do
                }
                frames.end();
                for (int i = 0; i < n; i++) {
                    Column c = described == null ? columns.get(i) : ColumnDefinitions.prepared(columns, described, i);
                    if (types != null) {
                        types[i] = c.mysqlType();
                    }
                    ColumnDefinitions.of(c).writeTo(frames.begin());
                    frames.end();
                }
            }
            BinaryRow binary = types == null ? null : new BinaryRow(types);
            byte[][] cells = types == null ? null : new byte[n][];
            ServerStatus status = ServerStatus.of(session.inTransaction(), session.autocommit());
            if (session.noBackslashEscapes()) {
                status = status.with(ServerStatus.NO_BACKSLASH_ESCAPES);
            }
            int changed = described != null && held != null ? held.countDiffers(n) : 0; // recorded with the definitions, below
            if (changed != 0) {
                status = status.with(changed);
            }
            if (!capabilities.endsResultsWithOk()) {
                new EofPacket(0, status).writeTo(frames.begin());
                frames.end();
            }
            while (cursor.next()) {
                ByteBuf row = frames.begin();
                if (binary != null) {
                    for (int i = 0; i < n; i++) {
                        cells[i] = cursor.get(i);
                    }
                    binary.writeTo(row, cells);
                } else {
                    for (int i = 0; i < n; i++) {
                        TextRow.writeValue(row, cursor.get(i));
                    }
                }
                if (!frames.end()) {
                    out.release();
                    return null; // a row of 16 MiB: the session's thread splits it
                }
            }
            // recorded only now, with nothing left to fail: the statement ran here from start to end
            session.started(sql, plan, area);
            if (defs != null) {
                held.sendAgain(defs, defs.readerIndex(), defs.readableBytes()); // what the client holds from now on
            }
            if (described != null && held != null) {
                held.countChanged(n);
            }
            ByteBuf end = frames.begin();
            if (capabilities.endsResultsWithOk()) {
                new OkPacket(0, 0, status, area.warningCount(), "").writeTo(end, true);
            } else {
                new EofPacket(area.warningCount(), status).writeTo(end);
            }
            frames.end();
            return out;
        } catch (RuntimeException e) {
            out.release(); // the session's thread merges again, and reports what fails as it always did
            return null;
        } finally {
            if (defs != null) {
                defs.release();
            }
        }
    }

    /** Packets framed into one buffer, numbered on from the command's. */
    private static final class Frames {
        private final ByteBuf out;
        private int sequenceId;
        private int start;

        Frames(ByteBuf out, int firstSequenceId) {
            this.out = out;
            this.sequenceId = firstSequenceId & 0xFF;
        }

        ByteBuf begin() {
            start = out.writerIndex();
            return out.writeZero(Packet.HEADER_LENGTH);
        }

        /** False when the payload needs more than one wire packet. */
        boolean end() {
            int length = out.writerIndex() - start - Packet.HEADER_LENGTH;
            if (length >= Packet.MAX_WIRE_PAYLOAD) {
                return false;
            }
            out.setMediumLE(start, length).setByte(start + 3, sequenceId);
            sequenceId = (sequenceId + 1) & 0xFF;
            return true;
        }
    }
}

