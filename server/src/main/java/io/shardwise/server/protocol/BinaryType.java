package io.shardwise.server.protocol;

/** The MySQL protocol type codes the binary protocol encodes differently (MYSQL_TYPE_*). */
public final class BinaryType {
    public static final int DECIMAL = 0;
    public static final int TINY = 1;
    public static final int SHORT = 2;
    public static final int LONG = 3;
    public static final int FLOAT = 4;
    public static final int DOUBLE = 5;
    public static final int NULL = 6;
    public static final int TIMESTAMP = 7;
    public static final int LONGLONG = 8;
    public static final int INT24 = 9;
    public static final int DATE = 10;
    public static final int TIME = 11;
    public static final int DATETIME = 12;
    public static final int YEAR = 13;
    public static final int VARCHAR = 15;
    public static final int NEWDECIMAL = 246;
    public static final int TINY_BLOB = 249;
    public static final int MEDIUM_BLOB = 250;
    public static final int LONG_BLOB = 251;
    public static final int BLOB = 252;
    public static final int VAR_STRING = 253;
    public static final int STRING = 254;
    public static final int GEOMETRY = 255;
    /** The flag byte that follows a parameter's type in COM_STMT_EXECUTE; bit 0x80 marks it unsigned. */
    public static final int UNSIGNED_PARAMETER = 0x80;

    /** The types whose values are bytes, never text in the client's character set. */
    public static boolean isBlob(int type) {
        return type == TINY_BLOB || type == MEDIUM_BLOB || type == LONG_BLOB || type == BLOB || type == GEOMETRY;
    }

    private BinaryType() {}
}
