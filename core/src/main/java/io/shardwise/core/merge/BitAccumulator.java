package io.shardwise.core.merge;

import io.shardwise.core.route.AggregateSlot;
import java.nio.charset.StandardCharsets;

/**
 * BIT_AND, BIT_OR, BIT_XOR over BIGINT UNSIGNED: the units' values combined bit by bit. It starts at
 * the identity, which is also what MySQL returns over no rows (18446744073709551615 for AND, 0 for OR
 * and XOR), so units over no rows and a group that saw no unit row both give MySQL's answer.
 */
final class BitAccumulator implements Accumulator {
    private final boolean and;
    private final boolean or;
    private final int column;
    private long bits;

    BitAccumulator(AggregateSlot.Kind kind, int column) {
        this.and = kind == AggregateSlot.Kind.BIT_AND;
        this.or = kind == AggregateSlot.Kind.BIT_OR;
        this.column = column;
        this.bits = and ? -1L : 0L;
    }

    @Override
    public void add(Row row) {
        byte[] v = row.get(column);
        if (v == null) {
            return; // MySQL never sends NULL for these; skipping keeps the identity's meaning
        }
        long value = Long.parseUnsignedLong(new String(v, StandardCharsets.ISO_8859_1));
        bits = and ? bits & value : or ? bits | value : bits ^ value;
    }

    @Override
    public void writeTo(byte[][] out) {
        out[column] = NumberText.ascii(Long.toUnsignedString(bits));
    }
}
