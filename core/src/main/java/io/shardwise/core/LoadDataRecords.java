package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a LOAD DATA file into the rows MySQL reads from it, as its {@code READ_INFO} does
 * ({@code read_field}, {@code next_line}, {@code find_start_of_fields} of sql_load.cc), so that the
 * raw bytes of each row, sent to a backend with the same FIELDS / LINES clauses, read there as the
 * same row: a row is what lies from the end of the previous one (junk before a STARTING BY prefix
 * included) through its line terminator. A row's end depends on how many fields it has to fill
 * (text after the last one is skipped to the terminator, enclosures ignored), so the field count
 * is an input. Only the sharding key's field is decoded (escapes, enclosures, {@code \N}).
 *
 * <p>Memory: one row at a time, in a buffer that grows only to the longest row; reads the stream
 * in chunks. Not thread-safe.
 */
final class LoadDataRecords {
    private static final int EOF = -1;
    private final InputStream in;
    private final byte[] fieldTerm;
    private final byte[] lineTerm;
    private final byte[] lineStart;
    private final int enclosedChar;
    private final int escapeChar;
    private final int fieldCount;
    private final int keyField;
    private byte[] buf = new byte[64 * 1024];
    private int pos;
    private int limit;
    private boolean endOfInput;
    /** Where the current row began in {@link #buf}. */
    private int mark;
    private int rowEnd;
    /** Where the row's fields begin: after its STARTING BY prefix. */
    private int fieldsStart;
    private boolean foundEndOfLine;
    private boolean eof;
    private boolean startOfLine;
    // the field just read
    private boolean enclosed;
    private boolean foundNull;
    private final ByteArrayOutputStream key = new ByteArrayOutputStream();
    private boolean keyRead;
    private boolean keyNull;

    /** @param keyField the field whose value {@link #key} returns, or -1 */
    LoadDataRecords(InputStream in, LoadDataStatement load, int fieldCount, int keyField) {
        this.in = in;
        this.fieldTerm = load.fieldTerm();
        this.lineTerm = load.lineTerm();
        this.lineStart = load.lineStart();
        this.enclosedChar = load.enclosed();
        this.escapeChar = load.escape();
        this.fieldCount = fieldCount;
        this.keyField = keyField;
        this.startOfLine = lineStart.length > 0;
    }

    /** IGNORE n LINES: skips lines as MySQL does before reading rows (escapes honoured, enclosures not, no prefix search). */
    void skipLines(long n) {
        for (long k = 0; k < n; k++) {
            mark = pos;
            compactLater();
            if (nextLine()) {
                return;
            }
        }
    }

    /** Reads the next row; false at the end of the file. */
    boolean next() {
        mark = pos;
        fieldsStart = pos;
        compactLater();
        keyRead = false;
        keyNull = false;
        int read = 0;
        for (int f = 0; f < fieldCount; f++) {
            if (readField(f == keyField)) {
                break;
            }
            read++;
        }
        if (read == 0) {
            return false; // read_field found nothing before the end of the file
        }
        nextLine();
        rowEnd = Math.min(pos, limit);
        return true;
    }

    byte[] buffer() {
        return buf;
    }

    int rowStart() {
        return mark;
    }

    int fieldsStart() {
        return fieldsStart;
    }

    int rowEnd() {
        return rowEnd;
    }

    /** The row ended with the file rather than a line terminator. */
    boolean atEnd() {
        return eof;
    }

    /** The key field's value as MySQL reads it: null for NULL ({@code \N}, unenclosed {@code NULL}); null too when the row has no such field. */
    byte[] key() {
        return keyRead && !keyNull ? key.toByteArray() : null;
    }

    /** Whether the row had a key field (a short row may not). */
    boolean hasKey() {
        return keyRead;
    }

    private int get() {
        if (pos < limit || !endOfInput && fill()) {
            return buf[pos++] & 0xFF;
        }
        pos++; // a virtual position past the end, so that unget() after EOF is uniform
        return EOF;
    }

    private void unget() {
        pos--;
    }

    private boolean compact;

    private void compactLater() {
        compact = true;
    }

