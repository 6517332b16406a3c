package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;

/** Column definitions as MySQL sends them for the types the merger tests use. */
final class Columns {
    private static final int UTF8MB4_GENERAL_CI = 45;

    private Columns() {}

    static Column of(String name, int type, int flags, int decimals) {
        boolean binary = type != 15 && type != 253 && type != 254 && !(type >= 249 && type <= 252);
        return new Column("db", "t", "t", name, name, binary ? Column.BINARY_COLLATION : UTF8MB4_GENERAL_CI, 20, type,
                flags | (binary ? Column.FLAG_BINARY : 0), decimals);
    }

    static Column bigint(String name) {
        return of(name, 8, 0, 0);
    }

    static Column unsignedBigint(String name) {
        return of(name, 8, Column.FLAG_UNSIGNED, 0);
    }

    static Column integer(String name) {
        return of(name, 3, 0, 0);
    }

    static Column decimal(String name, int scale) {
        return of(name, 246, 0, scale);
    }

    static Column dbl(String name) {
        return of(name, 5, 0, 31);
    }

    static Column time(String name) {
        return of(name, 11, 0, 0);
    }

    static Column datetime(String name) {
        return of(name, 12, 0, 0);
    }

    static Column varchar(String name) {
        return of(name, 253, 0, 0);
    }

    /** The VARBINARY column WEIGHT_STRING(x) comes back as. */
    static Column weight(String name) {
        return new Column("", "", "", name, "", Column.BINARY_COLLATION, 64, 253, Column.FLAG_BINARY, 0);
    }
}
