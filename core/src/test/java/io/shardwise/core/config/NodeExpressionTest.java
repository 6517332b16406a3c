package io.shardwise.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class NodeExpressionTest {
    private static List<String> expand(String expression, Problems problems) {
        return NodeExpression.expand(expression, new Location("nodes", 1), problems).stream().map(DataNode::toString).toList();
    }

    private static List<String> expand(String expression) {
        Problems problems = new Problems();
        List<String> nodes = expand(expression, problems);
        assertTrue(problems.isEmpty(), problems.list()::toString);
        return nodes;
    }

    private static String problem(String expression) {
        Problems problems = new Problems();
        expand(expression, problems);
        assertEquals(1, problems.size(), problems.list()::toString);
        return problems.list().get(0).message();
    }

    @Test
    void cartesianProductPutsTheLeftmostPlaceholderOutermost() {
        assertEquals(List.of("ds0.t_0", "ds0.t_1", "ds0.t_2", "ds1.t_0", "ds1.t_1", "ds1.t_2"), expand("ds${0..1}.t_${0..2}"));
    }

    @Test
    void leadingZeroPadsEveryValueToTheStartsWidth() {
        assertEquals(List.of("ds.t_08", "ds.t_09", "ds.t_10"), expand("ds.t_${08..10}"));
    }

    @Test
    void listsAndCommaSeparatedEntriesKeepTheirOrder() {
        assertEquals(List.of("east.t", "west.t", "ds9.x"), expand("${['east', west]}.t, ds9.x"));
    }

    @Test
    void plainNodesNeedBackendDotTable() {
        assertTrue(problem("orders_0").contains("gives 'orders_0', which is not backend.table"));
        assertTrue(problem("a.b.c").contains("not backend.table"));
    }

    @Test
    void malformedPlaceholdersSayWhatIsExpected() {
        assertTrue(problem("ds${0..1.t").contains("unclosed '${'"));
        assertTrue(problem("ds${a..b}.t").contains("expected a range of integers ${a..b} or a list ${[x, y, z]}"));
        assertTrue(problem("ds0.t,,ds1.t").contains("empty entry between commas"));
        assertTrue(problem("ds${1..0}.t").contains("expands to no node"));
        assertTrue(problem("ds${0..100000}.t").contains("gives more than 100000 nodes"));
        assertTrue(problem("ds${1..1000}.t_${1..1000}").contains("gives more than 100000 nodes"), "the product is capped too");
        assertEquals(100_000, expand("ds${1..100}.t_${1..1000}").size());
    }
}
