package io.shardwise.core.execute;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiagnosticsTest {
    private static Condition warning(int code, String message) {
        return new Condition(Condition.Level.WARNING, code, message);
    }

    @Test
    void unitsAreMergedInUnitOrderWhateverOrderTheyFinishIn() {
        Diagnostics d = new Diagnostics(3);
        d.unit(2, 1, List.of(warning(3, "c")));
        d.unit(0, 2, List.of(warning(1, "a"), warning(2, "b")));
        assertEquals(List.of(warning(1, "a"), warning(2, "b"), warning(3, "c")), d.conditions());
        assertEquals(3, d.warningCount());
        assertEquals(0, d.errorCount());
    }

    @Test
    void theMergersOwnConditionsFollowTheUnitsAndAreCountedBeyondTheCap() {
        Diagnostics d = new Diagnostics(2);
        d.unit(1, 1, List.of(warning(3, "c")));
        for (int i = 0; i < 70; i++) {
            d.merged(warning(1365, "Division by 0"));
        }
        assertEquals(warning(3, "c"), d.conditions().getFirst());
        assertEquals(warning(1365, "Division by 0"), d.conditions().get(1));
        assertEquals(Diagnostics.MAX_ERROR_COUNT, d.conditions().size());
        assertEquals(71, d.warningCount());
        assertEquals(0, d.errorCount());
    }

    @Test
    void conditionsAreCappedAtMaxErrorCountButTheCountIsNot() {
        Diagnostics d = new Diagnostics(2);
        List<Condition> many = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            many.add(warning(1292, "w" + i));
        }
        d.unit(0, 50, many);
        d.unit(1, 70, many); // the backend counted more than its SHOW WARNINGS kept
        assertEquals(Diagnostics.MAX_ERROR_COUNT, d.conditions().size());
        assertEquals(120, d.warningCount());
    }

    @Test
    void theStatementsErrorComesLastAndSurvivesTheCap() {
        Diagnostics d = new Diagnostics(1);
        List<Condition> many = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            many.add(warning(1292, "w" + i));
        }
        d.unit(0, 64, many);
        d.fail(1235, "nope");
        List<Condition> all = d.conditions();
        assertEquals(64, all.size());
        assertEquals(new Condition(Condition.Level.ERROR, 1235, "nope"), all.getLast());
        assertEquals(65, d.warningCount());
        assertEquals(1, d.errorCount());
    }
}
