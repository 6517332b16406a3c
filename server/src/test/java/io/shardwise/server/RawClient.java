package io.shardwise.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.AuthSwitchRequest;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.HandshakeResponse;
import io.shardwise.server.protocol.HandshakeV10;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Map;
import java.util.function.Function;

/**
 * A minimal blocking MySQL client over a plain socket, for what real drivers never send (unknown
 * commands, a proposed caching_sha2_password, a disconnect in the middle of a result).
 */
final class RawClient implements AutoCloseable {
    record Reply(int sequenceId, byte[] payload) {
        int header() {
            return payload.length == 0 ? -1 : payload[0] & 0xFF;
        }

        <T> T as(Function<ByteBuf, T> decoder) {
            return decoder.apply(Unpooled.wrappedBuffer(payload));
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    private RawClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /**
     * Connects over TLS (greeting, SSL request, handshake over {@code tls}'s client engine, which
     * offers any session it cached for this server) and logs in with mysql_native_password.
     * Returns the client, its TLS session and the login's reply.
     */
    static RawClient connectTls(int port, String user, String password, String database, javax.net.ssl.SSLContext tls)
            throws IOException {
        Socket plain = new Socket("127.0.0.1", port);
        plain.setSoTimeout(30_000);
        RawClient clear = new RawClient(plain);
        HandshakeV10 hello = clear.read().as(HandshakeV10::decode);
        ByteBuf request = new io.shardwise.server.protocol.SslRequest(Capabilities.SERVER, 1 << 24, 45).encode(ByteBufAllocator.DEFAULT);
        try {
            clear.send(1, ByteBufUtil.getBytes(request));
        } finally {
            request.release();
        }
        javax.net.ssl.SSLSocket secure = (javax.net.ssl.SSLSocket) tls.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        secure.startHandshake();
        RawClient c = new RawClient(secure);
        HandshakeResponse response = new HandshakeResponse(new Capabilities(Capabilities.SERVER.bits() | Capabilities.SSL), 1 << 24, 45,
                user, NativePassword.scramble(hello.authSeed(), password), database, NativePassword.PLUGIN, Map.of());
        ByteBuf buf = response.encode(ByteBufAllocator.DEFAULT);
        try {
            c.send(2, ByteBufUtil.getBytes(buf));
        } finally {
            buf.release();
        }
        c.loginReply = c.read(); // reading past the handshake also takes in a TLS 1.3 server's session tickets
        return c;
    }

    javax.net.ssl.SSLSession tlsSession() {
        return ((javax.net.ssl.SSLSocket) socket).getSession();
    }

    /** Connects and authenticates with {@code plugin} proposed; returns the client and the final reply (OK or ERR). */
    static RawClient connect(int port, String user, String password, String database, String plugin) throws IOException {
        return connect(port, user, password, database, plugin, Capabilities.SERVER);
    }

    static RawClient connect(int port, String user, String password, String database, String plugin, Capabilities capabilities)
            throws IOException {
        return connect(port, user, password, database, plugin, capabilities, 45);
    }

    /** As {@link #connect}, the handshake naming {@code collation} (45 utf8mb4_general_ci, 255 Connector/J's, 8 latin1 ...). */
    static RawClient connect(int port, String user, String password, String database, String plugin, Capabilities capabilities,
                             int collation) throws IOException {
        RawClient c = new RawClient(new Socket("127.0.0.1", port));
        c.socket.setSoTimeout(30_000);
        c.login(user, password, database, plugin, capabilities, collation);
        return c;
    }

    /** As {@link #connect}, from the local address {@code from} (another 127.x address stands for another host). */
    static RawClient connectFrom(String from, int port, String user, String password, String database) throws IOException {
        Socket socket = new Socket();
        socket.bind(new java.net.InetSocketAddress(from, 0));
        socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 10_000);
        RawClient c = new RawClient(socket);
        c.socket.setSoTimeout(30_000);
        c.login(user, password, database, NativePassword.PLUGIN, Capabilities.SERVER, 45);
        return c;
    }

    Socket socket() {
        return socket;
    }

    /** Writes bytes as they are (a whole packet, a part of one, or garbage). */
    void sendRaw(byte[] wire) throws IOException {
        out.write(wire);
        out.flush();
    }

    Reply loginReply;
    /** The server's greeting. */
    HandshakeV10 greeting;
    private Capabilities capabilities = Capabilities.SERVER;

    /** Whether this client logged in with CLIENT_DEPRECATE_EOF (no EOF after column or parameter definitions). */
    boolean deprecatesEof() {
        return capabilities.endsResultsWithOk();
    }

    private void login(String user, String password, String database, String plugin, Capabilities capabilities, int collation)
            throws IOException {
        HandshakeV10 hello = read().as(HandshakeV10::decode);
        byte[] token = plugin.equals(NativePassword.PLUGIN) ? NativePassword.scramble(hello.authSeed(), password) : new byte[32];
        // a cleartext client: it must not set CLIENT_SSL, or the server takes the response for an SSL request
        Capabilities clear = new Capabilities(capabilities.bits() & ~Capabilities.SSL, capabilities.extended());
        greeting = hello;
        this.capabilities = clear;
        HandshakeResponse response = new HandshakeResponse(clear, 1 << 24, collation, user, token, database, plugin, Map.of());
        ByteBuf buf = response.encode(ByteBufAllocator.DEFAULT);
        try {
            send(1, ByteBufUtil.getBytes(buf));
        } finally {
            buf.release();
        }
        Reply reply = read();
        if (reply.header() == AuthSwitchRequest.HEADER) {
            AuthSwitchRequest request = reply.as(AuthSwitchRequest::decode);
            byte[] seed = java.util.Arrays.copyOf(request.data(), 20);
            send(reply.sequenceId() + 1, NativePassword.scramble(seed, password));
            reply = read();
        }
        loginReply = reply;
    }

    void send(int sequenceId, byte[] payload) throws IOException {
        byte[] header = {(byte) payload.length, (byte) (payload.length >> 8), (byte) (payload.length >> 16), (byte) sequenceId};
        out.write(header);
        out.write(payload);
        out.flush();
    }

    void command(int code, String argument) throws IOException {
        byte[] text = argument.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] payload = new byte[text.length + 1];
        payload[0] = (byte) code;
        System.arraycopy(text, 0, payload, 1, text.length);
        send(0, payload);
    }

    Reply read() throws IOException {
        byte[] header = new byte[4];
        in.readFully(header);
        int length = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16;
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new Reply(header[3] & 0xFF, payload);
    }

    ErrPacket readError() throws IOException {
        Reply r = read();
        if (r.header() != ErrPacket.HEADER) {
            throw new AssertionError("expected an ERR packet, got header 0x" + Integer.toHexString(r.header()));
        }
        return r.as(ErrPacket::decode);
    }

    /** Whether the server closed the connection: the next read finds the end of the stream, not a byte. */
    boolean closedByServer() throws IOException {
        return in.read() == -1;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
