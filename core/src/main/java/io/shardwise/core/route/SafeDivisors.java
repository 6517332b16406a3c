package io.shardwise.core.route;

import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.sql.analyze.SelectShape;
import java.util.ArrayList;
import java.util.List;

/**
 * A unit's copy of an expression over aggregates whose divisors are wrapped in {@code NULLIF(…, 0)}.
 * The units compute such an expression only for its column definition (the merger replaces the value);
 * over a partial group a divisor may be 0 where the whole group's is not, and MySQL would add a
 * "Division by 0" warning per shard. NULLIF keeps the divisor's type, length and scale, so the
 * column definition stays the one MySQL gives the expression as written.
 */
final class SafeDivisors {
    private SafeDivisors() {}

    /** Pieces copying [start, end) of the statement with each divisor span (inside it) wrapped. */
    static List<Renderer.Piece> pieces(int start, int end, List<SelectShape.Span> divisors) {
        // insertion points: "nullif(" before each divisor, ", 0)" after it; at one offset closings come first
        List<long[]> points = new ArrayList<>(divisors.size() * 2);
        for (SelectShape.Span d : divisors) {
            points.add(new long[] {d.start(), 1});
            points.add(new long[] {d.end(), 0});
        }
        points.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        List<Renderer.Piece> out = new ArrayList<>();
        int at = start;
        for (long[] p : points) {
            int offset = (int) p[0];
            if (offset > at) {
                out.add(new Renderer.Piece.Copy(at, offset));
                at = offset;
            }
            out.add(new Renderer.Piece.Text(p[1] == 1 ? "nullif(" : ", 0)"));
        }
        if (end > at) {
            out.add(new Renderer.Piece.Copy(at, end));
        }
        return out;
    }
}
