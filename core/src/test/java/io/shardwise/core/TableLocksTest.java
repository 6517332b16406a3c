package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableLocksTest {
    private static final ShardingRule RULE = SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop"));

    private static List<String> units(String sql) {
        return TableLocks.units(TableLocks.parse(sql, LexicalMode.DEFAULT), RULE).stream()
                .map(u -> u.backend() + ": " + u.sql()).toList();
    }

    @Test
    void everyPhysicalTableIsLockedBackendByBackendInNameOrder() {
        assertEquals(List.of(
                "ds0: LOCK TABLES `countries` READ LOCAL, `orders_0` LOW_PRIORITY WRITE, `orders_1` LOW_PRIORITY WRITE",
                "ds1: LOCK TABLES `countries` READ LOCAL, `orders_0` LOW_PRIORITY WRITE, `orders_1` LOW_PRIORITY WRITE, `promotions` READ"),
                units("LOCK TABLES `orders` LOW_PRIORITY WRITE, promotions READ, shop.countries READ LOCAL"));
        assertEquals(List.of("ds1: LOCK TABLES `promotions` AS `p` WRITE"), units("LOCK TABLE promotions AS p WRITE"));
        assertEquals(List.of("ds0: LOCK TABLES `countries` AS `c` READ", "ds1: LOCK TABLES `countries` AS `c` READ"),
                units("lock tables countries c read"));
    }

    @Test
    void anAliasOfSeveralPhysicalTablesOnOneBackendAndBadSyntaxAreRefused() {
        ShardwiseException alias = assertThrows(ShardwiseException.class, () -> units("LOCK TABLES orders AS o READ"));
        assertEquals(ErrorCode.UNSUPPORTED.errno(), alias.errno());
        ShardwiseException noMode = assertThrows(ShardwiseException.class, () -> units("LOCK TABLES orders"));
        assertEquals(ErrorCode.PARSE_ERROR.errno(), noMode.errno());
    }

    @Test
    void unitsAreOnePerBackend() {
        for (ExecutionUnit u : TableLocks.units(TableLocks.parse("LOCK TABLES orders READ", LexicalMode.DEFAULT), RULE)) {
            assertEquals(List.of(), u.params());
        }
    }
}
