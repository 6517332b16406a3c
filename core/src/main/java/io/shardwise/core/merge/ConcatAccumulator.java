package io.shardwise.core.merge;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.SortKey;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * GROUP_CONCAT from the units' pieces: each unit row of the group carries the GROUP_CONCAT of its rows
 * that are equal in every argument and ORDER BY key (the units group by them), and hidden columns with
 * those keys. The pieces are sorted by the keys as MySQL's ORDER BY compares (weights for collated
 * strings; a stable sort, and MySQL's order of equal keys is unspecified anyway), for DISTINCT the first
 * piece of equal arguments kept (under their collation), NULL pieces (an argument was NULL) skipped, and
 * joined with the separator the units returned. NULL when no piece is left, as MySQL's.
 * Memory: the group's pieces, which is the result's own size. The joined value is cut at the units'
 * {@code @@group_concat_max_len} bytes (at a character boundary unless binary), with warning 1260;
 * MySQL's N in "Row N was cut" counts the group's rows, which pieces do not tell: here N is the piece
 * the cut falls in (the same when each piece is one row, as under an ORDER BY a unique key).
 */
final class ConcatAccumulator implements Accumulator {
    private static final byte[] DEFAULT_SEPARATOR = {','};

    private final AggregateSlot slot;
    private final AggregateSlot.Concat concat;
    private final int width;
    private final RowOrder order;
    private final List<byte[][]> pieces = new ArrayList<>();
    private final boolean binary;
    private final MergeWarnings warnings;

    ConcatAccumulator(AggregateSlot slot, List<Column> columns, MergeWarnings warnings) {
        this.slot = slot;
        this.warnings = warnings;
        this.binary = columns.get(slot.column()).hasBinaryCollation();
        this.concat = slot.concat();
        this.width = columns.size();
        this.order = concat.order().isEmpty() ? null : new RowOrder(concat.order(), columns);
    }

    @Override
    public void add(Row row) {
        if (row.get(slot.column()) != null) {
            pieces.add(Row.copy(row, width));
        }
    }

    @Override
    public void writeTo(byte[][] out) {
        if (pieces.isEmpty()) {
            out[slot.column()] = null;
            return;
        }
        List<byte[][]> kept = concat.distinct() ? distinct() : pieces;
        if (order != null) {
            kept.sort((a, b) -> order.compare(Row.of(a), Row.of(b)));
        }
        byte[] separator = concat.separatorColumn() >= 0 ? pieces.get(0)[concat.separatorColumn()] : DEFAULT_SEPARATOR;
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        for (int i = 0; i < kept.size(); i++) {
            if (i > 0 && separator != null) {
                joined.writeBytes(separator);
            }
            joined.writeBytes(kept.get(i)[slot.column()]);
        }
        out[slot.column()] = cut(joined.toByteArray(), kept, separator == null ? 0 : separator.length);
    }

    /** The value within group_concat_max_len bytes, whole characters only (UTF-8 unless binary), warning when cut. */
    private byte[] cut(byte[] value, List<byte[][]> kept, int separatorLength) {
        byte[] limitText = concat.lengthColumn() >= 0 ? pieces.get(0)[concat.lengthColumn()] : null;
        if (limitText == null) {
            return value;
        }
        long limit = NumberText.longValue(limitText);
        if (value.length <= limit) {
            return value;
        }
        int end = (int) limit;
        while (!binary && end > 0 && (value[end] & 0xC0) == 0x80) {
            end--; // value[end] continues a character that would not fit whole
        }
        int piece = 0; // the piece the cut falls in, counted from 1: MySQL's row when each piece is one row
        for (long length = 0; piece < kept.size() && length <= limit; piece++) {
            length += (piece > 0 ? separatorLength : 0) + kept.get(piece)[slot.column()].length;
        }
        warnings.raise(new Condition(Condition.Level.WARNING, ErrorCode.GROUP_CONCAT_CUT.errno(), ErrorCode.GROUP_CONCAT_CUT.message(piece)));
        return java.util.Arrays.copyOf(value, end);
    }

    /** The first piece of each combination of argument values, equal as the arguments' collations compare. */
    private List<byte[][]> distinct() {
        Set<Accumulator.Key> seen = new HashSet<>();
        List<byte[][]> out = new ArrayList<>();
        for (byte[][] piece : pieces) {
            ByteArrayOutputStream identity = new ByteArrayOutputStream();
            for (SortKey key : concat.identity()) {
                byte[] v = piece[key.compareColumn()];
                byte[] bytes = v == null ? new byte[0] : v;
                identity.writeBytes(Integer.toString(bytes.length).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                identity.write(':');
                identity.writeBytes(bytes);
            }
            if (seen.add(new Accumulator.Key(identity.toByteArray()))) {
                out.add(piece);
            }
        }
        return out;
    }
}