    /** More input after {@link #limit}; keeps the current row (from {@link #mark}) in the buffer. */
    private boolean fill() {
        if (compact && mark > 0) {
            System.arraycopy(buf, mark, buf, 0, limit - mark);
            pos -= mark;
            limit -= mark;
            mark = 0;
            compact = false;
        }
        if (limit == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        try {
            int n = in.read(buf, limit, buf.length - limit);
            if (n <= 0) {
                endOfInput = true;
                return false;
            }
            limit += n;
            return true;
        } catch (IOException e) {
            throw new ShardwiseException(e, ErrorCode.BACKEND_ERROR, "Error reading the LOAD DATA LOCAL file: " + e.getMessage());
        }
    }

    /** The rest of a multi-byte terminator whose first byte was just read; put back unless it matches. */
    private boolean terminator(byte[] term) {
        for (int k = 1; k < term.length; k++) {
            if (get() != (term[k] & 0xFF)) {
                pos -= k;
                return false;
            }
        }
        return true;
    }

    /** read_field: true when there is no field (end of line or file); the key's bytes kept when {@code keep}. */
    private boolean readField(boolean keep) {
        if (foundEndOfLine) {
            return true;
        }
        if (startOfLine) {
            startOfLine = false;
            if (findStartOfFields()) {
                return true;
            }
            fieldsStart = pos;
        }
        int chr = get();
        if (chr == EOF) {
            foundEndOfLine = eof = true;
            return true;
        }
        foundNull = false;
        if (keep) {
            key.reset();
            keyRead = true;
        }
        int found; // the enclosing char of this field, or -2 for none
        if (chr == enclosedChar) {
            found = enclosedChar;
        } else {
            found = -2;
            unget();
        }
        int lineTermChar = lineTerm[0] & 0xFF;
        int fieldTermChar = fieldTerm.length > 0 ? fieldTerm[0] & 0xFF : -3;
        while (true) {
            chr = get();
            if (chr == EOF) {
                return unterminated(found, keep);
            }
            if (chr == escapeChar) {
                chr = get();
                if (chr == EOF) {
                    append(keep, escapeChar);
                    return unterminated(found, keep);
                }
                if (escapeChar != enclosedChar || chr == escapeChar) {
                    append(keep, unescape(chr));
                    continue;
                }
                unget();
                chr = escapeChar;
            }
            if (chr == lineTermChar && found == -2 && terminator(lineTerm)) {
                return endField(false, true, keep) ;
            }
            if (chr == found) {
                chr = get();
                if (chr == found) {
                    append(keep, chr); // a doubled enclosing char
                    continue;
                }
                if (chr == EOF || chr == lineTermChar && terminator(lineTerm)) {
                    return endField(true, true, keep);
                }
                if (chr == fieldTermChar && terminator(fieldTerm)) {
                    return endField(true, false, keep);
                }
                unget();
                chr = found;
            } else if (chr == fieldTermChar && found == -2 && terminator(fieldTerm)) {
                return endField(false, false, keep);
            }
            append(keep, chr);
        }
    }

    /** The file ended inside the field: MySQL's value then keeps an opening enclosing char. */
    private boolean unterminated(int found, boolean keep) {
        if (keep && found >= 0) {
            byte[] v = key.toByteArray();
            key.reset();
            key.write(found);
            key.writeBytes(v);
        }
        return endField(false, true, keep);
    }

    private boolean endField(boolean wasEnclosed, boolean endOfLine, boolean keep) {
        enclosed = wasEnclosed;
        if (endOfLine) {
            foundEndOfLine = true;
            if (pos > limit) {
                eof = true;
            }
        }
        if (keep) {
            byte[] v = key.toByteArray();
            keyNull = !enclosed && enclosedChar >= 0 && v.length == 4 && v[0] == 'N' && v[1] == 'U' && v[2] == 'L' && v[3] == 'L'
                    || v.length == 1 && foundNull;
        }
        return false;
    }

    private void append(boolean keep, int chr) {
        if (keep) {
            key.write(chr);
        }
    }

    private int unescape(int chr) {
        return switch (chr) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case 'b' -> '\b';
            case '0' -> 0;
            case 'Z' -> 26;
            case 'N' -> {
                foundNull = true;
                yield 'N';
            }
            default -> chr;
        };
    }

    /** Skips to the STARTING BY prefix, across lines; true at the end of the file. */
    private boolean findStartOfFields() {
        while (true) {
            int chr;
            do {
                chr = get();
                if (chr == EOF) {
                    foundEndOfLine = eof = true;
                    return true;
                }
            } while (chr != (lineStart[0] & 0xFF));
            if (terminator(lineStart)) {
                return false;
            }
        }
    }

    /** next_line: to the end of the row's line; true at the end of the file. */
    private boolean nextLine() {
        startOfLine = lineStart.length > 0;
        if (foundEndOfLine || eof) {
            foundEndOfLine = false;
            return eof;
        }
        while (true) {
            int chr = get();
            if (chr == EOF) {
                return eof = true;
            }
            if (chr == escapeChar) {
                if (get() == EOF) {
                    return eof = true;
                }
                continue;
            }
            if (chr == (lineTerm[0] & 0xFF) && terminator(lineTerm)) {
                return false;
            }
        }
    }
}
