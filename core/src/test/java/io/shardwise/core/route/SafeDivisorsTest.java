package io.shardwise.core.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.sql.analyze.SelectShape.Span;
import java.util.List;
import org.junit.jupiter.api.Test;

class SafeDivisorsTest {
    /** The pieces applied to {@code text} (offsets are the text's own). */
    private static String render(String text, List<Span> divisors) {
        StringBuilder out = new StringBuilder();
        for (Renderer.Piece p : SafeDivisors.pieces(0, text.length(), divisors)) {
            switch (p) {
                case Renderer.Piece.Text t -> out.append(t.text());
                case Renderer.Piece.Copy c -> out.append(text, c.start(), c.end());
            }
        }
        return out.toString();
    }

    @Test
    void eachDivisorIsWrappedInPlace() {
        assertEquals("sum(a) / nullif(count(*), 0)", render("sum(a) / count(*)", List.of(new Span(9, 17))));
    }

    @Test
    void nestedDivisorsCloseInnermostFirstAtTheSameOffset() {
        // sum(a) / (count(*) / max(b)): the outer divisor and the inner one end together
        String text = "sum(a) / (count(*) / max(b))";
        assertEquals("sum(a) / (nullif(count(*) / nullif(max(b), 0), 0))",
                render(text, List.of(new Span(10, 27), new Span(21, 27))));
    }

    @Test
    void aDivisorAtTheEndAndOneInTheMiddle() {
        String text = "sum(a) / count(a) / count(b)";
        assertEquals("sum(a) / nullif(count(a), 0) / nullif(count(b), 0)", render(text, List.of(new Span(9, 17), new Span(20, 28))));
    }
}
