package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardwise.core.error.ShardwiseException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CALL with user-variable arguments ({@code CALL p(@in, @out)}) and procedures whose bodies set user variables: through the
 * engine the session's variables end as one MySQL leaves them, compared with the same statements on the unsharded copy.
 */
class CallUserVariablesTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("callvars");
    private static final List<String> PROCEDURES = List.of(
            "CREATE PROCEDURE sw_double(IN a INT, OUT b INT, INOUT c VARCHAR(20)) BEGIN SET b = a * 2; SET c = CONCAT(c, '+');"
                    + " SET @calls = IFNULL(@calls, 0) + 1; SELECT a AS seen; END",
            "CREATE PROCEDURE sw_outer(OUT d DECIMAL(10,2)) BEGIN CALL sw_double(21, @inner, @text); SET d = @inner / 8; END",
            "CREATE PROCEDURE sw_fail(OUT b INT) BEGIN SET @before_fail = 'set'; SET b = 1; SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'no'; END");

    @BeforeAll
    static void procedures() throws SQLException {
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole()); Statement st = c.createStatement()) {
            for (String p : PROCEDURES) {
                st.execute(p);
            }
        }
        try (EngineSession s = SAMPLE.engine().openSession()) {
            for (String p : PROCEDURES) {
                s.execute(p); // on the default backend
            }
        }
    }

    /** Each statement on one connection to the unsharded copy, and through one engine session: the reads' rows, or errno. */
    private static void same(List<String> statements) throws SQLException {
        List<String> direct = new ArrayList<>();
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole()); Statement st = c.createStatement()) {
            for (String sql : statements) {
                try {
                    boolean rows = st.execute(sql);
                    if (sql.startsWith("SELECT")) {
                        try (java.sql.ResultSet rs = st.getResultSet()) {
                            direct.add(String.join(";", SampleEngine.labelledRows(rs)));
                        }
                    } else {
                        while (rows || st.getUpdateCount() != -1) {
                            rows = st.getMoreResults(); // a CALL's results, then its OK
                        }
                        direct.add("ok");
                    }
                } catch (SQLException e) {
                    direct.add("error " + e.getErrorCode());
                }
            }
        }
        List<String> engine = new ArrayList<>();
        try (EngineSession s = SAMPLE.engine().openSession()) {
            for (String sql : statements) {
                try {
                    StatementResult r = s.execute(sql);
                    if (sql.startsWith("SELECT")) {
                        try (io.shardwise.core.execute.ResultCursor cursor = ((StatementResult.Rows) r).cursor()) {
                            engine.add(String.join(";", SampleEngine.labelledRows(cursor)));
                        }
                    } else {
                        if (r instanceof StatementResult.Results results) {
                            for (StatementResult part : results.results()) {
                                if (part instanceof StatementResult.Rows rows) {
                                    rows.cursor().close();
                                }
                            }
                        } else if (r instanceof StatementResult.Rows rows) {
                            rows.cursor().close();
                        }
                        engine.add("ok");
                    }
                } catch (ShardwiseException e) {
                    engine.add("error " + e.errno());
                }
            }
        }
        assertEquals(direct, engine, String.join("\n", statements));
    }

    @Test
    void outAndInoutArgumentsAndTheBodysVariablesEndInTheSession() throws SQLException {
        same(List.of("SET @in = 5, @text = 'x', @calls = 10", "CALL sw_double(@in, @out, @text)", "SELECT @in, @out, @text, @calls",
                "CALL sw_double(@in + 1, @out, @text)", "SELECT @out, @text, @calls, @never"));
        same(List.of("CALL sw_double(3, @fresh, @unset)", "SELECT @fresh, @unset, @calls"));
    }

    @Test
    void nestedCallsSetTheirVariablesToo() throws SQLException {
        same(List.of("SET @text = 'n'", "CALL sw_outer(@d)", "SELECT @d, @inner, @text, @calls"));
    }

    @Test
    void aFailingCallReturnsItsError() throws SQLException {
        same(List.of("SET @b = 7", "CALL sw_fail(@b)", "SELECT @b"));
    }

    @Test
    void aProcedureTheBackendDoesNotKnowIsMysqls1305() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("CALL no_such_procedure(@x)"));
            assertEquals(1305, e.errno(), e.getMessage());
        }
    }
}
