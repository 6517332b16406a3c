package io.shardwise.core.execute;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * One XA branch: the global transaction id Shardwise gave the transaction and the backend the
 * branch runs on. {@code gtrid} is {@code sw.<instance>.<start>.<n>} (see {@link XaCoordinator}),
 * so that recovery can tell its own branches, and its instance's, from anyone else's.
 */
record Xid(String gtrid, String bqual) {
    /** "SW" in ASCII: every Shardwise XID has this format id; XIDs of other formats are never touched. */
    static final int FORMAT_ID = 0x5357;

    Xid {
        if (gtrid.isEmpty() || gtrid.length() > 64 || bqual.getBytes(StandardCharsets.UTF_8).length > 64) {
            throw new IllegalArgumentException("XID parts must be 1 to 64 bytes: " + gtrid + ", " + bqual);
        }
    }

    /** The XID as XA statements take it: hex literals, so no name needs quoting. */
    String sql() {
        HexFormat hex = HexFormat.of();
        return "X'" + hex.formatHex(gtrid.getBytes(StandardCharsets.US_ASCII)) + "',X'"
                + hex.formatHex(bqual.getBytes(StandardCharsets.UTF_8)) + "'," + FORMAT_ID;
    }

    @Override
    public String toString() {
        return gtrid + "/" + bqual;
    }
}
