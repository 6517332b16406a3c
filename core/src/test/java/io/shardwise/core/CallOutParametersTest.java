package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallOutParametersTest {
    @Test
    void outMarkersBecomeVariablesSetBeforeReadAfterAndClearedOnTheSameBackend() {
        ExecutionUnit call = new ExecutionUnit("ds0", "CALL p(1, ?, '?', ?, ?)", Arrays.asList(7, null, "in-out"), Map.of());
        BitSet out = new BitSet();
        out.set(1);
        out.set(2);
        List<ExecutionUnit> units = CallOutParameters.units(call, out, LexicalMode.DEFAULT);
        assertEquals(List.of(
                "ds0: SET @shardwise_out_2 = ?, @shardwise_out_3 = ? [null, in-out]",
                "ds0: CALL p(1, ?, '?', @shardwise_out_2, @shardwise_out_3) [7]",
                "ds0: SELECT @shardwise_out_2 AS `2`, @shardwise_out_3 AS `3`",
                "ds0: SET @shardwise_out_2 = NULL, @shardwise_out_3 = NULL"),
                units.stream().map(ExecutionUnit::explain).toList());
    }
}
