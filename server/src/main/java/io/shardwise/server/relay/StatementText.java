package io.shardwise.server.relay;

import io.netty.buffer.ByteBuf;
import io.shardwise.core.sql.normalize.ClientCharset;

/**
 * A statement's text as the bytes a backend on utf8mb4 receives, written straight into the
 * outgoing buffer: exactly {@link ClientCharset#utf8}'s bytes (escaped bytes as themselves, a
 * surrogate pair as one 4-byte sequence, a lone surrogate as {@code ?}), without the two arrays
 * that building them as a {@code byte[]} first costs per relayed statement.
 */
final class StatementText {
    private StatementText() {}

    /** How many bytes {@link #write} writes. */
    static int length(CharSequence text) {
        int n = 0;
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < 0x80 || ClientCharset.isEscapedByte(c)) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                n += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                n++; // written as '?'
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** Appends the text's bytes to {@code out}. */
    static void write(ByteBuf out, CharSequence text) {
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                out.writeByte(c);
            } else if (ClientCharset.isEscapedByte(c)) { // a pair's low surrogate never gets here: its high one consumed it
                out.writeByte(c & 0xFF);
            } else if (c < 0x800) {
                out.writeByte(0xC0 | c >> 6).writeByte(0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, text.charAt(++i));
                out.writeByte(0xF0 | cp >> 18).writeByte(0x80 | cp >> 12 & 0x3F).writeByte(0x80 | cp >> 6 & 0x3F)
                        .writeByte(0x80 | cp & 0x3F);
            } else if (Character.isSurrogate(c)) {
                out.writeByte('?');
            } else {
                out.writeByte(0xE0 | c >> 12).writeByte(0x80 | c >> 6 & 0x3F).writeByte(0x80 | c & 0x3F);
            }
        }
    }
}
