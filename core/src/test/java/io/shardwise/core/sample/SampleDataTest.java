package io.shardwise.core.sample;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The generated rows themselves, and where the rule places them; no server needed. */
class SampleDataTest {
    /**
     * SHA-256 of every table's name, columns and typed values. A change here means the sample data
     * changed: fine when intended (update the value and any docs that quote query results), a bug
     * when not (an unseeded Random, a HashMap's iteration order, a JDK-dependent generator method).
     */
    private static final String FINGERPRINT = "e087171873b718067c46ab4e00fc33dc44399daa65ed1f1a19fe218bdebdf310";

    private static final SampleTarget TARGET = new SampleTarget("127.0.0.1", 3306, "root", "", "t");

    @Test
    void generatingTwiceGivesEqualTables() {
        List<SampleTable> first = SampleData.generate();
        List<SampleTable> second = SampleData.generate();
        assertEquals(first, second);
        assertEquals(first, SampleData.tables());
    }

    @Test
    void dataMatchesItsPinnedFingerprintOnEveryJvm() {
        assertEquals(FINGERPRINT, fingerprint(SampleData.generate()));
    }

    @Test
    void tablesHaveTheirDocumentedSizes() {
        Map<String, Integer> sizes = new TreeMap<>();
        SampleData.tables().forEach(t -> sizes.put(t.name(), t.rows().size()));
        int items = sizes.remove("order_items");
        assertTrue(items >= 2700 && items <= 3300, "order_items " + items);
        assertEquals(Map.of("countries", 20, "promotions", 10, "users", 200, "orders", 1000, "events", 500,
                "sbtest1", 1000, "sbtest2", 1000, "sbtest3", 1000, "sbtest4", 1000, "small", 3), sizes);
    }

    @Test
    void everyRowCarriesAUniqueNonNullPrimaryKey() {
        for (SampleTable t : SampleData.tables()) {
            Set<Object> keys = new HashSet<>();
            for (List<Object> row : t.rows()) {
                assertNotNull(row.getFirst(), t.name());
                assertTrue(keys.add(row.getFirst()), t.name() + " repeats key " + row.getFirst());
            }
            assertTrue(t.ddl().contains("PRIMARY KEY (" + t.columns().getFirst() + ")")
                    || t.ddl().contains("PRIMARY KEY(" + t.columns().getFirst() + ")"), t.name() + " key is its first column");
        }
    }

    @Test
    void loadingNeedsNoKeyGeneratorBecauseRowsCarryTheGeneratedColumns() {
        ShardingRule withGenerators = SampleData.rule(TARGET);
        String yaml = SampleData.configYaml().replace("    generate: { column: order_id, type: snowflake }\n", "");
        ShardingRule withoutGenerators = ShardingRule.load(yaml, "no-generators", SampleData.environment(TARGET)::get);
        assertNull(withoutGenerators.table("orders").generatedKey(), "the generate line was removed");

        int generatedColumns = 0;
        for (SampleTable t : SampleData.tables()) {
            TableRule.GeneratedKey key = withGenerators.table(t.name()).generatedKey();
            if (key == null) {
                continue;
            }
            generatedColumns++;
            int column = t.columnIndex(key.column());
            assertTrue(column >= 0, t.name() + " has no column " + key.column());
            assertTrue(t.insertSql("x").contains("`" + key.column() + "`"), "the INSERT names " + key.column());
            Set<Object> values = new HashSet<>();
            for (List<Object> row : t.rows()) {
                assertTrue(row.get(column) != null && values.add(row.get(column)), t.name() + "." + key.column() + " " + row);
            }
        }
        assertEquals(1, generatedColumns, "orders.order_id");
        // Placement is the same whether or not a generator exists: loading never consults one.
        assertEquals(SampleLoader.place(withGenerators, SampleData.tables()),
                SampleLoader.place(withoutGenerators, SampleData.tables()));
    }

    @Test
    void insertsNameEveryColumnSoNothingIsLeftToDefaultsOrAutoIncrement() {
        SampleTable sbtest = table("sbtest1");
        assertEquals("INSERT INTO `sbtest1` (`id`, `k`, `c`, `pad`) VALUES (?, ?, ?, ?)", sbtest.insertSql("sbtest1"));
    }

    @Test
    void everyPhysicalTableReceivesRowsSoScatterQueriesTouchEveryNode() {
        for (SampleLoader.NodeLoad load : SampleLoader.place(SampleData.rule(TARGET), SampleData.tables())) {
            assertFalse(load.rows().isEmpty(), load.node() + " gets no row");
        }
    }

