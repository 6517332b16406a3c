package io.shardwise.core.execute;


/**
 * One column of a result as MySQL describes it in a column-definition packet, so both faces can
 * report exactly what a direct connection would: the JDBC driver's ResultSetMetaData and the
 * server's column definitions are built from these fields. Table names are logical (the executor
 * replaces physical names before anyone sees them).
 *
 * @param mysqlType the protocol type code (MYSQL_TYPE_LONG = 3, MYSQL_TYPE_NEWDECIMAL = 246, ...)
 * @param flags column-definition flags (NOT_NULL = 1, PRI_KEY = 2, UNSIGNED = 32, BINARY = 128 ...)
 * @param collation the collation id (63 = binary)
 * @param length the length as Connector/J reports it (what the JDBC face answers, and what the server face turns
 *        back into MySQL's wire length)
 * @param wireLength the wire's very length when Shardwise describes the value itself, as MariaDB sends it (the server
 *        face sends it, and this column's flags and decimals, unchanged); 0: derived from {@code length}
 */
public record Column(String schema, String table, String orgTable, String name, String orgName,
                     int collation, long length, int mysqlType, int flags, int decimals, long wireLength) {
    public static final int FLAG_NOT_NULL = 1;
    public static final int FLAG_UNSIGNED = 32;
    public static final int FLAG_BINARY = 128;
    public static final int BINARY_COLLATION = 63;

    public Column {
        // Connector/J reports an empty label (SELECT '') as null; MySQL sends it as an empty string
        name = name == null ? "" : name;
        schema = schema == null ? "" : schema;
        table = table == null ? "" : table;
        orgTable = orgTable == null ? "" : orgTable;
        orgName = orgName == null ? "" : orgName;
    }

    public Column(String schema, String table, String orgTable, String name, String orgName,
                  int collation, long length, int mysqlType, int flags, int decimals) {
        this(schema, table, orgTable, name, orgName, collation, length, mysqlType, flags, decimals, 0);
    }

    public boolean isUnsigned() {
        return (flags & FLAG_UNSIGNED) != 0;
    }

    public boolean isNotNull() {
        return (flags & FLAG_NOT_NULL) != 0;
    }

    /** Whether values compare by their bytes (binary strings, numbers stored as text do not). */
    public boolean hasBinaryCollation() {
        return collation == BINARY_COLLATION;
    }

    public Column withTable(String newTable, String newOrgTable) {
        return new Column(schema, newTable, newOrgTable, name, orgName, collation, length, mysqlType, flags, decimals, wireLength);
    }
}
