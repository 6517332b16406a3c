package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.route.RouteKind;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Shardwise's own plan as JSON: MySQL's layout, every string escaped, parameters typed. */
class OwnPlanTest {
    @Test
    void jsonEscapesTheSqlAndTypesTheParameters() {
        OwnPlan plan = new OwnPlan("merger", RouteKind.SCATTER, List.of(
                new OwnPlan.Step(1, "read", "ds0", "SELECT \"a\\b\"\n, ? FROM t_0", Arrays.asList(7L, null, "x'y", new java.math.BigDecimal("1.50")), null),
                new OwnPlan.Step(2, "merge", null, null, List.of(), "concat")));
        String json = plan.json();
        assertEquals("""
                {
                  "shardwise": {
                    "tier": "merger",
                    "route": "SCATTER",
                    "steps": [
                      {
                        "id": 1,
                        "step": "read",
                        "backend": "ds0",
                        "sql": "SELECT \\"a\\\\b\\"\\n, ? FROM t_0",
                        "params": [7, null, "x'y", 1.50]
                      },
                      {
                        "id": 2,
                        "step": "merge",
                        "detail": "concat"
                      }
                    ]
                  }
                }""", json);
        assertEquals("\"\\u0001\"", OwnPlan.quote("\u0001"));
    }
}
