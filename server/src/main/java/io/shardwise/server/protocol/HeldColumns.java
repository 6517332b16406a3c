package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * The column definitions a client holds for one of its prepared statements under
 * MARIADB_CLIENT_CACHE_METADATA ({@link Capabilities#cachesMetadata}): the ones the statement's
 * prepare announced, or the ones its last execute sent, byte for byte (each definition's payload
 * behind its 3-byte length, sequence ids left out). An execute whose definitions are these bytes
 * answers "metadata follows = 0" and omits them, as MariaDB does; any other definitions go to the
 * client (byte 1) and become what it holds. Comparing the bytes the client would get, rather than
 * MariaDB's checksum over the same fields, makes the decision exact whatever produced them (the
 * relay's logical rewrite of a backend's definitions, the engine's, a merge's).
 *
 * <p>Read and written by whichever thread runs the statement's command (the session's thread, or
 * the client's event loop for a relayed execute); commands run one after another.
 */
public final class HeldColumns {
    private static final byte[] NONE = new byte[0];
    private byte[] held = NONE;
    /** The statement's column count as the client last learned it (prepare, then each execute); -1: not known. */
    private int columns = -1;

    public HeldColumns() {}

    /** @param announced the column count the statement's prepare announced */
    public HeldColumns(int announced) {
        columns = announced;
    }

    /**
     * {@link ServerStatus#METADATA_CHANGED} when an execute answering {@code count} columns changes the statement's
     * count (MariaDB's rule: a reprepare that changed the number of columns), else 0; {@code count} is the count from now on.
     */
    public int countChanged(int count) {
        int changed = countDiffers(count);
        columns = count;
        return changed;
    }

    /** As {@link #countChanged}, recording nothing (an answer that may still be abandoned). */
    public int countDiffers(int count) {
        return columns >= 0 && count != columns ? ServerStatus.METADATA_CHANGED : 0;
    }

    /**
     * Whether the client must be sent the definitions {@code [from, from + length)} of {@code defs}
     * (in this class's format): true when they are not the ones it holds, which they become.
     */
    public boolean sendAgain(ByteBuf defs, int from, int length) {
        if (holds(defs, from, length)) {
            return false;
        }
        held = new byte[length];
        defs.getBytes(from, held);
        return true;
    }

    /**
     * Whether the client holds the definitions {@code [from, from + length)} of {@code defs} (in this class's format),
     * recording nothing: for an answer that may still be abandoned before it is sent, which then records them with
     * {@link #sendAgain} once nothing can fail (the event loop's merged execute, LoopMerges).
     */
    public boolean holds(ByteBuf defs, int from, int length) {
        if (length != held.length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (defs.getByte(from + i) != held[i]) {
                return false;
            }
        }
        return true;
    }

    /** What the client holds now, as {@link #sendAgain} compares it (for tests). */
    public byte[] held() {
        return Arrays.copyOf(held, held.length);
    }

    /** Appends one definition's payload (its readable bytes, not consumed) in this class's format. */
    public static void append(ByteBuf defs, ByteBuf payload) {
        defs.writeMediumLE(payload.readableBytes()).writeBytes(payload, payload.readerIndex(), payload.readableBytes());
    }

    /**
     * Writes {@code defs}' definitions (in this class's format) as wire packets, numbered from
     * {@code sequenceId}; returns the sequence id after the last.
     */
    public static int writePackets(ByteBuf defs, ByteBuf out, int sequenceId) {
        int at = defs.readerIndex();
        int end = defs.writerIndex();
        while (at < end) {
            int length = defs.getUnsignedMediumLE(at);
            out.writeMediumLE(length).writeByte(sequenceId).writeBytes(defs, at + 3, length);
            sequenceId = (sequenceId + 1) & 0xFF;
            at += 3 + length;
        }
        return sequenceId;
    }
}
