package io.shardwise.core;

import java.io.InputStream;

/**
 * The client's side of {@code LOAD DATA LOCAL INFILE}: a face that can ask its client for a file
 * (the server face: the protocol's local-infile request, for a client that announced
 * CLIENT_LOCAL_FILES) gives its session one of these.
 *
 * <p>Hazard: once {@link #open} returned, the client is sending the file; the caller must close the
 * stream whatever happens, and closing reads what is left of the file (the protocol only lets the
 * server answer after the file's end).
 */
@FunctionalInterface
public interface LocalFiles {
    /** Asks the client for {@code name}; the stream ends where the client's file ends. */
    InputStream open(String name);
}
