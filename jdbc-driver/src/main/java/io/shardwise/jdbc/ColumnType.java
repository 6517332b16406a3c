package io.shardwise.jdbc;

import io.shardwise.core.execute.Column;
import java.sql.Types;

/**
 * A result column's type as Connector/J names and maps it (its {@code MysqlType}, chosen from the
 * protocol type code, flags, length and collation as {@code NativeProtocol.findMysqlType} does with
 * default properties: {@code tinyInt1isBit=true}, {@code transformedBitIsBoolean=false},
 * {@code yearIsDateType=true}). It fixes the JDBC type, the type name, the class
 * {@code getObject} returns, and how the text value decodes ({@link Family}).
 */
enum ColumnType {
    DECIMAL("DECIMAL", Types.DECIMAL, "java.math.BigDecimal", Family.DECIMAL),
    DECIMAL_UNSIGNED("DECIMAL UNSIGNED", Types.DECIMAL, "java.math.BigDecimal", Family.DECIMAL),
    TINYINT("TINYINT", Types.TINYINT, "java.lang.Integer", Family.INTEGER),
    TINYINT_UNSIGNED("TINYINT UNSIGNED", Types.TINYINT, "java.lang.Integer", Family.INTEGER),
    /** TINYINT(1): Connector/J's pseudo-boolean. */
    BIT_FROM_TINYINT("BIT", Types.BIT, "java.lang.Boolean", Family.BOOLEAN),
    BIT("BIT", Types.BIT, "java.lang.Boolean", Family.BIT),
    SMALLINT("SMALLINT", Types.SMALLINT, "java.lang.Integer", Family.INTEGER),
    SMALLINT_UNSIGNED("SMALLINT UNSIGNED", Types.SMALLINT, "java.lang.Integer", Family.INTEGER),
    MEDIUMINT("MEDIUMINT", Types.INTEGER, "java.lang.Integer", Family.INTEGER),
    MEDIUMINT_UNSIGNED("MEDIUMINT UNSIGNED", Types.INTEGER, "java.lang.Integer", Family.INTEGER),
    INT("INT", Types.INTEGER, "java.lang.Integer", Family.INTEGER),
    INT_UNSIGNED("INT UNSIGNED", Types.INTEGER, "java.lang.Long", Family.LONG),
    BIGINT("BIGINT", Types.BIGINT, "java.lang.Long", Family.LONG),
    BIGINT_UNSIGNED("BIGINT UNSIGNED", Types.BIGINT, "java.math.BigInteger", Family.BIG_INTEGER),
    FLOAT("FLOAT", Types.REAL, "java.lang.Float", Family.FLOAT),
    FLOAT_UNSIGNED("FLOAT UNSIGNED", Types.REAL, "java.lang.Float", Family.FLOAT),
    DOUBLE("DOUBLE", Types.DOUBLE, "java.lang.Double", Family.DOUBLE),
    DOUBLE_UNSIGNED("DOUBLE UNSIGNED", Types.DOUBLE, "java.lang.Double", Family.DOUBLE),
    NULL("NULL", Types.NULL, "java.lang.Object", Family.TEXT),
    TIMESTAMP("TIMESTAMP", Types.TIMESTAMP, "java.sql.Timestamp", Family.TIMESTAMP),
    DATETIME("DATETIME", Types.TIMESTAMP, "java.time.LocalDateTime", Family.DATETIME),
    DATE("DATE", Types.DATE, "java.sql.Date", Family.DATE),
    TIME("TIME", Types.TIME, "java.sql.Time", Family.TIME),
    YEAR("YEAR", Types.DATE, "java.sql.Date", Family.YEAR),
    VARCHAR("VARCHAR", Types.VARCHAR, "java.lang.String", Family.TEXT),
    VARBINARY("VARBINARY", Types.VARBINARY, "[B", Family.BYTES),
    CHAR("CHAR", Types.CHAR, "java.lang.String", Family.TEXT),
    BINARY("BINARY", Types.BINARY, "[B", Family.BYTES),
    ENUM("CHAR", Types.CHAR, "java.lang.String", Family.TEXT),
    SET("CHAR", Types.CHAR, "java.lang.String", Family.TEXT),
    JSON("JSON", Types.LONGVARCHAR, "java.lang.String", Family.TEXT),
    TINYTEXT("TINYTEXT", Types.VARCHAR, "java.lang.String", Family.TEXT),
    TEXT("TEXT", Types.LONGVARCHAR, "java.lang.String", Family.TEXT),
    MEDIUMTEXT("MEDIUMTEXT", Types.LONGVARCHAR, "java.lang.String", Family.TEXT),
    LONGTEXT("LONGTEXT", Types.LONGVARCHAR, "java.lang.String", Family.TEXT),
    TINYBLOB("TINYBLOB", Types.VARBINARY, "[B", Family.BYTES),
    BLOB("BLOB", Types.LONGVARBINARY, "[B", Family.BYTES),
    MEDIUMBLOB("MEDIUMBLOB", Types.LONGVARBINARY, "[B", Family.BYTES),
    LONGBLOB("LONGBLOB", Types.LONGVARBINARY, "[B", Family.BYTES),
    GEOMETRY("GEOMETRY", Types.BINARY, "[B", Family.BYTES);

