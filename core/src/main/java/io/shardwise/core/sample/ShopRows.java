package io.shardwise.core.sample;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The shop tables of the sample (users, orders, order_items, countries, promotions, events) and their
 * rows. Every table draws from its own seeded {@link Random}, so the data is the same on every run
 * and a change to one table does not shift the others. Only {@code nextInt(bound)}, {@code nextInt()}
 * and {@code nextDouble()} are used: their algorithms are fixed by {@code java.util.Random}'s
 * specification, unlike the {@code RandomGenerator} defaults.
 *
 * <p>The values are built to catch merge bugs: names and codes that differ only in case or accents
 * ({@code 'apple'/'Apple'}, {@code 'DE'/'de'}, {@code 'zoe'/'Zoë'}) for collation-aware ORDER BY,
 * GROUP BY and DISTINCT; NULLs and an empty string; ties in amounts and timestamps for sort
 * stability; negative and huge user ids ({@code Long.MAX_VALUE}, 2^53+1, which a double cannot hold)
 * for floor-mod placement and SUM overflow; orders of users that do not exist and users with no
 * orders for outer joins; events exactly on the year boundaries the interval algorithm splits at.
 */
final class ShopRows {
    /** Users with these ids exist and have orders: negative keys, past 2^32, past 2^53, the BIGINT maximum. */
    static final long[] SPECIAL_USER_IDS = {-1, -2, -3, -1000, 4_294_967_296L, 9_007_199_254_740_993L, Long.MAX_VALUE};
    static final int REGULAR_USERS = 193;
    /** Orders with these user ids have no user row. */
    static final long ORPHAN_USER_ID_BASE = 900_000_000L;

    private static final String COLLATION = " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci";
    // utf8mb4_general_ci is pinned, not left to the server default, because MySQL 8 (utf8mb4_0900_ai_ci)
    // and MariaDB order and group accents differently; the oracle tests need one behaviour everywhere.

    private static final String[][] COUNTRIES = {
        {"BR", "Brazil"}, {"CA", "Canada"}, {"CH", "Switzerland"}, {"CI", "Côte d’Ivoire"}, {"CN", "China"},
        {"DE", "Germany"}, {"DK", "Denmark"}, {"ES", "Spain"}, {"FR", "France"}, {"GB", "United Kingdom"},
        {"IN", "India"}, {"IT", "Italy"}, {"JP", "Japan"}, {"KR", "South Korea"}, {"MX", "Mexico"},
        {"NL", "Netherlands"}, {"PL", "Poland"}, {"SE", "Sweden"}, {"TR", "Türkiye"}, {"US", "United States"},
    };

    private static final String[] NAMES = {
        "apple", "Apple", "APPLE", "alice", "Alice", "bob", "Bob", "carol", "Carol", "dave", "Zoë", "zoe",
        "Émile", "emile", "Łukasz", "O'Brien", "o'brien", "Ann-Marie", "李雷", "Ñandú", "mallory", "Trent",
        "peggy", "Victor", "walter", "Yusuf", "ärger", "Aaron", "aaron ", "",
    };

    private static final String[] DOMAINS = {"example.com", "Example.com", "EXAMPLE.COM", "mail.test"};

    private static final String[][] PROMOTIONS = {
        {"WELCOME10", "10.00"}, {"welcome10", "10.00"}, {"SUMMER25", "25.00"}, {"FREESHIP", "0.00"},
        {"BLACKFRIDAY", "50.00"}, {"Spring15", "15.00"}, {"VIP", "12.50"}, {"loyalty5", "5.00"},
        {"ÉTÉ20", "20.00"}, {"STAFF", "99.99"},
    };

    private static final LocalDateTime ORDER_EPOCH = LocalDateTime.of(2024, 1, 1, 0, 0);
    private static final LocalDateTime EVENT_EPOCH = LocalDateTime.of(2025, 1, 1, 0, 0);
    private static final int TWO_YEARS_SECONDS = 730 * 86_400; // 2025 and 2026 have 365 days each

    private ShopRows() {}

