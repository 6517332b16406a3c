package io.shardwise.server.protocol;

/** A client packet that does not follow the protocol; the connection answers ERR and closes. */
public final class MalformedPacketException extends RuntimeException {
    public MalformedPacketException(String message) {
        super(message);
    }
}
