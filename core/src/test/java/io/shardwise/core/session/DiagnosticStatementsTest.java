package io.shardwise.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ResultCursor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiagnosticStatementsTest {
    private static Diagnostics failed() {
        Diagnostics d = Diagnostics.empty();
        d.fail(1235, "This version of Shardwise doesn't yet support 'X'");
        return d;
    }

    private static List<String> rows(ResultCursor c) {
        List<String> out = new ArrayList<>();
        while (c.next()) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < c.columns().size(); i++) {
                b.append(i > 0 ? "|" : "").append(new String(c.get(i), StandardCharsets.UTF_8));
            }
            out.add(b.toString());
        }
        return out;
    }

    @Test
    void diagnosticStatementsAndCountReadersKeepTheArea() {
        for (String sql : List.of("SHOW WARNINGS", "show errors limit 2", " SHOW COUNT(*) WARNINGS", "SELECT @@warning_count",
                "select @@session.error_count, @@warning_count")) {
            assertTrue(DiagnosticStatements.keepsDiagnostics(sql), sql);
        }
        for (String sql : List.of("SELECT 1", "SHOW TABLES LIKE 'warnings'", "SHOW VARIABLES", "UPDATE t SET warning_count = 1")) {
            assertFalse(DiagnosticStatements.keepsDiagnostics(sql), sql);
        }
    }

    @Test
    void listsCountsAndLimits() {
        String error = "Error|1235|This version of Shardwise doesn't yet support 'X'";
        assertEquals(List.of(error), rows(DiagnosticStatements.answer("SHOW WARNINGS", failed())));
        assertEquals(List.of(error), rows(DiagnosticStatements.answer("SHOW ERRORS LIMIT 1;", failed())));
        assertEquals(List.of(), rows(DiagnosticStatements.answer("SHOW ERRORS LIMIT 1, 1", failed())));
        assertEquals(List.of(), rows(DiagnosticStatements.answer("SHOW WARNINGS LIMIT 0", failed())));
        assertEquals(List.of("1"), rows(DiagnosticStatements.answer("SHOW COUNT(*) ERRORS", failed())));
        assertEquals(List.of("0"), rows(DiagnosticStatements.answer("SHOW COUNT(*) WARNINGS", Diagnostics.empty())));
        assertEquals(List.of("Level", "Code", "Message"),
                DiagnosticStatements.answer("SHOW WARNINGS", failed()).columns().stream().map(c -> c.name()).toList());
    }

    @Test
    void otherStatementsAreNotAnsweredAndBadLimitsAreSyntaxErrors() {
        assertNull(DiagnosticStatements.answer("SHOW TABLES", failed()));
        assertNull(DiagnosticStatements.answer("SELECT @@warning_count", failed()));
        assertEquals(1064, assertThrows(ShardwiseException.class,
                () -> DiagnosticStatements.answer("SHOW WARNINGS LIMIT x", failed())).errno());
        assertEquals(1064, assertThrows(ShardwiseException.class,
                () -> DiagnosticStatements.answer("SHOW WARNINGS FROM t", failed())).errno());
    }
}
