package io.shardwise.core.sql.analyze;

import java.util.ArrayList;
import java.util.List;

/**
 * The normalized text with some spans replaced so that Calcite's parser accepts MySQL syntax it
 * lacks ({@code <=>}, {@code DIV}, {@code FOR UPDATE}, variables, index hints ...). Replacements are
 * for parsing only: what runs on backends is rendered from the unmasked text. Maps offsets in the
 * masked text back to the original.
 */
final class MaskedText {
    private record Edit(int start, int end, String replacement) {}

    private final String original;
    private final List<Edit> edits = new ArrayList<>();

    MaskedText(String original) {
        this.original = original;
    }

    /** Replaces [start, end) of the original; edits must not overlap and are added in any order. */
    void replace(int start, int end, String replacement) {
        for (Edit e : edits) {
            if (start < e.end() && e.start() < end) {
                return; // an earlier rule already rewrote part of this span
            }
        }
        edits.add(new Edit(start, end, replacement));
    }

    void remove(int start, int end) {
        replace(start, end, " ".repeat(Math.max(0, Math.min(1, end - start))));
    }

    String text() {
        sorted();
        StringBuilder sb = new StringBuilder(original.length());
        int at = 0;
        for (Edit e : edits) {
            sb.append(original, at, e.start()).append(e.replacement());
            at = e.end();
        }
        return sb.append(original, at, original.length()).toString();
    }

    /** The original offset of masked offset {@code masked} (inside a replacement: its start). */
    int toOriginal(int masked) {
        sorted();
        int shift = 0;
        for (Edit e : edits) {
            int maskedStart = e.start() + shift;
            if (masked < maskedStart) {
                break;
            }
            int maskedEnd = maskedStart + e.replacement().length();
            if (masked < maskedEnd) {
                return e.start();
            }
            shift += e.replacement().length() - (e.end() - e.start());
        }
        return masked - shift;
    }

    /** The original end offset of a span ending (exclusive) at masked offset {@code maskedEnd}. */
    int toOriginalEnd(int maskedEnd) {
        return maskedEnd == 0 ? 0 : toOriginal(maskedEnd - 1) + 1;
    }

    private void sorted() {
        // an insertion (an empty span) sorts before an edit starting where it stands: its text goes first
        edits.sort((a, b) -> a.start() != b.start() ? Integer.compare(a.start(), b.start()) : Integer.compare(a.end(), b.end()));
    }
}
