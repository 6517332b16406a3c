package io.shardwise.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP forwarder in front of a real server that can fail one connection at a precise point of the
 * MySQL conversation: when the client sends bytes containing an armed marker (say
 * {@code "XA COMMIT"}: the text of a COM_QUERY), that connection is cut (both sockets closed) or
 * frozen (nothing more forwarded either way, sockets left open) instead of the bytes being
 * forwarded. A real network fault at a real protocol step, with no hook in the code under test.
 *
 * <p>Each arming fires once, on the first connection that sends the marker; connections made later,
 * or before the marker, are forwarded untouched. Thread-safe; {@link #close()} cuts every connection.
 */
public final class FaultProxy implements AutoCloseable {
    public enum Fault { CUT, FREEZE }

    private record Armed(byte[] marker, Fault fault) {}

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final AtomicReference<Armed> armed = new AtomicReference<>();
    private final AtomicInteger fired = new AtomicInteger();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private FaultProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("fault-proxy-accept").start(this::acceptLoop);
    }

    /** A proxy on an ephemeral loopback port forwarding to {@code host:port}. */
    public static FaultProxy to(String host, int port) {
        try {
            return new FaultProxy(host, port);
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a proxy port: " + e.getMessage(), e);
        }
    }

    public String host() {
        return "127.0.0.1";
    }

    public int port() {
        return listener.getLocalPort();
    }

    /**
     * {@code real} as seen through this proxy: same account and version, this proxy's address.
     * Closing the view closes neither the proxy nor the server.
     */
    public MysqlServer view(MysqlServer real) {
        FaultProxy proxy = this;
        return new MysqlServer() {
            @Override
            public BackendKind kind() {
                return real.kind();
            }

            @Override
            public String host() {
                return proxy.host();
            }

            @Override
            public int port() {
                return proxy.port();
            }

            @Override
            public String user() {
                return real.user();
            }

            @Override
            public String password() {
                return real.password();
            }

            @Override
            public String version() {
                return real.version();
            }

            @Override
            public void close() {
                // the proxy and the server belong to whoever made them
            }
        };
    }

    /** The next connection whose client sends {@code marker} suffers {@code fault} instead; once. */
    public void arm(String marker, Fault fault) {
        armed.set(new Armed(marker.getBytes(StandardCharsets.UTF_8), fault));
    }

    public void disarm() {
        armed.set(null);
    }

    /** How many times an armed fault has fired. */
    public int fired() {
        return fired.get();
    }

    /** Cuts every connection, frozen ones included; new ones are still accepted. */
    public void cutAll() {
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            Socket server = new Socket();
            try {
                server.connect(new InetSocketAddress(targetHost, targetPort), 5000);
            } catch (IOException e) {
                closeQuietly(client);
                closeQuietly(server);
                continue;
            }
            sockets.add(client);
            sockets.add(server);
            Connection c = new Connection(client, server);
            Thread.ofVirtual().name("fault-proxy-up").start(c::up);
            Thread.ofVirtual().name("fault-proxy-down").start(c::down);
        }
    }

    private final class Connection {
        final Socket client;
        final Socket server;
        volatile boolean frozen;

        Connection(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        /** Client to server, watching for the armed marker (kept across reads: a marker may straddle two). */
        void up() {
            byte[] buf = new byte[64 * 1024];
            byte[] tail = new byte[0];
            // no try-with-resources: closing a socket's stream closes the socket, and a frozen one must stay open
            try {
                InputStream in = client.getInputStream();
                OutputStream out = server.getOutputStream();
                int n;
                while ((n = in.read(buf)) > 0) {
                    Armed a = armed.get();
                    if (a != null) {
                        byte[] window = new byte[tail.length + n];
                        System.arraycopy(tail, 0, window, 0, tail.length);
                        System.arraycopy(buf, 0, window, tail.length, n);
                        if (indexOf(window, a.marker()) >= 0 && armed.compareAndSet(a, null)) {
                            fired.incrementAndGet();
                            if (a.fault() == Fault.CUT) {
                                closeBoth();
                                return;
                            }
                            frozen = true;
                            return; // nothing more goes up; down() stops forwarding too
                        }
                        int keep = Math.min(window.length, a.marker().length - 1);
                        tail = java.util.Arrays.copyOfRange(window, window.length - keep, window.length);
                    }
                    if (frozen) {
                        return;
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // either side closed
            }
            if (!frozen) {
                closeBoth();
            }
        }

        void down() {
            byte[] buf = new byte[64 * 1024];
            try {
                InputStream in = server.getInputStream();
                OutputStream out = client.getOutputStream();
                int n;
                while ((n = in.read(buf)) > 0) {
                    if (frozen) {
                        return;
                    }
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // either side closed
            }
            if (!frozen) {
                closeBoth();
            }
        }

        void closeBoth() {
            closeQuietly(client);
            closeQuietly(server);
            sockets.remove(client);
            sockets.remove(server);
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // closing
        }
        cutAll();
    }
}
