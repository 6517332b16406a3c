package io.shardwise.it.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardwise.core.Engine;
import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.ServerConfig;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import io.shardwise.server.ShardwiseServer;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.HandshakeResponse;
import io.shardwise.server.protocol.HandshakeV10;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * 4,096 clients (1,024 outside {@code -Pbench}, within the same 16 KiB each) that logged in, ran what a client runs on connecting (the mysql CLI's
 * {@code select @@version_comment limit 1}) and one point select, then sit idle, cost at most
 * 64 MiB of live heap and at most 128 backend connections per backend, and the server still
 * answers them and a client that logs in then: an idle client holds a
 * channel, an engine session and a parked virtual thread, never a backend connection (the relay's
 * and the executor's pools are shared and bounded by {@code pool.max}).
 *
 * <p>Clients are blocking sockets in this JVM speaking just enough of the protocol; what they hold
 * counts against the ceiling too, so the server's share is below it. Live heap is read after
 * {@code System.gc()} (see {@link OrderedScatterMemoryIT} for why).
 *
 * <p>Needs two descriptors per client (client and server end) in one process: with a lower
 * {@code ulimit -n} than {@code CLIENTS} × 2 + 1,024 the test is skipped and says so. Runs in the
 * {@code memory} failsafe execution (-Xmx96m); alone:
 * {@code ./mvnw -B -o -pl it -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=IdleConnectionsMemoryIT},
 * with {@code -Pbench} for 4,096 clients.
 */
@Tag("memory")
class IdleConnectionsMemoryIT {
    /**
     * 4,096 (the figure) under {@code -Pbench}; 1,024 in the suite, where 4,096 logins take
     * minutes on a loaded 2-core machine under paranoid leak detection. The heap limit scales with
     * them: 16 KiB a client, 64 MiB for 4,096.
     */
    private static final int CLIENTS = Integer.getInteger("idle.clients", 1_024);
    private static final long HEAP_LIMIT = CLIENTS * 16L * 1024;
    private static final int BACKEND_CONNECTION_LIMIT = 128;
    /** Above -Xmx96m plus slack for how the JVM rounds it; a default 1 GiB test JVM is well over. */
    private static final long MAX_HEAP_FOR_THIS_TEST = 128L * 1024 * 1024;
    private static final byte COM_QUERY = 3;
    private static final int LOGIN_THREADS = 8;
    /** Two shards of {@code users} by user_id mod 2, default pools (max 32: the relay may open as many again). */
    private static final String YAML = """
            schema: shop
            backends:
              ds0: { url: "%s", user: "%s", password: "${env:BACKEND_PASSWORD}" }
              ds1: { url: "%s", user: "%s", password: "${env:BACKEND_PASSWORD}" }
            defaultBackend: ds0
            tables:
              users: { nodes: "ds${0..1}.users", key: user_id, algorithm: { type: mod } }
            server:
              users: [ { name: app, password: app, schemas: [shop] } ]
            """;

    @Test
    void idleClientsFitIn16KiBEachAndHoldNoBackendConnections() throws Exception {
        assertTrue(Runtime.getRuntime().maxMemory() <= MAX_HEAP_FOR_THIS_TEST,
                "run in the memory execution (-Xmx96m): in a big heap this test proves nothing");
        long fds = ((com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getMaxFileDescriptorCount();
        assumeTrue(fds >= CLIENTS * 2L + 1024, "ulimit -n is " + fds + ": " + CLIENTS + " clients need " + (CLIENTS * 2 + 1024)
                + " descriptors in this JVM (raise it with ulimit -n)");
        MysqlServer backend = TestBackends.shared();
        List<String> schemas = new ArrayList<>();
        try {
            for (int ds = 0; ds < 2; ds++) {
                String schema = TestBackends.uniqueSchemaName("idle_ds" + ds);
                backend.createSchema(schema);
                schemas.add(schema);
                try (Connection c = backend.connect(schema); Statement st = c.createStatement()) {
                    st.execute("CREATE TABLE users (user_id INT PRIMARY KEY, name VARCHAR(32))");
                    st.execute("INSERT INTO users VALUES (" + ds + ", 'user " + ds + "'), (" + (ds + 2) + ", 'user " + (ds + 2) + "')");
                }
            }
            ShardingRule rule = ShardingRule.load(YAML.formatted(backend.jdbcUrl(schemas.get(0)), backend.user(),
                    backend.jdbcUrl(schemas.get(1)), backend.user()), "IdleConnectionsMemoryIT", Map.of("BACKEND_PASSWORD", backend.password())::get);
            serveIdleClients(rule, backend);
        } finally {
            for (String schema : schemas) {
                backend.dropSchema(schema);
            }
        }
    }

    private static void serveIdleClients(ShardingRule rule, MysqlServer backend) throws Exception {
        ServerConfig settings = rule.config().server().withLimits(CLIENTS + 16, java.time.Duration.ZERO, ServerConfig.DEFAULT.maxPacketSize());
        List<Socket> clients = new ArrayList<>(CLIENTS);
        try (Engine engine = Engine.start(rule); ShardwiseServer server = ShardwiseServer.start(engine, settings, 0)) {
            int port = server.address().getPort();
            login(port).close(); // the first login loads the classes of the path: not part of the per-client cost
            long before = liveHeap();
            // a few clients at a time, each logging in and querying in turn: fast enough under paranoid leak detection
            java.util.concurrent.ExecutorService openers = java.util.concurrent.Executors.newFixedThreadPool(LOGIN_THREADS);
            try {
                List<java.util.concurrent.Future<Socket>> opened = new ArrayList<>(CLIENTS);
                for (int i = 0; i < CLIENTS; i++) {
                    int userId = i % 4;
                    opened.add(openers.submit(() -> {
                        Socket s = login(port);
                        query(s, "select @@version_comment limit 1");
                        query(s, "SELECT name FROM users WHERE user_id = " + userId); // relayed: a backend connection for a moment
                        return s;
                    }));
                }
                for (java.util.concurrent.Future<Socket> f : opened) {
                    clients.add(f.get());
                }
            } finally {
                openers.shutdown();
            }
            long grown = liveHeap() - before;
            System.out.printf("idle[%d clients: %.1f MiB of live heap (%d bytes each, clients' sockets included)]%n",
                    CLIENTS, grown / 1048576.0, grown / CLIENTS);
            assertEquals(CLIENTS, server.clientCount());
            assertTrue(grown <= HEAP_LIMIT, () -> CLIENTS + " idle clients grew the live heap by " + grown / 1048576 + " MiB");
            // the server still serves: a client that was idle all along, and one more that logs in now
            assertEquals("user 3", queryOne(clients.get(3), "SELECT name FROM users WHERE user_id = 3"));
            try (Socket late = login(port)) {
                assertEquals("user 2", queryOne(late, "SELECT name FROM users WHERE user_id = 2"));
            }
            for (BackendConfig b : rule.config().backends().values()) {
                int open = backendConnections(backend, b);
                System.out.printf("idle[backend %s: %d connections]%n", b.name(), open);
                assertTrue(open <= BACKEND_CONNECTION_LIMIT, b.name() + " has " + open + " connections for idle clients");
            }
        } finally {
            for (Socket s : clients) {
                s.close();
            }
        }
    }

    private static long liveHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** The backend's sessions in the backend's database (the relay's and the executor's connections). */
    private static int backendConnections(MysqlServer server, BackendConfig backend) throws SQLException {
        try (Connection c = server.connect(null);
             PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = ?")) {
            s.setString(1, backend.address().database());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Greeting, mysql_native_password response (no TLS, no CLIENT_DEPRECATE_EOF), OK. */
    private static Socket login(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(60_000);
        HandshakeV10 hello = HandshakeV10.decode(Unpooled.wrappedBuffer(read(socket)));
        Capabilities capabilities = new Capabilities(Capabilities.SERVER.bits() & ~(Capabilities.SSL | Capabilities.DEPRECATE_EOF));
        HandshakeResponse response = new HandshakeResponse(capabilities, 1 << 24, 45, "app",
                NativePassword.scramble(hello.authSeed(), "app"), "shop", NativePassword.PLUGIN, Map.of());
        ByteBuf buf = response.encode(ByteBufAllocator.DEFAULT);
        try {
            send(socket, 1, ByteBufUtil.getBytes(buf));
        } finally {
            buf.release();
        }
        byte[] ok = read(socket);
        assertEquals(0, ok[0], "logged in");
        return socket;
    }

    /** A query whose result set is read to its end: column count, definitions, EOF, rows, EOF. */
    private static void query(Socket socket, String sql) throws IOException {
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[text.length + 1];
        payload[0] = COM_QUERY;
        System.arraycopy(text, 0, payload, 1, text.length);
        send(socket, 0, payload);
        int eofs = 0;
        while (eofs < 2) {
            byte[] p = read(socket);
            assertTrue(p.length == 0 || (p[0] & 0xFF) != 0xFF, () -> sql + " failed: " + new String(p, StandardCharsets.UTF_8));
            if (p.length > 0 && p.length < 9 && (p[0] & 0xFF) == 0xFE) {
                eofs++;
            }
        }
    }

    /** A query answering one row of one column: that value (a length-encoded string shorter than 251 bytes). */
    private static String queryOne(Socket socket, String sql) throws IOException {
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[text.length + 1];
        payload[0] = COM_QUERY;
        System.arraycopy(text, 0, payload, 1, text.length);
        send(socket, 0, payload);
        List<byte[]> rows = new ArrayList<>();
        int eofs = 0;
        while (eofs < 2) {
            byte[] p = read(socket);
            assertTrue(p.length == 0 || (p[0] & 0xFF) != 0xFF, () -> sql + " failed: " + new String(p, StandardCharsets.UTF_8));
            if (p.length > 0 && p.length < 9 && (p[0] & 0xFF) == 0xFE) {
                eofs++;
            } else if (eofs == 1) {
                rows.add(p);
            }
        }
        assertEquals(1, rows.size(), sql + " answers one row");
        byte[] row = rows.get(0);
        return new String(row, 1, row[0] & 0xFF, StandardCharsets.UTF_8);
    }

    private static void send(Socket socket, int sequenceId, byte[] payload) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(new byte[] {(byte) payload.length, (byte) (payload.length >> 8), (byte) (payload.length >> 16), (byte) sequenceId});
        out.write(payload);
        out.flush();
    }

    private static byte[] read(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[4];
        in.readFully(header);
        byte[] payload = new byte[(header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16];
        in.readFully(payload);
        return payload;
    }
}
