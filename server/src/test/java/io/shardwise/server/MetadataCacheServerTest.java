package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.PreparedRelayServerTest.Param;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import java.io.IOException;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MariaDB's extended capabilities toward clients (the testkit's backend is MariaDB): Shardwise greets
 * as MariaDB does, without CLIENT_MYSQL and with MARIADB_CLIENT_CACHE_METADATA, and a client that
 * takes it gets prepared executes answered as MariaDB answers them — the column count with
 * "metadata follows = 0" and no definitions while the client holds them, byte for byte MariaDB's
 * own response for the same statement (the direct connection to the unsharded copy, with the same
 * capabilities). Through the relay (the fixture's server) and the engine path (a server with the
 * relay off) alike.
 */
class MetadataCacheServerTest {
    /** A MariaDB client that takes the metadata cache (libmariadb, MariaDB Connector/J). */
    static final Capabilities CACHING = new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.CLIENT_MYSQL,
            Capabilities.MARIADB_CACHE_METADATA);
    /** A MariaDB client that does not. */
    static final Capabilities MARIADB_PLAIN = new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.CLIENT_MYSQL, 0);
    private static final String POINT_SELECT = "SELECT id, k, c FROM sbtest1 WHERE id = ?";

    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("mdcache");
    private static ShardwiseServer plain;

    @BeforeAll
    static void startPlainServer() {
        plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0);
    }

    @AfterAll
    static void stopPlainServer() {
        plain.close();
    }

    private static RawClient shardwise(int port, Capabilities caps) throws IOException {
        return RawClient.connect(port, "app", "app", "shop", NativePassword.PLUGIN, caps);
    }

    private static RawClient mariaDb(Capabilities caps) throws IOException {
        return RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                NativePassword.PLUGIN, caps);
    }

    @Test
    void theGreetingIsMariaDbsWithTheMetadataCacheOnly() throws Exception {
        try (RawClient viaShardwise = shardwise(sample.server.address().getPort(), CACHING); RawClient direct = mariaDb(CACHING)) {
            Capabilities ours = viaShardwise.greeting.capabilities();
            Capabilities theirs = direct.greeting.capabilities();
            assertTrue(theirs.mariaDbExtended() && theirs.cachesMetadata(), "MariaDB greets " + theirs);
            assertTrue(ours.mariaDbExtended(), "no CLIENT_MYSQL: " + ours);
            assertEquals(Capabilities.MARIADB_CACHE_METADATA, ours.extended(), "only what Shardwise honours: " + ours);
            assertEquals(0, viaShardwise.loginReply.header(), "logged in");
        }
    }

    /** Prepared executes of the point select: the relay's and the engine path's equal MariaDB's, packet for packet. */
    @Test
    void executesOmitTheDefinitionsTheClientHoldsAsMariaDbDoes() throws Exception {
        for (Capabilities caps : List.of(CACHING, new Capabilities(CACHING.bits() & ~Capabilities.DEPRECATE_EOF, CACHING.extended()))) {
            for (ShardwiseServer server : List.of(sample.server, plain)) {
                try (RawClient viaShardwise = shardwise(server.address().getPort(), caps); RawClient direct = mariaDb(caps)) {
                    int expectedId = PreparedRelayServerTest.prepare(direct, POINT_SELECT);
                    int id = PreparedRelayServerTest.prepare(viaShardwise, POINT_SELECT);
                    for (long key = 1; key <= 3; key++) {
                        List<String> expected = PreparedRelayServerTest.execute(direct, expectedId, Param.longlong(key));
                        long relayed = sample.server.relayedStatements();
                        List<String> actual = PreparedRelayServerTest.execute(viaShardwise, id, Param.longlong(key));
                        String what = caps + (server == plain ? " engine path" : " relay") + " execute " + key;
                        assertEquals(expected, actual, what);
                        assertTrue(actual.get(0).endsWith("0300"), "count 3, no metadata follows: " + what + " " + actual);
                        if (server == sample.server && key > 1) {
                            assertEquals(relayed + 1, sample.server.relayedStatements(), "relayed: " + what);
                        }
                    }
                }
            }
        }
    }

    /** Inside a transaction (a native one on the relay, the JDBC executor's on the engine path) alike. */
    @Test
    void executesInATransactionOmitThemToo() throws Exception {
        for (ShardwiseServer server : List.of(sample.server, plain)) {
            try (RawClient viaShardwise = shardwise(server.address().getPort(), CACHING); RawClient direct = mariaDb(CACHING)) {
                int expectedId = PreparedRelayServerTest.prepare(direct, POINT_SELECT);
                int id = PreparedRelayServerTest.prepare(viaShardwise, POINT_SELECT);
                RelayServerTest.exchange(direct, "BEGIN");
                RelayServerTest.exchange(viaShardwise, "BEGIN");
                for (long key = 1; key <= 3; key++) {
                    List<String> expected = PreparedRelayServerTest.execute(direct, expectedId, Param.longlong(key));
                    assertEquals(expected, PreparedRelayServerTest.execute(viaShardwise, id, Param.longlong(key)),
                            (server == plain ? "engine path" : "relay") + " execute " + key);
                }
                assertEquals(RelayServerTest.exchange(direct, "COMMIT"), RelayServerTest.exchange(viaShardwise, "COMMIT"));
            }
        }
    }

    /**
     * A merged execute (a scatter over both shards; the first on the session's thread, which caches the
     * shape, the later ones on the relay's server merged by the event loop): its definitions are held
     * after the execute that sent them, and the rows are MariaDB's.
     */
    @Test
    void mergedExecutesHoldTheirDefinitionsToo() throws Exception {
        String sql = "SELECT user_id, COUNT(*) FROM orders WHERE amount > ? GROUP BY user_id ORDER BY user_id";
        for (ShardwiseServer server : List.of(sample.server, plain)) {
            try (RawClient viaShardwise = shardwise(server.address().getPort(), CACHING); RawClient direct = mariaDb(CACHING)) {
                int expectedId = PreparedRelayServerTest.prepare(direct, sql);
                int id = PreparedRelayServerTest.prepare(viaShardwise, sql);
                for (int i = 0; i < 3; i++) {
                    List<String> expected = PreparedRelayServerTest.execute(direct, expectedId, Param.longlong(5));
                    List<String> actual = PreparedRelayServerTest.execute(viaShardwise, id, Param.longlong(5));
                    // the rows are MariaDB's (its end says SERVER_QUERY_NO_INDEX_USED, which Shardwise never sets)
                    assertEquals(expected.subList(expected.size() - 1 - rows(expected), expected.size() - 1),
                            actual.subList(actual.size() - 1 - rows(actual), actual.size() - 1), "rows of execute " + i);
                    if (i > 0) {
                        assertEquals(expected.get(0), actual.get(0), "execute " + i + ": held from the prepare or the first execute");
                        assertEquals(expected.size(), actual.size(), "execute " + i);
                    }
                }
            }
        }
    }

    /**
     * Prepared merges the event loop answers (LoopMerges: units sent ahead, merged and answered without a session
     * thread, in autocommit and in a native transaction) honour the cache as the session's thread does: every packet
     * equals the relay-off server's, whose session thread merges the same executes — "metadata follows = 1" and the
     * definitions when the client does not hold them (the first execute of a statement whose prepare announced other
     * definitions), then 0 and none. Without the loop's record of what the client holds, its answers would carry the
     * definitions every time (or none ever), and the counts would show a hop to the session's thread.
     */
    @Test
    void mergedExecutesAnsweredOnTheLoopOmitHeldDefinitionsAsTheSessionThreadDoes() throws Exception {
        record Merge(String sql, int columns, Param... params) {}
        List<Merge> merges = List.of(
                new Merge("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", 1, Param.longlong(3), Param.longlong(12)),
                new Merge("SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?", 1, Param.longlong(3), Param.longlong(12)),
                new Merge("SELECT user_id, COUNT(*) FROM orders WHERE amount > ? GROUP BY user_id ORDER BY user_id", 2,
                        Param.longlong(5)));
        for (Capabilities caps : List.of(CACHING, new Capabilities(CACHING.bits() & ~Capabilities.DEPRECATE_EOF, CACHING.extended()))) {
            for (boolean inTransaction : List.of(false, true)) {
                try (RawClient viaEngine = shardwise(plain.address().getPort(), caps);
                     RawClient viaLoop = shardwise(sample.server.address().getPort(), caps)) {
                    int[] expectedIds = new int[merges.size()];
                    int[] ids = new int[merges.size()];
                    for (int m = 0; m < merges.size(); m++) {
                        expectedIds[m] = PreparedRelayServerTest.prepare(viaEngine, merges.get(m).sql());
                        ids[m] = PreparedRelayServerTest.prepare(viaLoop, merges.get(m).sql());
                        // the shape's plan cached, so that the loop takes the relayed server's executes from the first
                        try (RawClient warm = shardwise(plain.address().getPort(), MARIADB_PLAIN)) {
                            PreparedRelayServerTest.execute(warm, PreparedRelayServerTest.prepare(warm, merges.get(m).sql()),
                                    merges.get(m).params());
                        }
                    }
                    if (inTransaction) {
                        int point = PreparedRelayServerTest.prepare(viaLoop, POINT_SELECT);
                        assertEquals(RelayServerTest.exchange(viaEngine, "BEGIN"), RelayServerTest.exchange(viaLoop, "BEGIN"));
                        PreparedRelayServerTest.execute(viaLoop, point, Param.longlong(1)); // relayed: a native transaction from here
                        assertTrue(sample.server.pinnedConnections() > 0, "a native transaction");
                    }
                    for (int m = 0; m < merges.size(); m++) {
                        Merge k = merges.get(m);
                        for (int i = 0; i < 3; i++) {
                            String what = caps + (inTransaction ? " in a transaction: " : " autocommit: ") + k.sql() + " execute " + i;
                            List<String> expected = PreparedRelayServerTest.execute(viaEngine, expectedIds[m], k.params());
                            long hops = sample.server.sessionCommands();
                            long merged = sample.server.loopMergedStatements();
                            List<String> actual = PreparedRelayServerTest.execute(viaLoop, ids[m], k.params());
                            assertEquals(merged + 1, sample.server.loopMergedStatements(), "merged on the loop: " + what);
                            assertEquals(hops, sample.server.sessionCommands(), "no session thread: " + what);
                            assertEquals(expected, actual, what);
                            if (i > 0) {
                                assertEquals(String.format("1:%02x00", k.columns()), actual.get(0), "held, no metadata follows: " + what);
                                int end = caps.endsResultsWithOk() ? 0 : 1; // the EOF after the (omitted) definitions
                                assertEquals(1 + end + rows(actual) + 1, actual.size(), "no definitions: " + what + " " + actual);
                            }
                        }
                    }
                    if (inTransaction) {
                        assertEquals(RelayServerTest.exchange(viaEngine, "COMMIT"), RelayServerTest.exchange(viaLoop, "COMMIT"));
                        assertEquals(0, sample.server.pinnedConnections());
                    }
                }
            }
        }
    }

    /**
     * An execute that opens a cursor (CURSOR_TYPE_READ_ONLY) omits held definitions: the second as
     * MariaDB's, byte for byte, and every fetch. The first differs: MariaDB describes a cursor's columns
     * from its temporary table (other flags than its prepare announced), so it sends them again where
     * Shardwise, whose cursor columns are those it announced, does not.
     */
    @Test
    void cursorExecutesOmitHeldDefinitions() throws Exception {
        for (ShardwiseServer server : List.of(sample.server, plain)) {
            try (RawClient viaShardwise = shardwise(server.address().getPort(), CACHING); RawClient direct = mariaDb(CACHING)) {
                int expectedId = PreparedRelayServerTest.prepare(direct, POINT_SELECT);
                int id = PreparedRelayServerTest.prepare(viaShardwise, POINT_SELECT);
                for (long key = 1; key <= 2; key++) {
                    List<String> expected = openCursor(direct, expectedId, key);
                    List<String> actual = openCursor(viaShardwise, id, key);
                    if (key == 1) {
                        assertEquals(List.of("1:0300", expected.getLast().replaceFirst("^\\d+:", "2:")), actual, "cursor execute 1");
                    } else {
                        assertEquals(expected, actual, "cursor execute " + key);
                    }
                    assertEquals(fetch(direct, expectedId), fetch(viaShardwise, id), "fetch " + key);
                }
            }
        }
    }

    /** COM_STMT_EXECUTE with CURSOR_TYPE_READ_ONLY of one LONGLONG; the response up to the end of its (perhaps omitted) definitions. */
    private static List<String> openCursor(RawClient client, int id, long key) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(10 + 1 + 1 + 2 + 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x17).putInt(id).put((byte) 1).putInt(1).put((byte) 0).put((byte) 1).put((byte) 8).put((byte) 0).putLong(key);
        client.send(0, b.array());
        List<String> packets = new ArrayList<>();
        RawClient.Reply count = client.read();
        packets.add(hex(count));
        int defs = count.payload()[1] == 1 ? count.payload()[0] : 0;
        for (int i = 0; i < defs; i++) {
            packets.add(hex(client.read()));
        }
        packets.add(hex(client.read())); // the EOF/OK saying a cursor exists
        return packets;
    }

    private static List<String> fetch(RawClient client, int id) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(9).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x1C).putInt(id).putInt(10);
        client.send(0, b.array());
        List<String> packets = new ArrayList<>();
        while (true) {
            RawClient.Reply r = client.read();
            packets.add(hex(r));
            if (r.header() == 0xFE || r.header() == 0xFF) {
                return packets;
            }
        }
    }

    /** How many row packets a binary result holds (those starting 00 after the definitions). */
    private static int rows(List<String> packets) {
        int n = 0;
        for (int i = packets.size() - 2; i > 0 && packets.get(i).contains(":00"); i--) {
            n++;
        }
        return n;
    }

    private static String hex(RawClient.Reply r) {
        return r.sequenceId() + ":" + java.util.HexFormat.of().formatHex(r.payload());
    }

    /** A text result's column count carries "metadata follows = 1", as MariaDB's does, through the relay and the engine. */
    @Test
    void textResultsSayTheirMetadataFollows() throws Exception {
        for (ShardwiseServer server : List.of(sample.server, plain)) {
            try (RawClient viaShardwise = shardwise(server.address().getPort(), CACHING); RawClient direct = mariaDb(CACHING)) {
                for (String sql : List.of("SELECT id, k FROM sbtest1 WHERE id = 1", "SELECT 1, 'a'")) {
                    List<String> expected = RelayServerTest.exchange(direct, sql);
                    List<String> actual = RelayServerTest.exchange(viaShardwise, sql);
                    assertEquals(expected.get(0), actual.get(0), sql);
                    assertEquals(expected.size(), actual.size(), sql + ": " + actual);
                    assertEquals(expected.get(expected.size() - 2), actual.get(actual.size() - 2), sql + " row");
                }
            }
        }
    }

    /**
     * Definitions that change between executes go again (flag 1), then are held: after an ALTER TABLE
     * that widens the column, as MariaDB re-sends its own.
     */
    @Test
    void changedDefinitionsAreSentAgainAsMariaDbSendsThem() throws Exception {
        try (Connection viaShardwise = sample.connect("app", ""); Statement s = viaShardwise.createStatement();
             Connection direct = sample.direct(); Statement d = direct.createStatement()) {
            for (Statement on : List.of(s, d)) {
                on.execute("DROP TABLE IF EXISTS mdcache_t");
                on.execute("CREATE TABLE mdcache_t (id BIGINT PRIMARY KEY, v VARCHAR(10))");
                on.execute("INSERT INTO mdcache_t VALUES (1, 'one')");
            }
            try {
                for (ShardwiseServer server : List.of(sample.server, plain)) {
                    try (RawClient c = shardwise(server.address().getPort(), CACHING); RawClient m = mariaDb(CACHING)) {
                        String sql = "SELECT id, v FROM mdcache_t WHERE id = ?";
                        int expectedId = PreparedRelayServerTest.prepare(m, sql);
                        int id = PreparedRelayServerTest.prepare(c, sql);
                        List<String> flags = new ArrayList<>();
                        List<String> expectedFlags = new ArrayList<>();
                        for (int round = 0; round < 2; round++) {
                            for (int i = 0; i < 2; i++) {
                                List<String> expected = PreparedRelayServerTest.execute(m, expectedId, Param.longlong(1));
                                List<String> actual = PreparedRelayServerTest.execute(c, id, Param.longlong(1));
                                expectedFlags.add(expected.get(0) + "/" + expected.size());
                                flags.add(actual.get(0) + "/" + actual.size());
                                assertEquals(expected.get(expected.size() - 2), actual.get(actual.size() - 2), "the row");
                            }
                            String alter = round == 0 ? "ALTER TABLE mdcache_t MODIFY v VARCHAR(20)" : "ALTER TABLE mdcache_t MODIFY v VARCHAR(10)";
                            s.execute(alter);
                            d.execute(alter);
                        }
                        // MariaDB: held, held; after the ALTER sent again (01), then held
                        assertEquals(List.of("1:0200/3", "1:0200/3", "1:0201/5", "1:0200/3"), expectedFlags, "MariaDB itself");
                        assertEquals(expectedFlags, flags, server == plain ? "engine path" : "relay");
                    }
                }
            } finally {
                s.execute("DROP TABLE IF EXISTS mdcache_t");
                d.execute("DROP TABLE IF EXISTS mdcache_t");
            }
        }
    }

    /**
     * The relay connections negotiate the cache with the MariaDB backend: a relayed execute of the point select
     * receives from the backend what a caching client of MariaDB receives directly — the count with "metadata
     * follows = 0", the row, the end (three packets; the same bytes) — where a client without the cache gets the three
     * definitions too. What Shardwise receives is counted on its relay connections ({@link
     * io.shardwise.server.relay.BackendConnection#receivedPackets}); the client's answer is unchanged (its own cache
     * decides, the other tests). Without the relay connections' cache, each execute would receive six packets.
     */
    @Test
    void relayConnectionsReceiveNoDefinitionsTheBackendStatementHolds() throws Exception {
        long[] direct = directPerExecute(CACHING);
        long[] directWithout = directPerExecute(MARIADB_PLAIN);
        for (Capabilities caps : List.of(CACHING, MARIADB_PLAIN)) {
            try (RawClient c = shardwise(sample.server.address().getPort(), caps)) {
                int id = PreparedRelayServerTest.prepare(c, POINT_SELECT);
                PreparedRelayServerTest.execute(c, id, Param.longlong(1)); // the shape's first execute (the session's thread)
                PreparedRelayServerTest.execute(c, id, Param.longlong(2)); // relayed: the backend statement prepared
                int n = 10;
                long relayed = sample.server.relayedStatements();
                long packets = io.shardwise.server.relay.BackendConnection.receivedPackets();
                long bytes = io.shardwise.server.relay.BackendConnection.receivedBytes();
                for (int i = 0; i < n; i++) {
                    PreparedRelayServerTest.execute(c, id, Param.longlong(2)); // the row the direct client's execute read
                }
                assertEquals(relayed + n, sample.server.relayedStatements(), caps + ": relayed");
                long perPackets = (io.shardwise.server.relay.BackendConnection.receivedPackets() - packets) / n;
                long perBytes = (io.shardwise.server.relay.BackendConnection.receivedBytes() - bytes) / n;
                System.out.printf("point select execute, from the backend per relayed execute (%s client): %d packets, %d bytes;"
                        + " MariaDB to a direct client with the cache: %d, %d; without: %d, %d%n", caps, perPackets, perBytes,
                        direct[0], direct[1], directWithout[0], directWithout[1]);
                assertEquals(direct[0], perPackets, caps + ": packets per execute, as a caching client of MariaDB gets");
                assertEquals(direct[1], perBytes, caps + ": bytes per execute");
                assertEquals(directWithout[0] - 3, perPackets, "no definitions");
            }
        }
    }

    /**
     * MariaDB's response as Shardwise words it: the definitions name the logical schema ({@code shop}) where MariaDB's
     * name the unsharded copy. The end's status is compared as it is: SERVER_STATUS_METADATA_CHANGED (0x0400) on the
     * execute whose column count a DDL changed, as MariaDB sets it.
     */
    private static List<String> logical(List<String> packets) {
        String hex = java.util.HexFormat.of().formatHex(sample.whole.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        String whole = String.format("%02x", sample.whole.length()) + hex;
        String shop = "04" + java.util.HexFormat.of().formatHex("shop".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < packets.size(); i++) {
            out.add(packets.get(i).replace("03646566" + whole, "03646566" + shop));
        }
        return out;
    }

    /** A direct client's packets and payload bytes per execute of the point select (its second on the statement). */
    private static long[] directPerExecute(Capabilities caps) throws IOException {
        try (RawClient m = mariaDb(caps)) {
            int id = PreparedRelayServerTest.prepare(m, POINT_SELECT);
            PreparedRelayServerTest.execute(m, id, Param.longlong(1));
            List<String> packets = PreparedRelayServerTest.execute(m, id, Param.longlong(2));
            long bytes = 0;
            for (String p : packets) {
                bytes += (p.length() - p.indexOf(':') - 1) / 2;
            }
            return new long[] {packets.size(), bytes};
        }
    }

    /**
     * Relayed executes of {@code SELECT *} stay byte for byte MariaDB's, for clients with and without the cache, while
     * the backend's definitions change under the relay connection's record of them: an ALTER TABLE ... ADD COLUMN
     * between executes (the backend sends the three columns with "metadata follows = 1", which replace the two its
     * prepare sent), and SET NAMES (other collations in the definitions, on the connection of that setting).
     */
    @Test
    void relayedExecutesFollowDefinitionsTheBackendChanges() throws Exception {
        try (Connection viaShardwise = sample.connect("app", ""); Statement s = viaShardwise.createStatement();
             Connection direct = sample.direct(); Statement d = direct.createStatement()) {
            for (Statement on : List.of(s, d)) {
                on.execute("DROP TABLE IF EXISTS mdcache_b");
                on.execute("CREATE TABLE mdcache_b (id BIGINT PRIMARY KEY, v VARCHAR(10))");
                on.execute("INSERT INTO mdcache_b VALUES (1, 'one'), (2, 'two')");
            }
            try {
                for (Capabilities caps : List.of(CACHING, MARIADB_PLAIN)) {
                    try (RawClient c = shardwise(sample.server.address().getPort(), caps); RawClient m = mariaDb(caps)) {
                        String sql = "SELECT * FROM mdcache_b WHERE id = ?";
                        int expectedId = PreparedRelayServerTest.prepare(m, sql);
                        int id = PreparedRelayServerTest.prepare(c, sql);
                        List<String> steps = new ArrayList<>();
                        for (int round = 0; round < 4; round++) {
                            for (long key = 1; key <= 3; key++) {
                                List<String> expected = PreparedRelayServerTest.execute(m, expectedId, Param.longlong(1 + key % 2));
                                long relayed = sample.server.relayedStatements();
                                long packets = io.shardwise.server.relay.BackendConnection.receivedPackets();
                                List<String> actual = PreparedRelayServerTest.execute(c, id, Param.longlong(1 + key % 2));
                                assertEquals(logical(expected), actual, caps + " round " + round + " execute " + key);
                                boolean wasRelayed = sample.server.relayedStatements() > relayed;
                                // under SET NAMES latin1 (round 2) too: ASCII values read alike on the relay's utf8mb4 connection
                                assertTrue(wasRelayed || round != 2, caps + " round " + round + " execute " + key + " relayed");
                                long fromBackend = io.shardwise.server.relay.BackendConnection.receivedPackets() - packets;
                                steps.add(actual.get(0) + "/" + actual.size() + (wasRelayed ? " relayed " + fromBackend : " engine"));

                            }
                            switch (round) {
                                case 0 -> {
                                    s.execute("ALTER TABLE mdcache_b ADD COLUMN w INT DEFAULT 7");
                                    d.execute("ALTER TABLE mdcache_b ADD COLUMN w INT DEFAULT 7");
                                }
                                case 1 -> assertEquals(RelayServerTest.exchange(m, "SET NAMES latin1"),
                                        RelayServerTest.exchange(c, "SET NAMES latin1"));
                                case 2 -> {
                                    assertEquals(RelayServerTest.exchange(m, "SET NAMES utf8mb4"),
                                            RelayServerTest.exchange(c, "SET NAMES utf8mb4"));
                                    s.execute("ALTER TABLE mdcache_b DROP COLUMN w");
                                    d.execute("ALTER TABLE mdcache_b DROP COLUMN w");
                                }
                                default -> { }
                            }
                        }
                        System.out.println(caps + " SELECT * executes (count/packets): " + steps);
                    }
                }
            } finally {
                s.execute("DROP TABLE IF EXISTS mdcache_b");
                d.execute("DROP TABLE IF EXISTS mdcache_b");
            }
        }
    }

    /**
     * SERVER_STATUS_METADATA_CHANGED (0x0400) in the end packets of exactly the execute whose column count a DDL
     * changed, as MariaDB sets it on that reprepare: through the relay and on the session's thread (relay off), for
     * clients with and without the cache, with and without CLIENT_DEPRECATE_EOF.
     */
    @Test
    void anExecuteWhoseColumnCountChangedSaysSoAsMariaDbDoes() throws Exception {
        try (Connection viaShardwise = sample.connect("app", ""); Statement s = viaShardwise.createStatement();
             Connection direct = sample.direct(); Statement d = direct.createStatement()) {
            for (Statement on : List.of(s, d)) {
                on.execute("DROP TABLE IF EXISTS mdcache_c");
                on.execute("CREATE TABLE mdcache_c (id BIGINT PRIMARY KEY, v VARCHAR(10))");
                on.execute("INSERT INTO mdcache_c VALUES (1, 'one')");
            }
            try {
                for (ShardwiseServer server : List.of(sample.server, plain)) {
                    for (Capabilities caps : List.of(CACHING, MARIADB_PLAIN,
                            new Capabilities(MARIADB_PLAIN.bits() & ~Capabilities.DEPRECATE_EOF, 0))) {
                        try (RawClient c = shardwise(server.address().getPort(), caps); RawClient m = mariaDb(caps)) {
                            String sql = "SELECT * FROM mdcache_c WHERE id = ?";
                            int expectedId = PreparedRelayServerTest.prepare(m, sql);
                            int id = PreparedRelayServerTest.prepare(c, sql);
                            int flagged = 0;
                            for (int step = 0; step < 6; step++) {
                                switch (step) {
                                    case 1 -> {
                                        s.execute("ALTER TABLE mdcache_c ADD COLUMN w INT DEFAULT 7");
                                        d.execute("ALTER TABLE mdcache_c ADD COLUMN w INT DEFAULT 7");
                                    }
                                    case 4 -> {
                                        s.execute("ALTER TABLE mdcache_c DROP COLUMN w");
                                        d.execute("ALTER TABLE mdcache_c DROP COLUMN w");
                                    }
                                    default -> { }
                                }
                                List<String> expected = PreparedRelayServerTest.execute(m, expectedId, Param.longlong(1));
                                List<String> actual = PreparedRelayServerTest.execute(c, id, Param.longlong(1));
                                assertEquals(logical(expected), actual, caps + " step " + step);
                                String end = expected.get(expected.size() - 1); // an EOF or OK: fe, two bytes, then the status
                                int colon = end.indexOf(':');
                                flagged += (Integer.parseInt(end.substring(colon + 9, colon + 11), 16) & 0x04) != 0 ? 1 : 0;
                            }
                            assertEquals(2, flagged, caps + ": MariaDB flags the two executes after a column count change");
                        }
                    }
                }
            } finally {
                s.execute("DROP TABLE IF EXISTS mdcache_c");
                d.execute("DROP TABLE IF EXISTS mdcache_c");
            }
        }
    }

    /** A MariaDB client without the bit, and a MySQL one, get every execute's definitions, and no flag byte. */
    @Test
    void clientsWithoutTheCacheGetDefinitionsEveryTime() throws Exception {
        for (Capabilities caps : List.of(MARIADB_PLAIN, Capabilities.SERVER)) {
            try (RawClient viaShardwise = shardwise(sample.server.address().getPort(), caps); RawClient direct = mariaDb(caps)) {
                int expectedId = PreparedRelayServerTest.prepare(direct, POINT_SELECT);
                int id = PreparedRelayServerTest.prepare(viaShardwise, POINT_SELECT);
                for (long key = 1; key <= 2; key++) {
                    List<String> expected = PreparedRelayServerTest.execute(direct, expectedId, Param.longlong(key));
                    List<String> actual = PreparedRelayServerTest.execute(viaShardwise, id, Param.longlong(key));
                    assertEquals("1:03", actual.get(0), caps + " count, no flag byte");
                    assertEquals(expected.size(), actual.size(), caps + " definitions every time: " + actual);
                }
            }
        }
    }

    /** What the cache saves per execute of the point select through the relay: packets and bytes on the wire. */
    @Test
    void theCacheSavesThreePacketsPerPointSelect() throws Exception {
        long[] with = perExecute(CACHING);
        long[] without = perExecute(MARIADB_PLAIN);
        assertEquals(without[0] - 3, with[0], "packets per execute (" + without[0] + " without)");
        assertTrue(with[1] < without[1] - 3 * 4, "bytes per execute: " + with[1] + " with, " + without[1] + " without");
        assertFalse(with[1] == 0);
        System.out.printf("point select execute through the relay: %d packets, %d bytes with the metadata cache; %d packets, %d bytes without%n",
                with[0], with[1], without[0], without[1]);
    }

    private static long[] perExecute(Capabilities caps) throws IOException {
        try (RawClient c = shardwise(sample.server.address().getPort(), caps)) {
            int id = PreparedRelayServerTest.prepare(c, POINT_SELECT);
            PreparedRelayServerTest.execute(c, id, Param.longlong(1));
            List<String> packets = PreparedRelayServerTest.execute(c, id, Param.longlong(2));
            long bytes = 0;
            for (String p : packets) {
                bytes += 4 + (p.length() - p.indexOf(':') - 1) / 2;
            }
            return new long[] {packets.size(), bytes};
        }
    }
}
