package io.shardwise.it.oracle;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Read statements drawn from a small SELECT grammar with a fixed seed, so every run generates the same
 * corpus: predicates on and off the sharding key (equality, IN, ranges, NULL tests, values of another
 * type than the column's), global and grouped aggregates (BIT_AND/OR/XOR and the variance family too) and expressions over them, DISTINCT, ORDER BY
 * with the primary key as
 * the last key (no ties), LIMIT and OFFSET only under such an ORDER BY, and about one statement in
 * five prepared with its literals as parameters.
 *
 * <p>Strings with case and accent variants are grouped, made DISTINCT or aggregated with MIN/MAX only
 * in collation-equivalent cases, since MySQL returns any member of an equal group.
 */
final class RandomCorpus {
    static final long SEED = 0x0A_C1E_2025L;

    enum Kind { INT, DEC, STR, DATE }

    record Col(String name, Kind kind, List<Object> samples) {}

    record Table(String name, String pk, String key, List<Col> cols) {
        Col col(String n) {
            for (Col c : cols) {
                if (c.name().equals(n)) {
                    return c;
                }
            }
            throw new IllegalArgumentException(n);
        }
    }

    private static final List<Object> USER_IDS = List.of(-1000L, -3L, -2L, -1L, 0L, 1L, 2L, 3L, 4L, 5L, 7L, 10L, 13L, 42L,
            64L, 100L, 150L, 193L, 194L, 4_294_967_296L, 9_007_199_254_740_993L, Long.MAX_VALUE, 900_000_001L);
    private static final List<Object> STATUSES = List.of("paid", "Paid", "new", "shipped", "cancelled", "PAID", "nope");
    private static final List<Object> AMOUNTS = List.of(new BigDecimal("0.00"), new BigDecimal("19.99"), 100, new BigDecimal("500.5"),
            -3, 999, new BigDecimal("250.00"));
    private static final List<Object> DATES = List.of("2024-01-01", "2024-06-15 12:00:00", "2025-01-01", "2025-06-01 12:00:00",
            "2025-07-01", "2025-12-31 23:59:59", "2026-01-01", "2026-06-30", "2027-01-01", "2023-05-05");

    static final List<Table> TABLES = List.of(
            new Table("orders", "order_id", "user_id", List.of(
                    new Col("order_id", Kind.INT, List.of(100_001L, 100_250L, 100_500L, 100_999L, 101_000L, 5L)),
                    new Col("user_id", Kind.INT, USER_IDS),
                    new Col("status", Kind.STR, STATUSES),
                    new Col("amount", Kind.DEC, AMOUNTS),
                    new Col("created_at", Kind.DATE, DATES))),
            new Table("order_items", "item_id", "user_id", List.of(
                    new Col("item_id", Kind.INT, List.of(1L, 500L, 1500L, 2999L, 4000L)),
                    new Col("order_id", Kind.INT, List.of(100_001L, 100_300L, 100_777L)),
                    new Col("user_id", Kind.INT, USER_IDS),
                    new Col("sku", Kind.STR, List.of("SKU-1000", "sku-1000", "SKU-1150", "SKU-1299", "SKU-2000")),
                    new Col("quantity", Kind.INT, List.of(1, 2, 3, 5, 100)),
                    new Col("price", Kind.DEC, List.of(new BigDecimal("0.99"), 50, new BigDecimal("100.50"), 199)))),
            new Table("users", "user_id", "user_id", List.of(
                    new Col("user_id", Kind.INT, USER_IDS),
                    new Col("name", Kind.STR, List.of("apple", "APPLE", "bob", "Zoë", "zoe", "", "aaron", "Émile", "李雷")),
                    new Col("email", Kind.STR, List.of("user1@example.com", "user7@mail.test", "USER9@EXAMPLE.COM")),
                    new Col("country_code", Kind.STR, List.of("DE", "de", "US", "ZZ", "fr")),
                    new Col("created_at", Kind.DATE, DATES))),
            new Table("events", "id", "created_at", List.of(
                    new Col("id", Kind.INT, List.of(1L, 4L, 100L, 250L, 499L, 500L)),
                    new Col("created_at", Kind.DATE, DATES),
                    new Col("kind", Kind.STR, List.of("view", "View", "click", "purchase", "signup")))),
            new Table("sbtest1", "id", "id", List.of(
                    new Col("id", Kind.INT, List.of(1L, 2L, 10L, 77L, 500L, 999L, 1000L, 1001L, -1L)),
                    new Col("k", Kind.INT, List.of(1L, 250L, 500L, 750L, 1000L)),
                    new Col("c", Kind.STR, List.of("1", "5", "00", "9")),
                    new Col("pad", Kind.STR, List.of("2", "33")))),
            new Table("small", "id", "id", List.of(
                    new Col("id", Kind.INT, List.of(0L, 1L, 2L, 3L, 4L)),
                    new Col("category", Kind.STR, List.of("books", "Hardware", "software", "toys")))));

    private final Random r;
    /** Draws added after the corpus was fixed, apart from {@link #r} so that the statements {@code r} draws stay the same. */
    private final Random side;
    private List<Object> params;

    RandomCorpus(long seed) {
        r = new Random(seed);
        side = new Random(~seed);
    }

    static List<OracleCase> generate(int count) {
        RandomCorpus g = new RandomCorpus(SEED);
        List<OracleCase> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(g.next());
        }
        return out;
    }

    /** Seeds of the issue-12 shapes: their own streams, so the reads above stay the statements they were. */
    static final long SHAPES_SEED = 0x5_4A9E_2026L;
    static final long WRITES_SEED = 0x3_717E_2026L;

    /**
     * Reads of issue 12's other shapes across shards: SELECT DISTINCT * (ordered by the primary key
     * when limited), ORDER BY ... COLLATE utf8mb4_bin and the BINARY operator on a string column
     * (then the primary key), BINARY in WHERE.
     */
    static List<OracleCase> generateShapes(int count) {
        RandomCorpus g = new RandomCorpus(SHAPES_SEED);
        List<OracleCase> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(g.nextShape());
        }
        return out;
    }

    private OracleCase nextShape() {
        Table t = TABLES.get(r.nextInt(TABLES.size()));
        params = r.nextInt(5) == 0 ? new ArrayList<>() : null;
        StringBuilder sql = new StringBuilder();
        List<Col> strings = strings(t);
        int shape = r.nextInt(3);
        if (shape == 0 || strings.isEmpty()) {
            sql.append("SELECT DISTINCT * FROM ").append(t.name());
            where(t, sql);
            if (r.nextBoolean()) {
                sql.append(" ORDER BY ").append(t.pk()).append(r.nextBoolean() ? " DESC" : "");
                limit(sql);
            }
        } else {
            Col s = pick(strings);
            String expr = shape == 1 ? s.name() + " COLLATE utf8mb4_bin" : "BINARY " + s.name();
            sql.append("SELECT ").append(t.pk()).append(", ").append(s.name()).append(" FROM ").append(t.name());
            if (r.nextInt(3) == 0) {
                sql.append(" WHERE BINARY ").append(s.name()).append(" = ").append(value(s));
            } else {
                where(t, sql);
            }
            sql.append(" ORDER BY ").append(expr).append(r.nextBoolean() ? " DESC" : "").append(", ").append(t.pk());
            limit(sql);
        }
        return new OracleCase("random-shape", sql.toString(), params, false, false);
    }

    static final long FEDERATED_SEED = 0x13_FED_2026L;

    /**
     * Issue 13's shapes, which only the federated tier answers across shards: derived tables, [NOT] IN
     * subqueries (with NULLs on either side), [NOT] EXISTS correlated on a non-key column, scalar
     * subqueries, UNION [ALL] inside a derived table, window functions ordered by the primary key last,
     * and joins of sharded tables on columns that are not their keys. Results are counts, sums or rows
     * whose order is fixed by the primary key, so exactly one answer is right.
     */
    static List<OracleCase> generateFederated(int count) {
        RandomCorpus g = new RandomCorpus(FEDERATED_SEED);
        List<OracleCase> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(g.nextFederated());
        }
        return out;
    }

    private OracleCase nextFederated() {
        Table t = TABLES.get(r.nextInt(TABLES.size()));
        Table u = TABLES.get(r.nextInt(TABLES.size()));
        params = r.nextInt(5) == 0 ? new ArrayList<>() : null;
        StringBuilder sql = new StringBuilder();
        Col ti = ofKind(t, Kind.INT);
        Col ui = ofKind(u, Kind.INT);
        switch (r.nextInt(7)) {
            case 0 -> {
                Col x = pick(t.cols());
                sql.append("SELECT COUNT(*), COUNT(DISTINCT x) FROM (SELECT ").append(r.nextBoolean() ? "DISTINCT " : "")
                        .append(x.name()).append(" x FROM ").append(t.name());
                where(t, sql);
                sql.append(") d");
            }
            case 1 -> {
                sql.append("SELECT COUNT(*) FROM ").append(t.name()).append(" WHERE ").append(ti.name())
                        .append(r.nextBoolean() ? " NOT IN" : " IN").append(" (SELECT ").append(ui.name()).append(" FROM ").append(u.name());
                where(u, sql);
                sql.append(")");
            }
            case 2 -> {
                sql.append("SELECT COUNT(*) FROM ").append(t.name()).append(" a WHERE ").append(r.nextBoolean() ? "NOT " : "")
                        .append("EXISTS (SELECT 1 FROM ").append(u.name()).append(" b WHERE b.").append(ui.name()).append(" = a.")
                        .append(ti.name());
                if (r.nextBoolean()) {
                    sql.append(" AND b.").append(u.pk()).append(" > ").append(value(u.col(u.pk())));
                }
                sql.append(")");
            }
            case 3 -> {
                Col n = ofKind(t, r.nextBoolean() ? Kind.DEC : Kind.INT);
                Col m = ofKind(u, r.nextBoolean() ? Kind.DEC : Kind.INT);
                sql.append("SELECT ").append(t.pk()).append(", ").append(n.name()).append(" FROM ").append(t.name()).append(" WHERE ")
                        .append(n.name()).append(r.nextBoolean() ? " > " : " <= ").append("(SELECT AVG(").append(m.name()).append(") FROM ")
                        .append(u.name()).append(")").append(" ORDER BY ").append(t.pk());
                limit(sql);
            }
            case 4 -> {
                sql.append("SELECT COUNT(*), SUM(v) FROM (SELECT ").append(ti.name()).append(" v FROM ").append(t.name());
                where(t, sql);
                sql.append(r.nextBoolean() ? " UNION ALL" : " UNION").append(" SELECT ").append(ui.name()).append(" FROM ").append(u.name());
                where(u, sql);
                sql.append(") x");
            }
            case 5 -> {
                Col n = ofKind(t, r.nextBoolean() ? Kind.DEC : Kind.INT);
                Col o = pick(t.cols());
                String fn = switch (r.nextInt(4)) {
                    case 0 -> "ROW_NUMBER()";
                    case 1 -> "RANK()";
                    case 2 -> "LAG(" + n.name() + ")";
                    default -> "SUM(" + n.name() + ")";
                };
                sql.append("SELECT ").append(t.pk()).append(", ").append(fn).append(" OVER (")
                        .append(r.nextBoolean() ? "PARTITION BY " + ti.name() + " " : "").append("ORDER BY ").append(o.name())
                        .append(", ").append(t.pk()).append(") w FROM ").append(t.name());
                where(t, sql);
            }
            default -> {
                Col n = ofKind(t, r.nextBoolean() ? Kind.DEC : Kind.INT);
                sql.append("SELECT COUNT(*), SUM(a.").append(n.name()).append(") FROM ").append(t.name()).append(" a ")
                        .append(r.nextBoolean() ? "JOIN " : "LEFT JOIN ").append(u.name()).append(" b ON b.").append(ui.name())
                        .append(" = a.").append(ti.name());
                if (r.nextBoolean()) {
                    sql.append(" WHERE a.").append(t.pk()).append(" < ").append(value(t.col(t.pk())));
                }
            }
        }
        return new OracleCase("random-federated", sql.toString(), params, false, false);
    }

    static final long CORRELATED_SEED = 0x13_C0_2E1_2026L;

    /**
     * Subqueries that correlate on the sharding key of bound tables (orders, order_items, users by user_id),
     * and subqueries over the broadcast countries: each node answers its own rows' subqueries, so most run per
     * node through the merger, and the rest (sorted by, aggregated over) through the federated tier. [NOT] EXISTS,
     * [NOT] IN (NULLs on either side), scalar comparisons and select items, under a scatter, a multi-point or a
     * point route, plain or grouped; rows ordered by the primary key when limited.
     */
    static List<OracleCase> generateCorrelated(int count) {
        RandomCorpus g = new RandomCorpus(CORRELATED_SEED);
        List<OracleCase> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(g.nextCorrelated());
        }
        return out;
    }

    private OracleCase nextCorrelated() {
        Table t = TABLES.get(r.nextInt(3));
        Table u = TABLES.get(r.nextInt(3));
        params = r.nextInt(5) == 0 ? new ArrayList<>() : null;
        StringBuilder sql = new StringBuilder();
        boolean ci = false;
        String groupBy = "";
        Col n = ofKind(t, r.nextBoolean() ? Kind.DEC : Kind.INT);
        Col m = ofKind(u, r.nextBoolean() ? Kind.DEC : Kind.INT);
        int shape = r.nextInt(6);
        switch (shape) {
            case 0 -> {
                sql.append(r.nextBoolean() ? "SELECT COUNT(*) FROM " : "SELECT a." + t.pk() + ", a." + n.name() + " FROM ").append(t.name())
                        .append(" a WHERE ").append(r.nextBoolean() ? "NOT " : "").append("EXISTS (SELECT 1 FROM ").append(u.name())
                        .append(" b WHERE ").append(correlation(t, u)).append(")");
            }
            case 1 -> {
                String fn = pick(List.of("AVG", "MAX", "MIN", "SUM"));
                sql.append("SELECT a.").append(t.pk()).append(", a.").append(n.name()).append(" FROM ").append(t.name()).append(" a WHERE a.")
                        .append(n.name()).append(r.nextBoolean() ? " > " : " <= ").append("(SELECT ").append(fn).append("(b.").append(m.name())
                        .append(") FROM ").append(u.name()).append(" b WHERE ").append(correlation(t, u)).append(")");
            }
            case 2 -> {
                String fn = pick(List.of("COUNT(*)", "SUM(b." + m.name() + ")", "MAX(b." + m.name() + ")", "COUNT(DISTINCT b." + m.name() + ")"));
                sql.append("SELECT a.").append(t.pk()).append(", (SELECT ").append(fn).append(" FROM ").append(u.name()).append(" b WHERE ")
                        .append(correlation(t, u)).append(") AS v FROM ").append(t.name()).append(" a");
            }
            case 3 -> {
                Col x = ofKind(t, Kind.INT);
                Col y = ofKind(u, Kind.INT);
                sql.append("SELECT COUNT(*) FROM ").append(t.name()).append(" a WHERE a.").append(x.name()).append(r.nextBoolean() ? " NOT IN" : " IN")
                        .append(" (SELECT b.").append(y.name()).append(" FROM ").append(u.name()).append(" b WHERE ").append(correlation(t, u))
                        .append(")");
            }
            case 4 -> {
                Col g = pick(t.cols());
                ci = g.kind() == Kind.STR;
                sql.append("SELECT a.").append(g.name()).append(", COUNT(*), SUM(a.").append(n.name()).append(") FROM ").append(t.name())
                        .append(" a WHERE ").append(r.nextBoolean() ? "NOT " : "").append("EXISTS (SELECT 1 FROM ").append(u.name())
                        .append(" b WHERE ").append(correlation(t, u)).append(")");
                groupBy = " GROUP BY a." + g.name();
            }
            default -> {
                t = TABLES.get(2);
                sql.append("SELECT a.user_id, (SELECT c.name FROM countries c WHERE c.code = a.country_code) AS cn FROM users a WHERE a.country_code")
                        .append(r.nextBoolean() ? " NOT IN" : " IN").append(" (SELECT code FROM countries WHERE name < ")
                        .append(lit(pick(List.of("G", "M", "T")))).append(")");
            }
        }
        if (r.nextInt(3) == 0) { // a point or multi-point route instead of a scatter
            Col key = t.col(t.key());
            sql.append(sql.indexOf(" a WHERE ") >= 0 && shape != 2 ? " AND a." : " WHERE a.").append(key.name());
            sql.append(r.nextBoolean() ? " = " + value(key) : " IN (" + value(key) + ", " + value(key) + ", " + value(key) + ")");
        }
        sql.append(groupBy);
        if (shape != 3 && shape != 4 && !sql.toString().startsWith("SELECT COUNT(*) FROM") && r.nextBoolean()) {
            sql.append(" ORDER BY a.").append(t.pk());
            limit(sql);
        }
        return new OracleCase("random-correlated", sql.toString(), params, false, ci);
    }

    /** The inner WHERE: the inner table's key equated with the outer one's (either side first), maybe one more condition. */
    private String correlation(Table t, Table u) {
        String eq = r.nextBoolean() ? "b." + u.key() + " = a." + t.key() : "a." + t.key() + " = b." + u.key();
        return switch (r.nextInt(3)) {
            case 0 -> eq;
            case 1 -> {
                Col c = pick(u.cols());
                yield eq + " AND b." + c.name() + (r.nextBoolean() ? " <> " : " = ") + value(c);
            }
            default -> t == u ? eq + " AND b." + u.pk() + " <> a." + t.pk() : eq + " AND b." + ofKind(u, Kind.INT).name() + " > " + lit(r.nextInt(50));
        };
    }

    /** A column of that kind (INT or DEC), else any numeric one: every table has an integer key. */
    private Col ofKind(Table t, Kind kind) {
        List<Col> cols = new ArrayList<>();
        for (Col c : t.cols()) {
            if (c.kind() == kind) {
                cols.add(c);
            }
        }
        if (cols.isEmpty()) {
            return t.col(t.pk());
        }
        return pick(cols);
    }

    /**
     * Writes MySQL allows and a shard alone cannot answer, each followed by a read of the whole table:
     * UPDATE/DELETE ... ORDER BY (a column, then the primary key, so one set of rows is right) LIMIT n,
     * INSERT ... SELECT copying rows of the table under new primary keys, INSERT ... SET.
     */
    static List<OracleCase> generateWrites(int count) {
        RandomCorpus g = new RandomCorpus(WRITES_SEED);
        List<OracleCase> out = new ArrayList<>(2 * count);
        for (int i = 0; i < count; i++) {
            Table t = WRITABLE.get(g.r.nextInt(WRITABLE.size()));
            out.add(g.nextWrite(t, i));
            out.add(read(t));
        }
        return out;
    }

    /**
     * Writes of a sharding key (the rows move between nodes) and multi-table writes — joins that meet on
     * one node (one or two targets) and joins that do not (one target, the federated write tier) — each
     * followed by a read of every table it may change. The joins match each target row with at most one
     * row it reads a value from, so the value MySQL writes does not depend on its join order.
     */
    static List<OracleCase> generateMovesAndJoins(int count) {
        RandomCorpus g = new RandomCorpus(MOVES_SEED);
        List<OracleCase> out = new ArrayList<>(3 * count);
        for (int i = 0; i < count; i++) {
            g.params = g.r.nextInt(5) == 0 ? new ArrayList<>() : null;
            if (g.r.nextBoolean()) {
                g.keyMove(out, i);
            } else {
                g.multiTable(out, i);
            }
        }
        // shapes the first seed's draws predate (kept apart so that its sequence stays as it was)
        RandomCorpus h = new RandomCorpus(MOVES_SEED + 1);
        for (int i = 0; i < count / 2; i++) {
            h.params = h.r.nextInt(5) == 0 ? new ArrayList<>() : null;
            h.selfJoinOrDerived(out);
        }
        // multi-table shapes once refused across nodes (apart again, so that both sequences above stay as they were)
        RandomCorpus k = new RandomCorpus(MOVES_SEED + 2);
        for (int i = 0; i < count / 2; i++) {
            k.params = k.r.nextInt(3) == 0 ? new ArrayList<>() : null;
            k.movedOrBroadcastJoin(out);
        }
        // primary keys assigned with the sharding key (apart again, so that the sequences above stay as they were)
        RandomCorpus m = new RandomCorpus(MOVES_SEED + 3);
        for (int i = 0; i < count / 2; i++) {
            m.params = m.r.nextInt(3) == 0 ? new ArrayList<>() : null;
            m.keyShift(out, i);
        }
        return out;
    }

    /**
     * A multi-table UPDATE of a sharding column (co-located, or on the third tier), a broadcast target joined with a
     * single table, or an unqualified SET column of a derived table's that takes a value ({@code ?} when prepared). Each
     * target row meets at most one row it reads a value from.
     */
    private void movedOrBroadcastJoin(List<OracleCase> out) {
        StringBuilder sql = new StringBuilder();
        Table changed;
        switch (r.nextInt(4)) {
            case 0 -> { // co-located, moved after the in-place write
                changed = table("orders");
                sql.append("UPDATE orders o JOIN users u ON u.user_id = o.user_id SET o.user_id = o.user_id + ").append(lit(1 + r.nextInt(3)));
                qualifiedWhere(sql, r.nextBoolean() ? "u" : "o", r.nextBoolean() ? table("users") : changed);
            }
            case 1 -> { // joined off the key: in place on the third tier, then moved
                changed = table("order_items");
                sql.append("UPDATE order_items i JOIN sbtest1 s ON s.id = i.quantity SET i.user_id = MOD(s.k, ").append(lit(40))
                        .append(") + i.user_id");
                qualifiedWhere(sql, "i", changed);
            }
            case 2 -> { // a broadcast target joined with a single table: every copy written as one MySQL writes it
                changed = new Table("countries", "code", "code", List.of());
                sql.append("UPDATE countries c JOIN promotions p ON p.id = ").append(lit(1 + r.nextInt(10)))
                        .append(" SET c.name = CONCAT(LEFT(c.name, 6), '-', p.id) WHERE c.code ").append(r.nextBoolean() ? "< " : ">= ")
                        .append(lit(pick(List.of("C", "G", "M", "S"))));
            }
            default -> { // the derived table's columns read with its values bound
                changed = table("users");
                sql.append("UPDATE users u JOIN (SELECT user_id AS uid, COUNT(*) AS w FROM orders WHERE amount > ").append(lit(pick(AMOUNTS)))
                        .append(" GROUP BY user_id) d ON d.uid = u.user_id SET ").append(r.nextBoolean() ? "email" : "name")
                        .append(" = CONCAT('w', w) WHERE w > ").append(lit(r.nextInt(3)));
            }
        }
        out.add(new OracleCase("random-multi-table", sql.toString(), params, false, false));
        out.add(read(changed));
    }

    /**
     * A multi-table write across nodes whose target is joined with itself after another reference to it (aliases
     * either way round), or whose unqualified SET column is resolved among a derived table's columns.
     */
    private void selfJoinOrDerived(List<OracleCase> out) {
        StringBuilder sql = new StringBuilder();
        Table changed;
        switch (r.nextInt(5)) {
            case 4 -> { // a key move whose new key is a subquery's, correlated or not, over sharded, single or broadcast tables
                changed = table("orders");
                sql.append("UPDATE orders o SET o.user_id = ").append(switch (r.nextInt(3)) {
                    case 0 -> "(SELECT MAX(u.user_id) FROM users u WHERE u.user_id < o.user_id + 3)";
                    case 1 -> "(SELECT MIN(i.user_id) FROM order_items i WHERE i.order_id = o.order_id) + 1";
                    default -> "o.user_id + (SELECT COUNT(*) FROM promotions)";
                });
                qualifiedWhere(sql, "o", changed);
            }
            case 0 -> {
                changed = table("sbtest1");
                sql.append("UPDATE sbtest1 b JOIN sbtest1 a ON b.id = a.k + ").append(lit(r.nextInt(3)))
                        .append(" SET a.pad = b.c, a.k = b.k + ").append(lit(1));
                qualifiedWhere(sql, r.nextBoolean() ? "a" : "b", changed);
            }
            case 1 -> {
                changed = table("orders");
                boolean comma = r.nextBoolean();
                sql.append(comma ? "UPDATE orders x, orders SET orders.amount = x.amount + " : "UPDATE orders x JOIN orders ON orders.order_id = x.order_id + ")
                        .append(lit(1 + r.nextInt(4)));
                if (comma) {
                    sql.append(" WHERE orders.order_id = x.order_id + ").append(lit(1));
                } else {
                    sql.append(" SET orders.status = x.status");
                }
            }
            case 2 -> {
                changed = table("order_items");
                sql.append(r.nextBoolean() ? "DELETE b FROM order_items a JOIN order_items b" : "DELETE FROM b USING order_items a JOIN order_items b")
                        .append(" ON b.item_id = a.quantity + ").append(lit(r.nextInt(5)));
                qualifiedWhere(sql, "a", changed);
            }
            default -> {
                changed = table("users");
                sql.append("UPDATE users u JOIN (SELECT user_id AS uid, ").append(r.nextBoolean() ? "MAX(amount)" : "COUNT(*)")
                        .append(" AS v FROM orders GROUP BY user_id) d ON d.uid = u.user_id SET ")
                        .append(r.nextBoolean() ? "email = CONCAT('v', v)" : "name = CONCAT('d', v)").append(" WHERE v > ")
                        .append(lit(r.nextInt(3)));
            }
        }
        out.add(new OracleCase("random-multi-table", sql.toString(), params, false, false));
        out.add(read(changed));
    }

    private static final long MOVES_SEED = 0x0A_C1E_2026L;

    private static OracleCase read(Table t) {
        return new OracleCase("random-write", "SELECT * FROM " + t.name() + " ORDER BY " + t.pk(), null, false, false);
    }

    private static Table table(String name) {
        for (Table t : TABLES) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException(name);
    }

    /**
     * An UPDATE assigning a primary key that is the sharding key (users, sbtest1: a small shift, so rows take keys other
     * chosen rows or untouched rows may hold) or is not (orders: shifted within the chosen range, the last row far away,
     * and the sharding key too), in the primary key's order or the statement's ORDER BY — MySQL checks the key row by
     * row, so whether it fails with 1062 depends on that order; or a multi-table UPDATE of users' key (co-located, each
     * user met once per order with one new key).
     */
    private void keyShift(List<OracleCase> out, int i) {
        StringBuilder sql = new StringBuilder();
        Table t;
        switch (r.nextInt(3)) {
            case 0 -> {
                t = table(r.nextBoolean() ? "users" : "sbtest1");
                String k = t.pk();
                long from = r.nextInt(190);
                sql.append("UPDATE ").append(t.name()).append(" SET ").append(k).append(" = ").append(k).append(" + ").append(lit(1 + r.nextInt(4)))
                        .append(" WHERE ").append(k).append(" BETWEEN ").append(lit(from)).append(" AND ").append(lit(from + r.nextInt(6)));
                switch (r.nextInt(3)) {
                    case 0 -> sql.append(" ORDER BY ").append(k).append(" DESC");
                    case 1 -> sql.append(" ORDER BY ").append(k);
                    default -> { }
                }
            }
            case 1 -> {
                t = table("orders");
                long from = 100_001L + r.nextInt(990);
                long to = from + r.nextInt(5);
                sql.append("UPDATE orders SET order_id = IF(order_id = ").append(lit(to)).append(", order_id + ")
                        .append(lit(9_000_000L * (i + 1))).append(", order_id + 1), user_id = user_id + ").append(lit(1 + r.nextInt(5)))
                        .append(" WHERE order_id BETWEEN ").append(lit(from)).append(" AND ").append(lit(to));
                if (r.nextBoolean()) {
                    sql.append(" ORDER BY order_id DESC");
                }
            }
            default -> {
                t = table("users");
                sql.append("UPDATE users u JOIN orders o ON o.user_id = u.user_id SET u.user_id = u.user_id + ")
                        .append(lit(3_000_000_000L + 1_000_000L * i)).append(", u.name = 'shifted' WHERE o.amount > ").append(lit(pick(AMOUNTS)));
            }
        }
        // a new key taken by a row the statement leaves alone is found by that key's node, written in parallel with the
        // others: the duplicate it names may be another row's than MySQL's first (the errno and SQLSTATE are MySQL's)
        out.add(new OracleCase("random-key-shift", sql.toString(), params, false, false,
                "several rows may meet a duplicate; the one reported follows the order the nodes are written in"));
        out.add(read(t));
    }

    private void keyMove(List<OracleCase> out, int i) {
        StringBuilder sql = new StringBuilder();
        Table t;
        switch (r.nextInt(4)) {
            case 0, 1 -> {
                // orders and order_items: the key is not the primary key, so no move can collide
                t = table(r.nextBoolean() ? "orders" : "order_items");
                sql.append("UPDATE ").append(t.name()).append(" SET user_id = ");
                sql.append(r.nextBoolean() ? value(t.col("user_id")) : "user_id + " + lit(1 + r.nextInt(7)));
                if (r.nextBoolean()) {
                    sql.append(", ").append(assignment(t, i));
                }
                where(t, sql);
                if (r.nextInt(3) == 0) {
                    orderLimit(t, sql, 5, false);
                }
            }
            default -> {
                // the key is the primary key: moved by an offset no other statement uses, over rows whose keys stay in range
                t = table(r.nextBoolean() ? "users" : "sbtest1");
                String k = t.pk();
                sql.append("UPDATE ").append(t.name()).append(" SET ").append(k).append(" = ").append(k).append(" + ")
                        .append(lit(1_000_000L * (i + 1))).append(" WHERE ").append(k).append(" BETWEEN ").append(lit(-5))
                        .append(" AND ").append(lit(200 + r.nextInt(900)));
                if (r.nextBoolean()) {
                    Col c = pick(t.cols());
                    sql.append(r.nextBoolean() ? " AND " : " AND NOT ").append('(').append(predicate(c)).append(')');
                }
            }
        }
        out.add(new OracleCase("random-key-move", sql.toString(), params, false, false));
        out.add(read(t));
    }

    private void multiTable(List<OracleCase> out, int i) {
        Table orders = table("orders");
        Table items = table("order_items");
        Table users = table("users");
        Table sbtest = table("sbtest1");
        StringBuilder sql = new StringBuilder();
        List<Table> changed = new ArrayList<>();
        switch (r.nextInt(7)) {
            case 0 -> { // two targets on one node
                sql.append("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id SET o.amount = o.amount + ")
                        .append(lit(1)).append(", i.quantity = i.quantity + ").append(lit(1));
                qualifiedWhere(sql, "i", items);
                changed.add(orders);
                changed.add(items);
            }
            case 1 -> { // a value read from the other table, one row per target row (users by its primary key)
                sql.append("UPDATE orders o JOIN users u ON u.user_id = o.user_id SET o.status = u.country_code");
                qualifiedWhere(sql, r.nextBoolean() ? "u" : "o", r.nextBoolean() ? users : orders);
                changed.add(orders);
            }
            case 2 -> {
                sql.append(r.nextBoolean() ? "DELETE i FROM order_items i JOIN orders o ON o.user_id = i.user_id AND o.order_id = i.order_id"
                        : "DELETE FROM i USING order_items i JOIN orders o ON o.user_id = i.user_id AND o.order_id = i.order_id");
                qualifiedWhere(sql, "o", orders);
                changed.add(items);
            }
            case 3 -> { // not on one node: joined off the key, one target
                sql.append("UPDATE orders o JOIN order_items i ON i.order_id = o.order_id SET o.amount = o.amount + ").append(lit(2));
                qualifiedWhere(sql, "i", items);
                changed.add(orders);
            }
            case 4 -> {
                sql.append("UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET s.k = s.k + ").append(lit(1 + r.nextInt(3)));
                qualifiedWhere(sql, "i", items);
                changed.add(sbtest);
            }
            case 5 -> { // a value read from the other table: sbtest1 by its primary key
                sql.append("UPDATE users u ").append(r.nextBoolean() ? "LEFT " : "").append("JOIN sbtest1 s ON s.id = u.user_id SET u.email = CONCAT(")
                        .append(lit("s")).append(", s.k)");
                qualifiedWhere(sql, "u", users);
                changed.add(users);
            }
            default -> {
                sql.append("DELETE s FROM sbtest1 s JOIN orders o ON o.user_id = s.id");
                qualifiedWhere(sql, "o", orders);
                changed.add(sbtest);
            }
        }
        out.add(new OracleCase("random-multi-table", sql.toString(), params, false, false));
        for (Table t : changed) {
            out.add(read(t));
        }
    }

    /** One or two predicates over one table's columns, qualified by its alias. */
    private void qualifiedWhere(StringBuilder sql, String alias, Table t) {
        int n = r.nextInt(3);
        for (int k = 0; k < n; k++) {
            Col c = pick(t.cols());
            sql.append(k == 0 ? " WHERE " : r.nextInt(3) == 0 ? " OR " : " AND ")
                    .append(predicate(new Col(alias + "." + c.name(), c.kind(), c.samples())));
        }
    }

    /** Tables the writes change: sharded by mod, hash and interval (the single and broadcast ones have their hand cases). */
    private static final List<Table> WRITABLE = List.of(TABLES.get(0), TABLES.get(1), TABLES.get(2), TABLES.get(3), TABLES.get(4));

    private OracleCase nextWrite(Table t, int i) {
        params = r.nextInt(5) == 0 ? new ArrayList<>() : null;
        StringBuilder sql = new StringBuilder();
        switch (r.nextInt(6)) {
            case 0, 1, 2 -> {
                sql.append("UPDATE ").append(t.name()).append(" SET ").append(assignment(t, i));
                where(t, sql);
                orderLimit(t, sql, 12, true);
            }
            case 3 -> {
                sql.append("DELETE FROM ").append(t.name());
                where(t, sql);
                orderLimit(t, sql, 3, true);
            }
            case 4 -> {
                // copies under new primary keys, unique per statement
                long offset = 10_000_000L * (i + 1);
                // every third one ON DUPLICATE KEY UPDATE (chosen by index: the draws of the others stay the same): even keys
                // meet their own rows and update them, odd ones are copied
                boolean update = i % 3 == 1;
                String shift = update ? " + IF(" + t.pk() + " % 2 = 0, 0, " + offset + ")" : " + " + offset;
                sql.append("INSERT INTO ").append(t.name()).append(" (");
                StringBuilder select = new StringBuilder();
                for (int c = 0; c < t.cols().size(); c++) {
                    Col col = t.cols().get(c);
                    sql.append(c == 0 ? "" : ", ").append(col.name());
                    select.append(c == 0 ? "" : ", ").append(col.name().equals(t.pk()) ? col.name() + shift : col.name());
                }
                sql.append(") SELECT ").append(select).append(" FROM ").append(t.name()).append(update ? " s" : "");
                where(t, sql);
                if (r.nextBoolean()) {
                    sql.append(" ORDER BY ").append(t.pk()).append(" LIMIT ").append(lit(1 + r.nextInt(8)));
                } else if (t.name().equals("sbtest1")) {
                    sql.append(" ORDER BY ").append(t.pk()); // AUTO_INCREMENT: the insert id is the last row's
                }
                if (update) {
                    // the target's columns, VALUES(col) and the SELECT's (s.col) as MySQL resolves them
                    sql.append(" ON DUPLICATE KEY UPDATE ").append(switch (t.name()) {
                        case "orders" -> "status = CONCAT(IFNULL(s.status, '-'), 'd'), amount = orders.amount + 1";
                        case "order_items" -> "quantity = order_items.quantity + s.quantity";
                        case "users" -> "name = CONCAT(IFNULL(users.name, ''), '~'), email = VALUES(email)";
                        case "events" -> "kind = CONCAT(IFNULL(s.kind, ''), '!')";
                        default -> "k = " + t.name() + ".k + VALUES(k), c = s.pad";
                    });
                }
            }
            default -> {
                if (t.name().equals("events")) {
                    sql.append("UPDATE events SET kind = ").append(lit("set" + i)).append(" ORDER BY id DESC LIMIT ").append(lit(1));
                } else {
                    insertSet(t, sql, i);
                }
            }
        }
        return new OracleCase("random-write", sql.toString(), params, false, false);
    }

    private void insertSet(Table t, StringBuilder sql, int i) {
        long key = 20_000_000L + i;
        sql.append("INSERT INTO ").append(t.name()).append(" SET ");
        switch (t.name()) {
            case "orders" -> sql.append("order_id = ").append(key).append(", user_id = ").append(value(t.col("user_id")))
                    .append(", status = ").append(value(t.col("status"))).append(", created_at = ").append(lit("2025-03-0" + (1 + i % 9)));
            case "order_items" -> sql.append("item_id = ").append(key).append(", order_id = 1, user_id = ").append(value(t.col("user_id")))
                    .append(", sku = ").append(value(t.col("sku"))).append(", quantity = ").append(lit(1)).append(", price = ").append(lit(2));
            case "users" -> sql.append("user_id = ").append(key).append(", name = ").append(value(t.col("name")));
            default -> sql.append("id = ").append(key % 1_000_000 + 3000).append(", k = ").append(lit(7)).append(", c = ")
                    .append(value(t.col("c"))).append(", pad = ").append(lit("p"));
        }
    }

    /** A SET over columns other than the sharding key. */
    private String assignment(Table t, int i) {
        return switch (t.name()) {
            case "orders" -> r.nextBoolean() ? "status = " + lit("w" + i) : "amount = amount + " + lit(1);
            case "order_items" -> r.nextBoolean() ? "quantity = quantity + " + lit(1) : "sku = CONCAT(sku, " + lit("-w") + ")";
            case "users" -> r.nextBoolean() ? "name = CONCAT(name, " + lit("+") + ")" : "email = NULL";
            case "events" -> "kind = " + lit("w" + i);
            default -> r.nextBoolean() ? "k = k + " + lit(1) : "c = " + lit("w" + i);
        };
    }

    /** {@code subquery}: the order may begin with a subquery (not in a key move, whose choice takes another path). */
    private void orderLimit(Table t, StringBuilder sql, int most, boolean subquery) {
        sql.append(" ORDER BY ");
        if (subquery && side.nextInt(4) == 0) {
            // a correlated subquery over another sharded table: the rows are chosen by the federated tier, then written by key
            String other = t.name().equals("order_items") ? "(SELECT MAX(x.amount) FROM orders x" : "(SELECT MAX(x.quantity) FROM order_items x";
            sql.append(other).append(" WHERE x.user_id = MOD(").append(t.name()).append('.').append(t.pk()).append(", 50))")
                    .append(side.nextBoolean() ? " DESC" : "").append(", ");
        }
        Col c = pick(t.cols());
        if (!c.name().equals(t.pk())) {
            sql.append(c.name()).append(r.nextBoolean() ? " DESC" : "").append(", ");
        }
        sql.append(t.pk()).append(r.nextInt(3) == 0 ? " DESC" : "").append(" LIMIT ").append(lit(r.nextInt(most + 1)));
    }

    private static List<Col> strings(Table t) {
        List<Col> out = new ArrayList<>();
        for (Col c : t.cols()) {
            if (c.kind() == Kind.STR) {
                out.add(c);
            }
        }
        return out;
    }

    OracleCase next() {
        Table t = TABLES.get(r.nextInt(TABLES.size()));
        params = r.nextInt(5) == 0 ? new ArrayList<>() : null;
        StringBuilder sql = new StringBuilder();
        boolean ci;
        int shape = r.nextInt(10);
        if (shape < 4) {
            ci = rows(t, sql);
        } else if (shape < 6) {
            ci = aggregate(t, sql);
        } else if (shape < 9) {
            ci = grouped(t, sql);
        } else {
            ci = distinct(t, sql);
        }
        return new OracleCase("random", sql.toString(), params, false, ci);
    }

    private boolean rows(Table t, StringBuilder sql) {
        sql.append("SELECT ");
        if (r.nextInt(4) == 0) {
            sql.append('*');
        } else {
            List<Col> cols = subset(t.cols());
            for (int i = 0; i < cols.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append(cols.get(i).name());
            }
        }
        sql.append(" FROM ").append(t.name());
        where(t, sql);
        if (r.nextInt(3) > 0) {
            sql.append(" ORDER BY ");
            Col c = pick(t.cols());
            if (r.nextInt(4) == 0) {
                // an expression with a literal or parameter, which each shard computes as a hidden column
                sql.append(scalar(t)).append(r.nextBoolean() ? " DESC" : "").append(", ");
            } else if (!c.name().equals(t.pk())) {
                sql.append(c.name()).append(r.nextBoolean() ? " DESC" : "").append(", ");
            }
            sql.append(t.pk()).append(r.nextInt(3) == 0 ? " DESC" : "");
            limit(sql);
        }
        return false;
    }

    private boolean aggregate(Table t, StringBuilder sql) {
        sql.append("SELECT ");
        int n = 1 + r.nextInt(4);
        boolean ci = false;
        Col distinctOver = r.nextBoolean() ? pick(t.cols()) : null;
        for (int i = 0; i < n; i++) {
            sql.append(i == 0 ? "" : ", ");
            ci |= aggregateItem(t, sql, distinctOver);
        }
        sql.append(" FROM ").append(t.name());
        where(t, sql);
        return ci;
    }

    /**
     * A grouped aggregate, ordered (2 times in 3) by one of its aggregates — any kind, DISTINCT ones
     * included — named by position, by alias or by repeating the aggregate, then by the group key so
     * that no two groups tie. (Issue 12: ORDER BY COUNT(DISTINCT ..) was ignored across shards, and this
     * grammar ordered only by position over non-DISTINCT aggregates, so it never saw it.)
     */
    private boolean grouped(Table t, StringBuilder sql) {
        Col g = pick(t.cols());
        boolean ci = g.kind() == Kind.STR;
        String group = g.kind() == Kind.DATE && r.nextBoolean() ? "YEAR(" + g.name() + ")" : g.name();
        Object constant = null;
        String template = null;
        if (r.nextInt(4) == 0) {
            // a group expression with a literal or parameter, repeated in GROUP BY with the same value
            Col n = numeric(t);
            template = pick(List.of(n.name() + " DIV %s", "COALESCE(" + n.name() + ", %s)", n.name() + " * %s"));
            constant = pick(List.of(2, 3, 10, 100));
            ci = false;
        }
        sql.append("SELECT ").append(template == null ? group : template.formatted(lit(constant)));
        int n = 1 + r.nextInt(3);
        Col distinctOver = r.nextBoolean() ? pick(t.cols()) : null;
        List<String> aggregates = new ArrayList<>();
        List<String> aliases = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            sql.append(", ");
            StringBuilder item = new StringBuilder();
            ci |= aggregateItem(t, item, distinctOver);
            String alias = r.nextInt(3) == 0 ? "a" + i : null;
            sql.append(item).append(alias == null ? "" : " AS " + alias);
            aggregates.add(item.toString());
            aliases.add(alias);
        }
        sql.append(" FROM ").append(t.name());
        where(t, sql);
        sql.append(" GROUP BY ").append(template == null ? group : template.formatted(lit(constant)));
        if (r.nextInt(4) == 0) {
            Col h = numeric(t);
            sql.append(" HAVING ").append(switch (r.nextInt(4)) {
                case 0 -> "COUNT(*) > " + lit(pick(List.of(1, 5, 50)));
                case 1 -> "SUM(" + h.name() + " * " + lit(pick(List.of(2, -1))) + ") > " + lit(pick(List.of(0, 1000)));
                // issue 12: a DISTINCT aggregate in HAVING, selected or not
                case 2 -> "COUNT(DISTINCT " + pick(t.cols()).name() + ") > " + lit(pick(List.of(1, 2, 10)));
                // issue 12: expressions over aggregates under AND / OR
                default -> "SUM(" + h.name() + ") / COUNT(*) > " + lit(pick(List.of(0, 100))) + (r.nextBoolean() ? " AND " : " OR ")
                        + "COUNT(*) > " + lit(pick(List.of(1, 3)));
            });
        }
        int order = r.nextInt(3);
        if (order == 1) {
            sql.append(" ORDER BY 1").append(r.nextBoolean() ? " DESC" : "");
            limit(sql);
        } else if (order == 2) {
            int i = r.nextInt(n);
            String key = switch (r.nextInt(4)) {
                case 0 -> Integer.toString(i + 2);
                case 1 -> aliases.get(i) != null ? aliases.get(i) : aggregates.get(i);
                case 2 -> aggregates.get(i);
                default -> {
                    // an aggregate that is not selected, DISTINCT ones included (issue 12)
                    int mark = params == null ? 0 : params.size();
                    StringBuilder unselected = new StringBuilder();
                    boolean strings = aggregateItem(t, unselected, distinctOver);
                    if (unselected.indexOf("?") >= 0) {
                        params.subList(mark, params.size()).clear(); // its text is not used: nor are its values
                        yield Integer.toString(i + 2);
                    }
                    ci |= strings;
                    yield unselected.toString();
                }
            };
            if (key.contains("?")) {
                key = Integer.toString(i + 2); // repeating the text would need its parameters again
            }
            if (key.contains("GROUP_CONCAT") || key.equals(Integer.toString(i + 2)) && aggregates.get(i).contains("GROUP_CONCAT")
                    || aliases.get(i) != null && key.equals(aliases.get(i)) && aggregates.get(i).contains("GROUP_CONCAT")) {
                key = "1"; // ordering groups by a GROUP_CONCAT is refused across shards (1235)
            }
            sql.append(" ORDER BY ").append(key).append(r.nextBoolean() ? " DESC" : "").append(", 1");
            limit(sql);
        }
        return ci;
    }

    private boolean distinct(Table t, StringBuilder sql) {
        List<Col> cols = subset(t.cols());
        if (cols.size() > 2) {
            cols = cols.subList(0, 2);
        }
        boolean ci = false;
        sql.append("SELECT DISTINCT ");
        for (int i = 0; i < cols.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(cols.get(i).name());
            ci |= cols.get(i).kind() == Kind.STR;
        }
        sql.append(" FROM ").append(t.name());
        where(t, sql);
        if (r.nextBoolean()) {
            sql.append(" ORDER BY ");
            for (int i = 0; i < cols.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append(cols.get(i).name()).append(r.nextBoolean() ? " DESC" : "");
            }
            limit(sql);
        }
        return ci;
    }

    /**
     * One aggregate, sometimes (when {@code distinctOver} is given) COUNT/SUM/AVG over the DISTINCT values
     * of that one column; true when its value is a string chosen among collation-equal ones.
     */
    private boolean aggregateItem(Table t, StringBuilder sql, Col distinctOver) {
        if (distinctOver != null && r.nextInt(3) == 0) {
            // issue 12: now and then over another column than the statement's others (several DISTINCT arguments)
            Col d = r.nextInt(3) == 0 ? pick(t.cols()) : distinctOver;
            boolean number = d.kind() == Kind.INT || d.kind() == Kind.DEC;
            String kind = number ? pick(List.of("COUNT", "SUM", "AVG")) : "COUNT";
            // issue 12: COUNT(DISTINCT a, b) now and then, distinct tuples of non-NULL values
            String second = kind.equals("COUNT") && r.nextInt(4) == 0 ? ", " + pick(t.cols()).name() : "";
            sql.append(kind).append("(DISTINCT ").append(d.name()).append(second).append(')');
            return false;
        }
        Col c = pick(t.cols());
        if (r.nextInt(5) == 0) {
            // an argument with literals or parameters, computed by the shards
            Col n = numeric(t);
            switch (r.nextInt(4)) {
                case 0 -> sql.append("SUM(").append(n.name()).append(" * ").append(lit(pick(List.of(2, -1, 3)))).append(')');
                case 1 -> sql.append("AVG(").append(n.name()).append(" + ").append(lit(pick(List.of(1, 10)))).append(')');
                case 2 -> sql.append("SUM(CASE WHEN ").append(c.name()).append(" = ").append(value(c)).append(" THEN 1 ELSE 0 END)");
                default -> sql.append("MAX(COALESCE(").append(n.name()).append(", ").append(lit(0)).append("))");
            }
            return false;
        }
        if (r.nextInt(6) == 0) {
            sql.append(aggregateExpression(t, distinctOver));
            return false;
        }
        if (r.nextInt(4) == 0) {
            // issue 12: bit aggregates, merged from each shard's own value
            Col n = numeric(t);
            // % rather than *: the sample's keys reach Long.MAX_VALUE, and which overflow a backend reports first is not defined
            String argument = r.nextInt(4) == 0 ? n.name() + " % " + lit(pick(List.of(7, 10, 1000))) : n.name();
            sql.append(pick(List.of("BIT_AND", "BIT_OR", "BIT_XOR"))).append('(').append(argument).append(')');
            return false;
        }
        if (r.nextInt(8) == 0) {
            return groupConcat(t, c, sql);
        }
        if (r.nextInt(8) == 0) {
            // issue 12: the variance family, merged from each shard's COUNT, SUM and VAR_POP
            Col n = numeric(t);
            String argument = r.nextInt(4) == 0 ? n.name() + " % " + lit(pick(List.of(7, 10, 1000))) : n.name();
            sql.append(pick(List.of("STD", "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "VARIANCE", "VAR_POP", "VAR_SAMP")))
                    .append('(').append(argument).append(')');
            return false;
        }
        switch (r.nextInt(6)) {
            case 0 -> sql.append("COUNT(*)");
            case 1 -> sql.append("COUNT(").append(c.name()).append(')');
            case 2 -> sql.append("MIN(").append(c.name()).append(')');
            case 3 -> sql.append("MAX(").append(c.name()).append(')');
            case 4 -> sql.append("SUM(").append(numeric(t).name()).append(')');
            default -> sql.append("AVG(").append(numeric(t).name()).append(')');
        }
        return c.kind() == Kind.STR;
    }

    /**
     * Issue 12: GROUP_CONCAT merged from the shards' pieces, always with an ORDER BY that decides the
     * whole order (MySQL's order without one is unspecified): by the column then the primary key, or
     * for DISTINCT by the argument itself; now and then with a SEPARATOR. True when its text holds
     * strings chosen among collation-equal ones (DISTINCT over a string column).
     */
    private boolean groupConcat(Table t, Col c, StringBuilder sql) {
        boolean distinct = r.nextInt(3) == 0;
        String direction = r.nextBoolean() ? " DESC" : "";
        sql.append("GROUP_CONCAT(").append(distinct ? "DISTINCT " : "").append(c.name()).append(" ORDER BY ").append(c.name())
                .append(direction);
        if (!distinct && !c.name().equals(t.pk())) {
            sql.append(", ").append(t.pk()).append(r.nextBoolean() ? " DESC" : "");
        }
        if (r.nextBoolean()) {
            sql.append(" SEPARATOR ").append(pick(List.of("';'", "''", "' | '")));
        }
        sql.append(')');
        return distinct && c.kind() == Kind.STR;
    }

    /**
     * Issue 12: an expression over aggregates, which the merger evaluates over the merged ones with
     * MySQL's arithmetic (a quotient's intermediate digits, its scale, NULL for x / 0, comparisons as 0/1).
     * No BIGINT difference or product of two aggregates: the sample's keys reach Long.MAX_VALUE.
     */
    private String aggregateExpression(Table t, Col distinctOver) {
        Col n = numeric(t);
        String name = n.name();
        return switch (r.nextInt(8)) {
            case 0 -> "SUM(" + name + ") / COUNT(*)";
            case 1 -> "AVG(" + name + ") * " + lit(pick(List.of(2, 3, -1)));
            case 2 -> n.kind() == Kind.DEC ? "MAX(" + name + ") - MIN(" + name + ")" : "MAX(" + name + ") / " + lit(pick(List.of(3, 7)));
            case 3 -> "COUNT(" + name + ") * " + lit(pick(List.of(2, 10))) + " + " + lit(1);
            case 4 -> "SUM(" + name + ") / COUNT(" + name + ") * " + lit(3);
            case 5 -> "COUNT(*) > " + lit(pick(List.of(1, 3, 100)));
            case 6 -> distinctOver == null ? "-SUM(" + name + ")" : "COUNT(DISTINCT " + distinctOver.name() + ") + " + lit(1);
            default -> "(SUM(" + name + ") + " + lit(1) + ") / (COUNT(*) - " + lit(pick(List.of(0, 1))) + ")";
        };
    }

    /** A scalar expression with a literal or parameter over one of the table's columns. */
    private String scalar(Table t) {
        Col n = numeric(t);
        Col c = pick(t.cols());
        return switch (r.nextInt(4)) {
            case 0 -> n.name() + " * " + lit(pick(List.of(2, -1, 3)));
            case 1 -> "COALESCE(" + n.name() + ", " + lit(0) + ")";
            case 2 -> "IF(" + c.name() + " = " + value(c) + ", " + lit(1) + ", " + lit(0) + ")";
            default -> n.name() + " + " + lit(pick(List.of(1, 100)));
        };
    }

    private Col numeric(Table t) {
        List<Col> nums = new ArrayList<>();
        for (Col c : t.cols()) {
            if (c.kind() == Kind.INT || c.kind() == Kind.DEC) {
                nums.add(c);
            }
        }
        return pick(nums);
    }

    private void limit(StringBuilder sql) {
        switch (r.nextInt(4)) {
            case 0 -> sql.append(" LIMIT ").append(lit(1 + r.nextInt(20)));
            case 1 -> sql.append(" LIMIT ").append(lit(r.nextInt(50))).append(", ").append(lit(1 + r.nextInt(20)));
            default -> { }
        }
    }

    private void where(Table t, StringBuilder sql) {
        int n = r.nextInt(4);
        if (n == 0) {
            return;
        }
        sql.append(" WHERE ");
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sql.append(r.nextInt(3) == 0 ? " OR " : " AND ");
            }
            // the sharding key half the time: point, multi-point and range routes
            Col c = r.nextBoolean() ? t.col(t.key()) : pick(t.cols());
            sql.append(predicate(c));
        }
    }

    private String predicate(Col c) {
        String n = c.name();
        return switch (r.nextInt(12)) {
            case 0, 1, 2 -> n + " = " + value(c);
            case 3 -> n + " IN (" + value(c) + ", " + value(c) + (r.nextBoolean() ? ", " + value(c) : "") + ")";
            case 4 -> n + " BETWEEN " + ordered(c);
            case 5 -> n + (r.nextBoolean() ? " > " : " <= ") + value(c);
            case 6 -> n + (r.nextBoolean() ? " >= " : " < ") + value(c);
            case 7 -> n + (r.nextBoolean() ? " IS NULL" : " IS NOT NULL");
            case 8 -> n + (r.nextBoolean() ? " = NULL" : " <=> NULL");
            case 9 -> n + " <> " + value(c);
            case 10 -> c.kind() == Kind.STR ? n + " LIKE " + lit(c.samples().get(r.nextInt(c.samples().size())) + "%") : n + " = " + mixed(c);
            default -> "NOT (" + n + " = " + value(c) + ")";
        };
    }

    /** A value of another type than the column's: a quoted number, a number for a date. */
    private String mixed(Col c) {
        Object v = c.samples().get(r.nextInt(c.samples().size()));
        return switch (c.kind()) {
            case INT, DEC -> lit(v.toString());
            case DATE -> v.toString().length() == 10 ? v.toString().replace("-", "") : lit(v);
            case STR -> "0";
        };
    }

    private String ordered(Col c) {
        Object a = c.samples().get(r.nextInt(c.samples().size()));
        Object b = c.samples().get(r.nextInt(c.samples().size()));
        if (compare(a, b) > 0) {
            Object x = a;
            a = b;
            b = x;
        }
        return lit(a) + " AND " + lit(b);
    }

    private static int compare(Object a, Object b) {
        if (a instanceof String sa && b instanceof String sb) {
            return sa.compareToIgnoreCase(sb);
        }
        return new BigDecimal(a.toString()).compareTo(new BigDecimal(b.toString()));
    }

    private String value(Col c) {
        return lit(c.samples().get(r.nextInt(c.samples().size())));
    }

    /** A literal: inline SQL text, or a {@code ?} whose value is kept when generating a prepared statement. */
    private String lit(Object v) {
        if (params != null) {
            params.add(v);
            return "?";
        }
        return v instanceof String s ? "'" + s.replace("'", "''") + "'" : v.toString();
    }

    private <T> T pick(List<T> list) {
        return list.get(r.nextInt(list.size()));
    }

    private List<Col> subset(List<Col> cols) {
        List<Col> out = new ArrayList<>();
        for (Col c : cols) {
            if (r.nextInt(2) == 0) {
                out.add(c);
            }
        }
        if (out.isEmpty()) {
            out.add(pick(cols));
        }
        return out;
    }
}
