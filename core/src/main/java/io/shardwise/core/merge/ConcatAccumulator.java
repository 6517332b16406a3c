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
 *
 * <p>JSON_ARRAYAGG and JSON_OBJECTAGG merge the same way, each piece a unit's array (object) over its
 * equal rows: the pieces' members are joined inside one pair of brackets (braces) with MariaDB's own
 * separators, {@code [1,null,3]} and {@code {"a":1, "b":null}}, duplicate keys kept as MariaDB keeps
 * them. JSON_ARRAYAGG's members are cut at group_concat_max_len before the closing bracket, as
 * MariaDB cuts them (warning 1260 naming JSON_ARRAYAGG()).
 */
final class ConcatAccumulator implements Accumulator {
    private static final byte[] DEFAULT_SEPARATOR = {','};
    private static final byte[] OBJECT_SEPARATOR = {',', ' '};

    private final AggregateSlot slot;
    private final AggregateSlot.Concat concat;
    private final int width;
    private final RowOrder order;
    private final List<byte[][]> pieces = new ArrayList<>();
    private final boolean binary;
    private final MergeWarnings warnings;
    /** For the JSON aggregates the brackets each piece is wrapped in and the result gets; 0 for GROUP_CONCAT. */
    private final byte open;
    private final byte close;

    ConcatAccumulator(AggregateSlot slot, List<Column> columns, MergeWarnings warnings) {
        this.slot = slot;
        this.warnings = warnings;
        this.binary = columns.get(slot.column()).hasBinaryCollation();
        this.concat = slot.concat();
        this.width = columns.size();
        this.order = concat.order().isEmpty() ? null : new RowOrder(concat.order(), columns);
        this.open = slot.kind() == AggregateSlot.Kind.JSON_ARRAYAGG ? (byte) '[' : slot.kind() == AggregateSlot.Kind.JSON_OBJECTAGG ? (byte) '{' : 0;
        this.close = open == '[' ? (byte) ']' : open == '{' ? (byte) '}' : 0;
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
        byte[] separator = concat.separatorColumn() >= 0 ? pieces.get(0)[concat.separatorColumn()]
                : open == '{' ? OBJECT_SEPARATOR : DEFAULT_SEPARATOR;
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        int strip = open == 0 ? 0 : 1;
        for (int i = 0; i < kept.size(); i++) {
            if (i > 0 && separator != null) {
                joined.writeBytes(separator);
            }
            byte[] piece = kept.get(i)[slot.column()];
            joined.write(piece, strip, piece.length - 2 * strip); // a JSON piece's members, without its brackets
        }
        byte[] value = cut(joined.toByteArray(), kept, separator == null ? 0 : separator.length);
        if (open != 0) {
            byte[] wrapped = new byte[value.length + 2];
            wrapped[0] = open;
            System.arraycopy(value, 0, wrapped, 1, value.length);
            wrapped[wrapped.length - 1] = close;
            value = wrapped;
        }
        out[slot.column()] = value;
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
        warnings.raise(new Condition(Condition.Level.WARNING, ErrorCode.GROUP_CONCAT_CUT.errno(),
                ErrorCode.GROUP_CONCAT_CUT.message(piece, open == 0 ? "GROUP_CONCAT" : "JSON_ARRAYAGG")));
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
