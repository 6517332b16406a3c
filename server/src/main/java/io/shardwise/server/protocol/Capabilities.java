package io.shardwise.server.protocol;

/**
 * A capability bitmap (the 32 bits of the handshake; MariaDB's extended bits are not offered).
 * Immutable; read it through the intent-named predicates, not the bits.
 */
public record Capabilities(int bits) {
    public static final int LONG_PASSWORD = 1;
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

    /** What this server offers in its handshake (SSL too: there is always a certificate, a generated one if none is configured). */
    public static final Capabilities SERVER = new Capabilities(LONG_PASSWORD | FOUND_ROWS | LONG_FLAG | CONNECT_WITH_DB | LOCAL_FILES
            | PROTOCOL_41 | SSL | TRANSACTIONS | SECURE_CONNECTION | MULTI_STATEMENTS | MULTI_RESULTS | PS_MULTI_RESULTS | PLUGIN_AUTH | CONNECT_ATTRS
            | PLUGIN_AUTH_LENENC_CLIENT_DATA | DEPRECATE_EOF);

    /** The capabilities both sides have: what the connection uses from now on. */
    public Capabilities commonWith(Capabilities other) {
        return new Capabilities(bits & other.bits);
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

    @Override
    public String toString() {
        return "Capabilities[0x" + Integer.toHexString(bits) + "]";
    }
}
