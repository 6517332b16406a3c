package io.shardwise.core.session;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sql.normalize.ClientCharset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The collation a session's results are described in ({@code character_set_results} as the session last set it: the
 * handshake's collation, the one {@code SET NAMES … COLLATE} named, else the character set's default), for the values
 * Shardwise answers itself. MySQL and MariaDB describe every text column of a result in it, whatever the value's own
 * character set: {@code SELECT @@version} after {@code SET NAMES latin1} is {@code latin1_swedish_ci} (8), 14 bytes
 * long; after {@code SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci} it is 224, 56 bytes long. A binary column keeps
 * its own description, and so does every column while {@code character_set_results} is NULL (no conversion).
 *
 * @param collation the collation id text columns carry
 * @param maxBytes  the longest character of its character set in bytes (lengths are characters times this)
 */
public record ResultsCharset(int collation, int maxBytes) {
    /** Before any SET NAMES or handshake collation: the server's own, utf8mb4_general_ci. */
    public static final ResultsCharset DEFAULT = new ResultsCharset(45, 4);

    /** {@code character_set_results = NULL}: each column as its value is. */
    static final ResultsCharset UNCONVERTED = new ResultsCharset(-1, 0);

    /** {@code columns} as this session's results describe them. */
    public List<Column> describe(List<Column> columns) {
        if (this == UNCONVERTED || collation < 0) {
            return columns;
        }
        List<Column> out = null;
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            Column d = describe(c);
            if (d != c && out == null) {
                out = new ArrayList<>(columns.subList(0, i));
            }
            if (out != null) {
                out.add(d);
            }
        }
        return out == null ? columns : out;
    }

    private Column describe(Column c) {
        int own = ownMaxBytes(c.collation());
        if (own == 0 || (c.collation() == collation && own == maxBytes)) {
            return c; // binary, or a collation whose character set is not known here: as it is
        }
        long length = c.length() / own * maxBytes;
        return new Column(c.schema(), c.table(), c.orgTable(), c.name(), c.orgName(), collation, length, c.mysqlType(), c.flags(),
                c.decimals());
    }

    /** {@code cursor} with its columns as this session's results describe them (its rows as they are). */
    public ResultCursor follow(ResultCursor cursor) {
        List<Column> columns = describe(cursor.columns());
        if (columns == cursor.columns()) {
            return cursor;
        }
        return new ResultCursor() {
            @Override
            public List<Column> columns() {
                return columns;
            }

            @Override
            public boolean next() {
                return cursor.next();
            }

            @Override
            public byte[] get(int index) {
                return cursor.get(index);
            }

            @Override
            public void close() {
                cursor.close();
            }
        };
    }

    /** The bytes per character of the character set of a collation id Shardwise describes values in; 0 for binary or unknown. */
    private static int ownMaxBytes(int collation) {
        ClientCharset charset = ClientCharset.forCollation(collation);
        if (charset == null) {
            return 0;
        }
        return switch (charset) {
            case UTF8MB4 -> 4;
            case UTF8MB3 -> 3;
            case LATIN1 -> 1;
            case BINARY -> 0;
        };
    }

    /** The longest character of a MySQL character set, in bytes (4 for one not listed). */
    static int maxBytes(String charset) {
        return switch (charset.toLowerCase(Locale.ROOT)) {
            case "dec8", "cp850", "hp8", "koi8r", "latin1", "latin2", "swe7", "ascii", "hebrew", "tis620", "koi8u", "greek",
                 "cp1250", "latin5", "armscii8", "cp866", "keybcs2", "macce", "macroman", "cp852", "latin7", "cp1251", "cp1256",
                 "cp1257", "binary", "geostd8" -> 1;
            case "big5", "sjis", "euckr", "gb2312", "gbk", "ucs2", "cp932" -> 2;
            case "ujis", "utf8mb3", "utf8", "eucjpms" -> 3;
            default -> 4; // utf8mb4, utf16, utf16le, utf32, gb18030
        };
    }
}
