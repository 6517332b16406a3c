package io.shardwise.core.execute;

import com.mysql.cj.NativeSession;
import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.jdbc.JdbcConnection;
import com.mysql.cj.protocol.SocketFactory;
import com.mysql.cj.protocol.StandardSocketFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Connector/J's socket factory (property {@code socketFactory}, one instance per connection) with sockets made
 * by {@link SocketChannel}, so that an idle pooled connection can be asked, without a round trip, whether the
 * backend closed it ({@link #closedByPeer}): a backend that restarted, or whose {@code wait_timeout} ended the
 * connection, left an end-of-stream (or an unsolicited error packet) on it. HikariCP validates a connection
 * at checkout only after it sat idle half a second, so without this the next statement on it would be the
 * first to learn, with 1105 "the connection was lost" and an outcome nobody could know. This is the check Go's
 * MySQL driver makes before reusing a connection (its {@code connCheck}).
 *
 * <p>Hazard: the check reads from the raw socket, so it must run only while nothing is expected from the
 * backend (a connection just checked out of the pool). Anything it finds there means the connection is done.
 */
public final class PeekableSocketFactory extends StandardSocketFactory {
    private final ByteBuffer peek = ByteBuffer.allocate(1);

    @Override
    protected Socket createSocket(PropertySet props) {
        try {
            return SocketChannel.open().socket(); // blocking, as Connector/J reads it; the channel is only for the peek
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether the backend has closed {@code connection} (end of stream) or sent something unasked, read without
     * blocking; false for a connection of another socket factory. Call only on a connection no statement runs on.
     */
    static boolean closedByPeer(JdbcConnection connection) {
        if (!(connection.getSession() instanceof NativeSession session)) {
            return false;
        }
        SocketFactory factory = session.getProtocol().getSocketConnection().getSocketFactory();
        return factory instanceof PeekableSocketFactory peekable && peekable.closed();
    }

    private boolean closed() {
        SocketChannel channel = rawSocket == null ? null : rawSocket.getChannel();
        if (channel == null) {
            return false;
        }
        try {
            channel.configureBlocking(false);
            try {
                peek.clear();
                return channel.read(peek) != 0;
            } finally {
                channel.configureBlocking(true);
            }
        } catch (IOException e) {
            return true; // a reset connection fails the read: closed all the same
        }
    }
}