    @Test
    void rowsWhoseKeyNoNodeHoldsAreRefusedNotDropped() {
        String yaml = SampleData.configYaml().replace("ds0.events_${2025..2026}", "ds0.events_${2025..2025}");
        ShardingRule only2025 = ShardingRule.load(yaml, "events-2025-only", SampleData.environment(TARGET)::get);
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> SampleLoader.place(only2025, SampleData.tables()));
        assertEquals(ErrorCode.NO_ROUTE, e.code());
        assertTrue(e.getMessage().contains("'events'") && e.getMessage().contains("created_at = 2026-"), e.getMessage());
    }

    @Test
    void usersHoldCaseAndAccentVariantsNullsAndExtremeIds() {
        SampleTable users = table("users");
        Set<Object> names = column(users, "name");
        assertTrue(names.containsAll(List.of("apple", "Apple", "APPLE", "zoe", "Zoë", "O'Brien", "")), names.toString());
        assertTrue(names.contains(null));
        Set<Object> ids = column(users, "user_id");
        for (long id : ShopRows.SPECIAL_USER_IDS) {
            assertTrue(ids.contains(id), "user " + id);
        }
        Set<Object> codes = column(users, "country_code");
        assertTrue(hasCaseVariantPair(codes), "a code in upper and lower case: " + codes);
        assertTrue(codes.contains(null) && codes.contains("ZZ"), codes.toString());
    }

    @Test
    void ordersIncludeOrphansExtremeUsersNullsAndTies() {
        SampleTable orders = table("orders");
        Set<Object> userIds = column(orders, "user_id");
        Set<Object> existingUsers = column(table("users"), "user_id");
        assertTrue(userIds.stream().anyMatch(id -> !existingUsers.contains(id)), "an order without a user");
        assertTrue(existingUsers.stream().anyMatch(id -> !userIds.contains(id)), "a user without an order");
        assertTrue(userIds.containsAll(List.of(-1L, Long.MAX_VALUE, 9_007_199_254_740_993L)), "extreme user ids have orders");
        Set<Object> statuses = column(orders, "status");
        assertEquals(Set.of("paid", "Paid", "shipped", "new", "cancelled"),
                statuses.stream().filter(Objects::nonNull).collect(Collectors.toSet()));
        assertTrue(statuses.contains(null));
        Map<Object, Long> amounts = orders.rows().stream().filter(r -> r.get(3) != null)
                .collect(Collectors.groupingBy(r -> r.get(3), Collectors.counting()));
        assertTrue(amounts.get(new BigDecimal("19.99")) > 10, "ties in amount");
        assertTrue(orders.rows().stream().anyMatch(r -> r.get(3) == null), "NULL amounts");
        assertTrue(amounts.keySet().stream().anyMatch(a -> ((BigDecimal) a).signum() < 0), "refunds");
        assertTrue(amounts.keySet().stream().allMatch(a -> ((BigDecimal) a).scale() == 2), "DECIMAL(10,2) scale");
    }

    @Test
    void orderItemsCarryTheirOrdersUserIdSoTheyShardWithTheirOrder() {
        Map<Object, Object> userOfOrder = table("orders").rows().stream()
                .collect(Collectors.toMap(r -> r.get(0), r -> r.get(1)));
        for (List<Object> item : table("order_items").rows()) {
            assertEquals(userOfOrder.get(item.get(1)), item.get(2), "item " + item);
        }
    }

    @Test
    void eventsFallWithin2025And2026IncludingTheYearBoundaries() {
        Set<Object> times = column(table("events"), "created_at");
        for (Object t : times) {
            LocalDateTime at = (LocalDateTime) t;
            assertTrue(!at.isBefore(LocalDateTime.of(2025, 1, 1, 0, 0)) && at.isBefore(LocalDateTime.of(2027, 1, 1, 0, 0)), at.toString());
        }
        assertTrue(times.containsAll(List.of(LocalDateTime.of(2025, 12, 31, 23, 59, 59), LocalDateTime.of(2026, 1, 1, 0, 0),
                LocalDateTime.of(2025, 1, 1, 0, 0), LocalDateTime.of(2026, 12, 31, 23, 59, 59))));
    }

    @Test
    void sbtestRowsFollowSysbenchsFormat() {
        Pattern c = Pattern.compile("(\\d{11}-){9}\\d{11}");
        Pattern pad = Pattern.compile("(\\d{11}-){4}\\d{11}");
        for (int n = 1; n <= 4; n++) {
            SampleTable t = table("sbtest" + n);
            assertEquals(List.of("id", "k", "c", "pad"), t.columns());
            for (int i = 0; i < t.rows().size(); i++) {
                List<Object> row = t.rows().get(i);
                int k = (Integer) row.get(1);
                int index = i;
                assertAll(() -> assertEquals(index + 1, row.get(0)),
                        () -> assertTrue(k >= 1 && k <= 1000),
                        () -> assertTrue(c.matcher((String) row.get(2)).matches()),
                        () -> assertTrue(pad.matcher((String) row.get(3)).matches()));
            }
        }
        assertFalse(table("sbtest1").rows().equals(table("sbtest2").rows()), "each table has its own rows");
    }

    @Test
    void smallHoldsTheThreeHscaleRows() {
        assertEquals(List.of(List.of(1L, "books"), List.of(2L, "hardware"), List.of(3L, "software")), table("small").rows());
        assertTrue(table("small").ddl().endsWith("ENGINE=MEMORY"));
    }

    private static SampleTable table(String name) {
        return SampleData.tables().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    private static Set<Object> column(SampleTable t, String column) {
        int i = t.columnIndex(column);
        Set<Object> values = new HashSet<>();
        t.rows().forEach(r -> values.add(r.get(i)));
        return values;
    }

    private static boolean hasCaseVariantPair(Set<Object> codes) {
        return codes.stream().filter(Objects::nonNull).map(Object::toString)
                .anyMatch(c -> !c.equals(c.toUpperCase(Locale.ROOT)) && codes.contains(c.toUpperCase(Locale.ROOT)));
    }

    static String fingerprint(List<SampleTable> tables) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        for (SampleTable t : tables) {
            sha.update((t.name() + "\n" + t.columns() + "\n" + t.ddl() + "\n").getBytes(StandardCharsets.UTF_8));
            for (List<Object> row : t.rows()) {
                sha.update((SampleDb.describe(row) + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }
}
