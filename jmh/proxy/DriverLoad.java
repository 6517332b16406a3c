import java.sql.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/**
 * sysbench oltp_read_write's transaction (10 point selects, 4 ranges, 2 updates, a delete and an insert,
 * then COMMIT) through the Shardwise JDBC driver from many threads, counting 1213/1205/1020/1062 as
 * sysbench does (rolled back and retried) and anything else as an error. Run by hand (docs/benchmarks.md,
 * "Transactions at 512 threads") against a database sysbench prepared:
 * {@code java -cp jmh/target/benchmarks.jar jmh/proxy/DriverLoad.java jdbc:shardwise:<config> 512 30 10000}
 */
public class DriverLoad {
    public static void main(String[] a) throws Exception {
        String url = a[0];
        int threads = Integer.parseInt(a[1]);
        long seconds = Long.parseLong(a[2]);
        int size = Integer.parseInt(a[3]);
        LongAdder tx = new LongAdder(), queries = new LongAdder(), ignored = new LongAdder(), errors = new LongAdder();
        ConcurrentHashMap<String, LongAdder> kinds = new ConcurrentHashMap<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> ts = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int i = 0; i < threads; i++) {
            ts.add(Thread.ofPlatform().start(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                try (Connection c = DriverManager.getConnection(url)) {
                    c.setAutoCommit(false);
                    PreparedStatement point = c.prepareStatement("SELECT c FROM sbtest1 WHERE id=?");
                    PreparedStatement range = c.prepareStatement("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?");
                    PreparedStatement sum = c.prepareStatement("SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?");
                    PreparedStatement order = c.prepareStatement("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c");
                    PreparedStatement distinct = c.prepareStatement("SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c");
                    PreparedStatement updK = c.prepareStatement("UPDATE sbtest1 SET k=k+1 WHERE id=?");
                    PreparedStatement updC = c.prepareStatement("UPDATE sbtest1 SET c=? WHERE id=?");
                    PreparedStatement del = c.prepareStatement("DELETE FROM sbtest1 WHERE id=?");
                    PreparedStatement ins = c.prepareStatement("INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)");
                    start.await();
                    while (System.nanoTime() < end) {
                        try {
                            for (int q = 0; q < 10; q++) {
                                point.setInt(1, 1 + r.nextInt(size));
                                drain(point);
                            }
                            for (PreparedStatement p : List.of(range, sum, order, distinct)) {
                                int lo = 1 + r.nextInt(size);
                                p.setInt(1, lo);
                                p.setInt(2, lo + 99);
                                drain(p);
                            }
                            updK.setInt(1, 1 + r.nextInt(size));
                            updK.executeUpdate();
                            updC.setString(1, Long.toString(r.nextLong()));
                            updC.setInt(2, 1 + r.nextInt(size));
                            updC.executeUpdate();
                            int id = 1 + r.nextInt(size);
                            del.setInt(1, id);
                            del.executeUpdate();
                            ins.setInt(1, id);
                            ins.setInt(2, r.nextInt(size));
                            ins.setString(3, "c" + r.nextLong());
                            ins.setString(4, "p" + r.nextLong());
                            ins.executeUpdate();
                            c.commit();
                            tx.increment();
                            queries.add(18);
                        } catch (SQLException e) {
                            // as sysbench: deadlocks, lock wait timeouts and duplicate keys roll back and go on
                            int code = e.getErrorCode();
                            kinds.computeIfAbsent(code + " " + e.getMessage().replaceAll("\\d+ms", "Nms").replaceAll("waiting=\\d+", "waiting=N"), k -> new LongAdder()).increment();
                            (code == 1213 || code == 1205 || code == 1020 || code == 1062 ? ignored : errors).increment();
                            try { c.rollback(); } catch (SQLException ignore) { }
                        }
                    }
                } catch (Exception e) {
                    errors.increment();
                    kinds.computeIfAbsent("setup: " + e, k -> new LongAdder()).increment();
                }
            }));
        }
        long t0 = System.nanoTime();
        start.countDown();
        for (Thread t : ts) t.join();
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("driver oltp_read_write-like: threads=%d time=%.1fs transactions=%d (%.1f tps) queries=%d ignored=%d errors=%d%n",
                threads, s, tx.sum(), tx.sum() / s, queries.sum(), ignored.sum(), errors.sum());
        kinds.forEach((k, v) -> System.out.println("  " + v.sum() + " × " + k));
    }

    static void drain(PreparedStatement p) throws SQLException {
        try (ResultSet rs = p.executeQuery()) {
            while (rs.next()) rs.getString(1);
        }
    }
}