    static List<SampleTable> tables() {
        SampleTable orders = orders();
        return List.of(countries(), promotions(), users(), orders, orderItems(orders), events());
    }

    static SampleTable countries() {
        List<List<Object>> rows = new ArrayList<>();
        for (String[] c : COUNTRIES) {
            rows.add(row(c[0], c[1]));
        }
        return new SampleTable("countries", List.of("code", "name"),
                "CREATE TABLE {table} (code CHAR(2) NOT NULL, name VARCHAR(64) NOT NULL, PRIMARY KEY (code))" + COLLATION,
                rows);
    }

    static SampleTable promotions() {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < PROMOTIONS.length; i++) {
            rows.add(row(i + 1, PROMOTIONS[i][0], new BigDecimal(PROMOTIONS[i][1])));
        }
        return new SampleTable("promotions", List.of("id", "code", "discount"),
                "CREATE TABLE {table} (id INT NOT NULL, code VARCHAR(32) NOT NULL, discount DECIMAL(5,2) NOT NULL,"
                        + " PRIMARY KEY (id))" + COLLATION,
                rows);
    }

    static SampleTable users() {
        Random r = new Random(0x5EED_0001L);
        List<Long> ids = new ArrayList<>();
        for (long id = 1; id <= REGULAR_USERS; id++) {
            ids.add(id);
        }
        for (long id : SPECIAL_USER_IDS) {
            ids.add(id);
        }
        List<List<Object>> rows = new ArrayList<>();
        for (long id : ids) {
            String name = r.nextInt(100) < 8 ? null : NAMES[r.nextInt(NAMES.length)];
            String email = r.nextInt(100) < 5 ? null : "user" + id + "@" + DOMAINS[r.nextInt(DOMAINS.length)];
            rows.add(row(id, name, email, countryCode(r), timestampOrNull(r)));
        }
        return new SampleTable("users", List.of("user_id", "name", "email", "country_code", "created_at"),
                "CREATE TABLE {table} (user_id BIGINT NOT NULL, name VARCHAR(64) NULL, email VARCHAR(128) NULL,"
                        + " country_code CHAR(2) NULL, created_at DATETIME NULL, PRIMARY KEY (user_id))" + COLLATION,
                rows);
    }

    private static String countryCode(Random r) {
        int p = r.nextInt(100);
        if (p < 8) {
            return null;
        }
        if (p < 10) {
            return "ZZ"; // no such country: inner and outer joins differ
        }
        String code = COUNTRIES[r.nextInt(COUNTRIES.length)][0];
        return p < 15 ? code.toLowerCase(java.util.Locale.ROOT) : code; // 'de' = 'DE' under a _ci collation
    }

    private static LocalDateTime timestampOrNull(Random r) {
        int p = r.nextInt(100);
        if (p < 5) {
            return null;
        }
        if (p < 8) {
            return LocalDateTime.of(2024, 2, 29, 12, 0); // a shared leap-day timestamp: ties
        }
        return LocalDateTime.of(2023, 1, 1, 0, 0).plusSeconds(r.nextInt(3 * 365 * 86_400));
    }

    static SampleTable orders() {
        Random r = new Random(0x5EED_0002L);
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 1; i <= 1000; i++) {
            rows.add(row(100_000L + i, orderUser(r), status(r), amount(r), orderTime(r)));
        }
        return new SampleTable("orders", List.of("order_id", "user_id", "status", "amount", "created_at"),
                "CREATE TABLE {table} (order_id BIGINT NOT NULL, user_id BIGINT NOT NULL, status VARCHAR(16) NULL,"
                        + " amount DECIMAL(10,2) NULL, created_at DATETIME NOT NULL, PRIMARY KEY (order_id),"
                        + " KEY idx_user (user_id))" + COLLATION,
                rows);
    }

    private static long orderUser(Random r) {
        int p = r.nextInt(100);
        if (p < 2) {
            return ORPHAN_USER_ID_BASE + r.nextInt(5);
        }
        if (p < 8) {
            return SPECIAL_USER_IDS[r.nextInt(SPECIAL_USER_IDS.length)];
        }
        double u = r.nextDouble();
        return 1 + (long) (u * u * REGULAR_USERS); // skewed: low ids order often, high ids rarely or never
    }

    private static String status(Random r) {
        int p = r.nextInt(100);
        return p < 40 ? "paid" : p < 65 ? "shipped" : p < 80 ? "new" : p < 90 ? "cancelled" : p < 93 ? "Paid" : null;
    }

    private static BigDecimal amount(Random r) {
        int p = r.nextInt(100);
        if (p < 3) {
            return null;
        }
        if (p < 4) {
            return BigDecimal.valueOf(0, 2);
        }
        if (p < 7) {
            return new BigDecimal("19.99"); // ties for ORDER BY amount
        }
        if (p < 8) {
            return BigDecimal.valueOf(-(1 + r.nextInt(50_000)), 2); // refunds
        }
        return BigDecimal.valueOf(100 + r.nextInt(99_900), 2);
    }

    private static LocalDateTime orderTime(Random r) {
        if (r.nextInt(100) < 3) {
            return LocalDateTime.of(2025, 6, 1, 12, 0);
        }
        return ORDER_EPOCH.plusSeconds(r.nextInt(3 * 365 * 86_400));
    }

    static SampleTable orderItems(SampleTable orders) {
        Random r = new Random(0x5EED_0003L);
        List<List<Object>> rows = new ArrayList<>();
        long itemId = 1;
        for (List<Object> order : orders.rows()) {
            int items = 1 + r.nextInt(5);
            for (int i = 0; i < items; i++) {
                String sku = (r.nextInt(100) < 4 ? "sku-" : "SKU-") + (1000 + r.nextInt(300));
                int quantity = r.nextInt(100) == 0 ? 100 : 1 + r.nextInt(5);
                // user_id copied from the order: the binding to orders relies on it
                rows.add(row(itemId++, order.get(0), order.get(1), sku, quantity, BigDecimal.valueOf(99 + r.nextInt(20_000), 2)));
            }
        }
        return new SampleTable("order_items", List.of("item_id", "order_id", "user_id", "sku", "quantity", "price"),
                "CREATE TABLE {table} (item_id BIGINT NOT NULL, order_id BIGINT NOT NULL, user_id BIGINT NOT NULL,"
                        + " sku VARCHAR(32) NOT NULL, quantity INT NOT NULL, price DECIMAL(10,2) NOT NULL,"
                        + " PRIMARY KEY (item_id), KEY idx_order (order_id))" + COLLATION,
                rows);
    }

    static SampleTable events() {
        Random r = new Random(0x5EED_0004L);
        List<LocalDateTime> boundaries = List.of(EVENT_EPOCH, LocalDateTime.of(2025, 12, 31, 23, 59, 59),
                LocalDateTime.of(2026, 1, 1, 0, 0), LocalDateTime.of(2026, 12, 31, 23, 59, 59));
        List<List<Object>> rows = new ArrayList<>();
        for (int id = 1; id <= 500; id++) {
            LocalDateTime at;
            if (id <= boundaries.size()) {
                at = boundaries.get(id - 1);
            } else if (r.nextInt(100) < 3) {
                at = LocalDateTime.of(2025, 7, 1, 0, 0);
            } else {
                at = EVENT_EPOCH.plusSeconds(r.nextInt(TWO_YEARS_SECONDS));
            }
            int p = r.nextInt(100);
            String kind = p < 40 ? "view" : p < 65 ? "click" : p < 75 ? "purchase" : p < 85 ? "signup" : p < 90 ? "View" : null;
            rows.add(row((long) id, at, kind));
        }
        return new SampleTable("events", List.of("id", "created_at", "kind"),
                "CREATE TABLE {table} (id BIGINT NOT NULL, created_at DATETIME NOT NULL, kind VARCHAR(32) NULL,"
                        + " PRIMARY KEY (id), KEY idx_created (created_at))" + COLLATION,
                rows);
    }

    static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }
}
