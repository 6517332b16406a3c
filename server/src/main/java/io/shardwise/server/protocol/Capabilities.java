package io.shardwise.server.protocol;

/**
 * A capability bitmap: the 32 bits of the handshake, and MariaDB's extended capabilities
 * ({@code extended}, bits 32 to 63 of MariaDB's 64-bit flags, shifted down), which travel in the
 * greeting's and the handshake response's reserved bytes when the side sending them leaves
 * {@link #CLIENT_MYSQL} unset. Immutable; read it through the intent-named predicates, not the bits.
 */
public record Capabilities(int bits, int extended) {
    public static final int LONG_PASSWORD = 1;
    /**
     * MariaDB's reading of bit 0 (MySQL's obsolete CLIENT_LONG_PASSWORD): set, the peer is MySQL;
     * unset, it is MariaDB and its reserved bytes carry {@link #extended} capabilities.
     */
    public static final int CLIENT_MYSQL = LONG_PASSWORD;
    public static final int FOUND_ROWS = 1 << 1;
    public static final int LONG_FLAG = 1 << 2;
    public static final int CONNECT_WITH_DB = 1 << 3;
    /** CLIENT_LOCAL_FILES: the client answers a LOAD DATA LOCAL request with the file. */
    public static final int LOCAL_FILES = 1 << 7;
    public static final int PROTOCOL_41 = 1 << 9;
    public static final int INTERACTIVE = 1 << 10;
    public static final int SSL = 1 << 11;
    public static final int TRANSACTIONS = 1 << 13;
    public static final int SECURE_CONNECTION = 1 << 15;
    public static final int MULTI_STATEMENTS = 1 << 16;
    public static final int MULTI_RESULTS = 1 << 17;
    public static final int PS_MULTI_RESULTS = 1 << 18;
    public static final int PLUGIN_AUTH = 1 << 19;
    public static final int CONNECT_ATTRS = 1 << 20;
    public static final int PLUGIN_AUTH_LENENC_CLIENT_DATA = 1 << 21;
    public static final int DEPRECATE_EOF = 1 << 24;
    /**
     * MARIADB_CLIENT_CACHE_METADATA (1 << 36, an extended bit): every column count packet carries a
     * "metadata follows" byte, and an execute of a prepared statement omits the column definitions
     * (byte 0) when the client holds them from the statement's prepare or an earlier execute.
     */
    public static final int MARIADB_CACHE_METADATA = 1 << (36 - 32);

    /** What this server offers in its handshake (SSL too: there is always a certificate, a generated one if none is configured). */
    public static final Capabilities SERVER = new Capabilities(LONG_PASSWORD | FOUND_ROWS | LONG_FLAG | CONNECT_WITH_DB | LOCAL_FILES
            | PROTOCOL_41 | SSL | TRANSACTIONS | SECURE_CONNECTION | MULTI_STATEMENTS | MULTI_RESULTS | PS_MULTI_RESULTS | PLUGIN_AUTH | CONNECT_ATTRS
            | PLUGIN_AUTH_LENENC_CLIENT_DATA | DEPRECATE_EOF);

    /**
     * What this server offers when its default backend is MariaDB: MariaDB's greeting (no
     * {@link #CLIENT_MYSQL}) with the one extended capability it honours, the metadata cache. Not
     * offered: MARIADB_CLIENT_PROGRESS, STMT_BULK_OPERATIONS (no COM_STMT_BULK_EXECUTE here) and
     * EXTENDED_METADATA (column definitions would carry type names), which MariaDB itself offers.
     */
    public static final Capabilities MARIADB_SERVER = new Capabilities(SERVER.bits & ~CLIENT_MYSQL, MARIADB_CACHE_METADATA);

    /** Without MariaDB's extended capabilities. */
    public Capabilities(int bits) {
        this(bits, 0);
    }
    /** The capabilities both sides have: what the connection uses from now on. */
    public Capabilities commonWith(Capabilities other) {
        return new Capabilities(bits & other.bits, extended & other.extended);
    }

    private boolean has(int bit) {
        return (bits & bit) != 0;
    }

    public boolean speaksProtocol41() {
        return has(PROTOCOL_41);
    }

    /** Result sets end with an OK packet (header 0xFE), and no EOF follows the column definitions. */
    public boolean endsResultsWithOk() {
        return has(DEPRECATE_EOF);
    }

    /** The handshake response names an initial schema. */
    public boolean namesSchemaAtConnect() {
        return has(CONNECT_WITH_DB);
    }

    /** The handshake response names the client's authentication plugin. */
    public boolean namesAuthPlugin() {
        return has(PLUGIN_AUTH);
    }

    /** The auth response is length-encoded (else one length byte with SECURE_CONNECTION, else NUL-terminated). */
    public boolean sendsLenencAuthResponse() {
        return has(PLUGIN_AUTH_LENENC_CLIENT_DATA);
    }

    public boolean sendsLengthPrefixedAuthResponse() {
        return has(SECURE_CONNECTION);
    }

    public boolean sendsConnectAttributes() {
        return has(CONNECT_ATTRS);
    }

    /** The client runs several {@code ;}-separated statements per COM_QUERY from the start (COM_SET_OPTION may change it later). */
    public boolean sendsMultiStatements() {
        return has(MULTI_STATEMENTS);
    }

    /** Updates report matched rows, not changed rows. */
    /** CLIENT_LOCAL_FILES: the client sends a file when LOAD DATA LOCAL asks for it (its --local-infile, allowLoadLocalInfile ...). */
    public boolean sendsLocalFiles() {
        return has(LOCAL_FILES);
    }

    /** CLIENT_INTERACTIVE: the session's wait_timeout starts as interactive_timeout. */
    public boolean interactive() {
        return (bits() & INTERACTIVE) != 0;
    }

    public boolean countsFoundRows() {
        return has(FOUND_ROWS);
    }

    public boolean asksForTls() {
        return has(SSL);
    }

    /** The peer speaks MariaDB's handshake: no {@link #CLIENT_MYSQL}, extended capabilities in the reserved bytes. */
    public boolean mariaDbExtended() {
        return !has(CLIENT_MYSQL);
    }

    /** MARIADB_CLIENT_CACHE_METADATA was negotiated: column counts carry a "metadata follows" byte. */
    public boolean cachesMetadata() {
        return (extended & MARIADB_CACHE_METADATA) != 0;
    }

    @Override
    public String toString() {
        return "Capabilities[0x" + Integer.toHexString(bits) + (extended != 0 ? ", extended 0x" + Integer.toHexString(extended) : "") + "]";
    }
}
