package io.shardwise.core.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.shardwise.core.execute.TemporalText;
import io.shardwise.core.execute.TemporalText.Kind;
import io.shardwise.core.rule.HashAlgorithm;
import io.shardwise.core.rule.IntervalAlgorithm;
import io.shardwise.core.rule.ModAlgorithm;
import io.shardwise.core.rule.ShardingAlgorithm;
import io.shardwise.core.sql.analyze.KeyCondition;
import io.shardwise.core.sql.analyze.ValueRef;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A sharding key bound as a temporal (a JDBC face java.time value, a binary COM_STMT_EXECUTE DATE, DATETIME,
 * TIMESTAMP or TIME, java.time's or {@link TemporalText} for what java.time cannot hold) reaches the algorithms as the
 * same value written in the statement's text does: the text client-side prepare writes, or a user's literal.
 */
class ShardingKeysTest {
    /** Each bound form next to the string its quoted literal in text gives the router. */
    private static final List<Object[]> SAME = List.of(
            new Object[] {LocalDate.of(2024, 1, 2), "2024-01-02"},
            new Object[] {LocalDateTime.of(2024, 1, 2, 3, 4, 5), "2024-01-02 03:04:05"},
            new Object[] {LocalDateTime.of(2024, 1, 2, 0, 0), "2024-01-02 00:00:00"},
            new Object[] {LocalDateTime.of(2024, 1, 2, 3, 4, 5, 500_000_000), "2024-01-02 03:04:05.5"},
            new Object[] {LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000), "2024-01-02 03:04:05.123456"},
            new Object[] {LocalTime.of(3, 4, 5), "03:04:05"},
            new Object[] {LocalTime.MIDNIGHT, "00:00:00"},
            new Object[] {LocalTime.of(23, 59, 59, 250_000_000), "23:59:59.25"},
            new Object[] {LocalTime.of(1, 2, 3, 4_000), "01:02:03.000004"},
            new Object[] {new TemporalText(Kind.DATE, "0000-00-00"), "0000-00-00"},
            new Object[] {new TemporalText(Kind.DATE, "2024-00-00"), "2024-00-00"},
            new Object[] {new TemporalText(Kind.DATE, "2024-01-00"), "2024-01-00"},
            new Object[] {new TemporalText(Kind.DATETIME, "0000-00-00 00:00:00"), "0000-00-00 00:00:00"},
            new Object[] {new TemporalText(Kind.DATETIME, "2024-00-00 03:04:05.500000"), "2024-00-00 03:04:05.5"},
            new Object[] {new TemporalText(Kind.DATETIME, "2024-02-30 03:04:05"), "2024-02-30 03:04:05"},
            new Object[] {new TemporalText(Kind.TIME, "-3:04:05"), "-03:04:05"},
            new Object[] {new TemporalText(Kind.TIME, "-03:04:05.250000"), "-03:04:05.25"},
            new Object[] {new TemporalText(Kind.TIME, "34:22:59"), "34:22:59"},
            new Object[] {new TemporalText(Kind.TIME, "0:00:00.5"), "00:00:00.5"},
            new Object[] {new TemporalText(Kind.TIME, "48:00:00.000001"), "48:00:00.000001"},
            // MariaDB stores a TIME beyond 838 hours as 838:59:59: that value's text
            new Object[] {new TemporalText(Kind.TIME, "-960:00:00.5"), "-838:59:59.5"});

    private static final List<ShardingAlgorithm> ALGORITHMS = List.of(new HashAlgorithm(2), new HashAlgorithm(7), new HashAlgorithm(31),
            new ModAlgorithm(4), new IntervalAlgorithm(LocalDateTime.of(2023, 1, 1, 0, 0), ChronoUnit.YEARS, 1, 3));

    @Test
    void aTemporalKeyReachesTheAlgorithmsAsItsTextDoes() {
        for (Object[] pair : SAME) {
            for (ShardingAlgorithm algorithm : ALGORITHMS) {
                String what = algorithm.getClass().getSimpleName() + " " + pair[0] + " vs '" + pair[1] + "'";
                assertEquals(node(algorithm, pair[1]), node(algorithm, pair[0]), what);
            }
        }
    }

    @Test
    void aZeroDateKeyIsHashedNotRefused() {
        assertEquals(node(new HashAlgorithm(31), "0000-00-00"), node(new HashAlgorithm(31), new TemporalText(Kind.DATE, "0000-00-00")));
        assertEquals("0000-00-00", ShardingKeys.of(new TemporalText(Kind.DATE, "0000-00-00")));
        assertEquals("838:59:59", ShardingKeys.of(new TemporalText(Kind.TIME, "1000:00:00")));
    }

    @Test
    void otherValuesReachTheAlgorithmsUnchanged() {
        for (Object v : new Object[] {42L, "2024-01-02 03:04:05.500000", LocalDate.of(2024, 1, 2), LocalDateTime.of(2024, 1, 2, 3, 4)}) {
            assertSame(v, ShardingKeys.of(v));
        }
        assertEquals(null, ShardingKeys.of(null));
    }

    @Test
    void trimmedFractionDropsTrailingZerosAndALonePoint() {
        assertEquals("03:04:05", ShardingKeys.trimmedFraction("03:04:05.000000"));
        assertEquals("03:04:05.5", ShardingKeys.trimmedFraction("03:04:05.500000"));
        assertEquals("03:04:05.000001", ShardingKeys.trimmedFraction("03:04:05.000001"));
        assertEquals("2024-01-02", ShardingKeys.trimmedFraction("2024-01-02"));
    }

    /** Reads (NodeSelector) and inserts (InsertRouter) of the sample's hash-sharded sbtest1 pick one node for both forms. */
    @Test
    void prepareAndTextStatementsPickTheSameNodeForEachForm() {
        for (Object[] pair : SAME) {
            String insert = "INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, 1, 'c', 'p')";
            String what = pair[0] + " vs '" + pair[1] + "'";
            assertEquals(backends(RouteFixture.sql(insert, pair[1]).plan()), backends(RouteFixture.prepared(insert, pair[0]).plan()), what);
            String select = "SELECT c FROM sbtest1 WHERE id = ?";
            RoutePlan text = RouteFixture.sql(select, pair[1]).routes(RouteKind.POINT).plan();
            RoutePlan bound = RouteFixture.prepared(select, pair[0]).routes(RouteKind.POINT).plan();
            assertEquals(backends(text), backends(bound), what);
            BitSet textNodes = NodeSelector.nodes(new KeyCondition.Eq(new ValueRef.Const(pair[1]), false), new HashAlgorithm(31), 31,
                    Bindings.NONE);
            BitSet boundNodes = NodeSelector.nodes(new KeyCondition.In(List.of(new ValueRef.Const(pair[0]))), new HashAlgorithm(31), 31,
                    Bindings.NONE);
            assertEquals(textNodes, boundNodes, what);
            assertEquals(1, boundNodes.cardinality(), what);
        }
    }

    private static List<String> backends(RoutePlan plan) {
        List<String> out = new ArrayList<>();
        for (ExecutionUnit u : plan.units()) {
            out.add(u.backend());
        }
        return out;
    }

    /** The node, or what the router does with a value the algorithm cannot read (widens a read, refuses a write). */
    private static String node(ShardingAlgorithm algorithm, Object value) {
        try {
            return Integer.toString(algorithm.nodeFor(ShardingKeys.of(value)));
        } catch (IllegalArgumentException e) {
            return "unreadable";
        }
    }
}