    /** How a value of the type is decoded from its text-protocol bytes. */
    enum Family { INTEGER, LONG, BIG_INTEGER, BOOLEAN, BIT, DECIMAL, FLOAT, DOUBLE, DATE, TIME, DATETIME, TIMESTAMP, YEAR, TEXT, BYTES }

    static final int FLAG_ENUM = 256;
    static final int FLAG_SET = 2048;
    static final int FLAG_AUTO_INCREMENT = 512;

    final String typeName;
    final int jdbcType;
    final String className;
    final Family family;

    ColumnType(String typeName, int jdbcType, String className, Family family) {
        this.typeName = typeName;
        this.jdbcType = jdbcType;
        this.className = className;
        this.family = family;
    }

    static ColumnType of(Column c) {
        boolean unsigned = c.isUnsigned();
        boolean binary = (c.flags() & Column.FLAG_BINARY) != 0 && c.collation() == Column.BINARY_COLLATION;
        return switch (c.mysqlType()) {
            case 0, 246 -> unsigned ? DECIMAL_UNSIGNED : DECIMAL;
            case 1 -> !unsigned && c.length() == 1 ? BIT_FROM_TINYINT : unsigned ? TINYINT_UNSIGNED : TINYINT;
            case 2 -> unsigned ? SMALLINT_UNSIGNED : SMALLINT;
            case 3 -> unsigned ? INT_UNSIGNED : INT;
            case 4 -> unsigned ? FLOAT_UNSIGNED : FLOAT;
            case 5 -> unsigned ? DOUBLE_UNSIGNED : DOUBLE;
            case 6 -> NULL;
            case 7 -> TIMESTAMP;
            case 8 -> unsigned ? BIGINT_UNSIGNED : BIGINT;
            case 9 -> unsigned ? MEDIUMINT_UNSIGNED : MEDIUMINT;
            case 10, 14 -> DATE;
            case 11 -> TIME;
            case 12 -> DATETIME;
            case 13 -> YEAR;
            case 15, 253 -> binary ? VARBINARY : VARCHAR;
            case 16 -> BIT;
            case 245 -> JSON;
            case 247 -> ENUM;
            case 248 -> SET;
            case 249 -> binary ? TINYBLOB : TINYTEXT;
            case 250 -> binary ? MEDIUMBLOB : MEDIUMTEXT;
            case 251 -> binary ? LONGBLOB : LONGTEXT;
            case 252 -> blobBySize(c.length(), binary);
            case 254 -> (c.flags() & FLAG_ENUM) != 0 ? ENUM : (c.flags() & FLAG_SET) != 0 ? SET : binary ? BINARY : CHAR;
            case 255 -> GEOMETRY;
            default -> binary ? VARBINARY : VARCHAR;
        };
    }

    /** Servers send every BLOB/TEXT as type 252; the length tells which one it is. */
    private static ColumnType blobBySize(long length, boolean binary) {
        if (length <= 255) {
            return binary ? TINYBLOB : TINYTEXT;
        } else if (length <= 65_535) {
            return binary ? BLOB : TEXT;
        } else if (length <= 16_777_215) {
            return binary ? MEDIUMBLOB : MEDIUMTEXT;
        }
        return binary ? LONGBLOB : LONGTEXT;
    }

    /** Connector/J's {@code isDecimalType}: numeric JDBC types whose scale comes from the column's decimals. */
    boolean isNumeric() {
        return switch (jdbcType) {
            case Types.BIT, Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.FLOAT, Types.REAL, Types.DOUBLE,
                 Types.NUMERIC, Types.DECIMAL -> true;
            default -> false;
        };
    }

    /** Bytes per character of a collation id, for turning byte lengths into character counts. */
    static int maxBytesPerChar(int collation) {
        return switch (collation) {
            case 63, 5, 8, 15, 31, 47, 48, 49, 94, 11, 65, 3, 4, 6, 7, 9, 10, 16, 18, 19, 22, 26, 27, 29, 30, 32, 36, 37, 38,
                 39, 40, 41, 42, 43, 44, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 64, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75,
                 77, 78, 79, 80, 81, 82, 84, 85, 86, 92, 93 -> 1;
            case 33, 83, 76 -> 3;
            case 35, 90 -> 2;
            default -> {
                if (collation >= 192 && collation <= 223) {
                    yield 3;
                }
                if ((collation >= 128 && collation <= 159)) {
                    yield 2;
                }
                yield 4; // utf8mb4, utf16, utf32 and unknown ids
            }
        };
    }

    /** Collations that compare case-sensitively ({@code _bin}, {@code _cs}, binary). */
    static boolean isCaseSensitiveCollation(int collation) {
        return switch (collation) {
            case 63, 46, 83, 47, 65, 84, 77, 278, 309 -> true;
            default -> false;
        };
    }
}
