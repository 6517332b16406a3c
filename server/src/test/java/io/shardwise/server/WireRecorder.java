package io.shardwise.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay in front of a server that records what clients send, cut into wire packets (4-byte
 * header included): the fuzz corpus comes from real clients, not from our own encoders. Cleartext
 * only (clients connect with TLS off). Each connection is one recorded conversation.
 */
final class WireRecorder implements AutoCloseable {
    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<ByteArrayOutputStream> sent = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    WireRecorder(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(target.getAddress(), target.getPort());
                sockets.add(client);
                sockets.add(server);
                ByteArrayOutputStream recorded = new ByteArrayOutputStream();
                sent.add(recorded);
                Thread.ofVirtual().start(() -> copy(client, server, recorded));
                Thread.ofVirtual().start(() -> copy(server, client, null));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private static void copy(Socket from, Socket to, ByteArrayOutputStream recorded) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                if (recorded != null) {
                    synchronized (recorded) {
                        recorded.write(buffer, 0, n);
                    }
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException closed) {
            // either side went away: the conversation is over
        } finally {
            try {
                to.shutdownOutput();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    /** Every connection's client packets so far, in order, each a whole wire packet. */
    List<List<byte[]>> conversations() {
        List<List<byte[]>> out = new ArrayList<>();
        for (ByteArrayOutputStream recorded : sent) {
            byte[] bytes;
            synchronized (recorded) {
                bytes = recorded.toByteArray();
            }
            List<byte[]> packets = new ArrayList<>();
            int at = 0;
            while (at + 4 <= bytes.length) {
                int length = (bytes[at] & 0xFF) | (bytes[at + 1] & 0xFF) << 8 | (bytes[at + 2] & 0xFF) << 16;
                if (at + 4 + length > bytes.length) {
                    break;
                }
                packets.add(Arrays.copyOfRange(bytes, at, at + 4 + length));
                at += 4 + length;
            }
            out.add(packets);
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
