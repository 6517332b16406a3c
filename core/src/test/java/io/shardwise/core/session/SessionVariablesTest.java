package io.shardwise.core.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionVariablesTest {
    private static final SessionVariables.Client CLIENT = new SessionVariables.Client("app", "10.0.0.9", 12);
    private final SessionVariables variables = new SessionVariables(CLIENT);

    /** Labels, then each row's values ("NULL" for null). */
    private static List<String> rows(ResultCursor cursor) {
        List<String> out = new ArrayList<>();
        try (cursor) {
            out.add(String.join("|", cursor.columns().stream().map(Column::name).toList()));
            while (cursor.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 0; i < cursor.columns().size(); i++) {
                    byte[] v = cursor.get(i);
                    row.add(v == null ? "NULL" : new String(v, StandardCharsets.UTF_8));
                }
                out.add(String.join("|", row));
            }
        }
        return out;
    }

    @Test
    void connectorJsConnectQueryIsAnsweredWithItsAliases() {
        String sql = "/* mysql-connector-j-9.4.0 (Revision: x) */SELECT  @@session.auto_increment_increment AS auto_increment_increment,"
                + " @@character_set_client AS character_set_client, @@character_set_connection AS character_set_connection,"
                + " @@character_set_results AS character_set_results, @@character_set_server AS character_set_server,"
                + " @@collation_server AS collation_server, @@collation_connection AS collation_connection,"
                + " @@init_connect AS init_connect, @@interactive_timeout AS interactive_timeout, @@license AS license,"
                + " @@lower_case_table_names AS lower_case_table_names, @@max_allowed_packet AS max_allowed_packet,"
                + " @@net_write_timeout AS net_write_timeout, @@performance_schema AS performance_schema,"
                + " @@query_cache_size AS query_cache_size, @@query_cache_type AS query_cache_type, @@sql_mode AS sql_mode,"
                + " @@system_time_zone AS system_time_zone, @@time_zone AS time_zone,"
                + " @@transaction_isolation AS transaction_isolation, @@wait_timeout AS wait_timeout";
        List<String> rows = rows(variables.answer(sql, true, "shop"));
        assertEquals(2, rows.size());
        assertTrue(rows.get(0).startsWith("auto_increment_increment|character_set_client|"), rows.get(0));
        assertTrue(rows.get(0).endsWith("|transaction_isolation|wait_timeout"), rows.get(0));
        assertTrue(rows.get(1).startsWith("1|utf8mb4|utf8mb4|utf8mb4|utf8mb4|"), rows.get(1));
        assertTrue(rows.get(1).contains("|67108864|"), rows.get(1));
        assertTrue(rows.get(1).endsWith("|REPEATABLE-READ|28800"), rows.get(1));
    }

    @Test
    void sessionsOfOneServerShareTheDefaultsAndHoldOnlyWhatTheyChanged() {
        java.util.Map<String, String> backend = java.util.Map.of("time_zone", "SYSTEM", "wait_timeout", "600");
        SessionVariables first = new SessionVariables(CLIENT, () -> backend);
        SessionVariables second = new SessionVariables(new SessionVariables.Client("other", "10.0.0.8", 13),
                () -> new java.util.HashMap<>(backend)); // an equal map read again: still one table
        assertEquals(List.of("@@version_comment", "Shardwise"), rows(first.answer("select @@version_comment limit 1", true, "shop")));
        assertEquals("600", second.text("wait_timeout"));
        assertTrue(first.sharesDefaultsWith(second));
        assertEquals(0, first.ownValues(), "reading variables copies nothing");
        first.recordSet("SET wait_timeout = 30");
        assertEquals("30", first.text("wait_timeout"));
        assertEquals("600", second.text("wait_timeout"), "one session's SET is its own");
        assertEquals(1, first.ownValues());
        first.reset();
        assertEquals("600", first.text("wait_timeout"));
        assertEquals(0, first.ownValues());
    }

    @Test
    void anInteractiveClientsWaitTimeoutStartsAsInteractiveTimeoutUntilItSetsIt() {
        SessionVariables interactive = new SessionVariables(CLIENT, () -> java.util.Map.of("interactive_timeout", "900", "wait_timeout", "600"));
        interactive.interactive();
        assertEquals("900", interactive.text("wait_timeout"));
        interactive.recordSet("SET wait_timeout = 5");
        assertEquals("5", interactive.text("wait_timeout"));
        interactive.recordSet("SET @@session.wait_timeout = @@global.wait_timeout * 2");
        assertEquals(null, interactive.text("wait_timeout"), "an expression only a backend can evaluate");
        interactive.reset();
        assertEquals("900", interactive.text("wait_timeout"));
    }

    @Test
    void theMysqlCliBannerQueryNamesShardwise() {
        assertEquals(List.of("@@version_comment", "Shardwise"), rows(variables.answer("select @@version_comment limit 1", true, "shop")));
        assertEquals(List.of("@@version"), rows(variables.answer("SELECT @@version LIMIT 0;", true, "shop")));
    }

    @Test
    void autocommitIsReadFromTheEngineSession() {
        assertEquals(List.of("@@autocommit", "0"), rows(variables.answer("SELECT @@autocommit", false, "shop")));
        assertEquals(List.of("a", "1"), rows(variables.answer("SELECT @@session.autocommit a", true, "shop")));
    }

    @Test
    void sessionFunctionsNameTheLogicalSchemaAndTheClientsAccount() {
        assertEquals(List.of("DATABASE()|user()|CURRENT_USER()|CONNECTION_ID()|v", "shop|app@10.0.0.9|app@%|12|8.0.36-shardwise"),
                rows(variables.answer("SELECT DATABASE(), user(), CURRENT_USER(), CONNECTION_ID(), VERSION() AS v", true, "shop")));
        assertEquals(List.of("DATABASE()", "NULL"), rows(variables.answer("SELECT DATABASE()", true, null)));
        assertNull(variables.answer("SELECT NOW()", true, "shop"));
        assertNull(variables.answer("SELECT DATABASE(1)", true, "shop"));
    }

    @Test
    void statementsBeyondPlainVariablesGoToTheEngine() {
        assertNull(variables.answer("SELECT @@version FROM dual", true, "shop"));
        assertNull(variables.answer("SELECT @@no_such_variable", true, "shop"));
        assertNull(variables.answer("SELECT @@version, 1", true, "shop"));
        assertNull(variables.answer("SELECT 1", true, "shop"));
        assertNull(variables.answer("SELECT * FROM orders", true, "shop"));
        assertNull(variables.answer("SELECT 'unterminated", true, "shop"));
    }

    @Test
    void successfulSetStatementsAreReadBack() {
        variables.recordSet("SET NAMES latin1 COLLATE latin1_swedish_ci");
        variables.recordSet("SET character_set_results = NULL, @@session.sql_mode = 'ANSI_QUOTES'");
        assertEquals(List.of("@@character_set_client|@@character_set_results|@@collation_connection|@@sql_mode",
                "latin1|NULL|latin1_swedish_ci|ANSI_QUOTES"),
                rows(variables.answer("SELECT @@character_set_client, @@character_set_results, @@collation_connection,"
                        + " @@sql_mode", true, "shop")));
        assertFalse(rows(new SessionVariables(CLIENT).answer("SELECT @@sql_mode", true, "shop")).get(1).equals("ANSI_QUOTES"),
                "each session has its own copy");
    }

    /** The SET the engine applied, as the engine read it: a transaction list after an assignment is split where the engine splits it. */
    @Test
    void aSetIsRecordedAsTheEngineAppliesIt() {
        variables.recordSet("SET time_zone = '+01:00', SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
        assertEquals(List.of("@@time_zone", "+01:00"), rows(variables.answer("SELECT @@time_zone", true, "shop")));
        variables.record(SetStatement.parse("SET SESSION time_zone = \"+02:00\"", new LexicalMode(false, true)));
        assertEquals("+02:00", rows(variables.answer("SELECT @@time_zone", true, "shop")).get(1));
    }

    /** MariaDB Connector/J's connect-time SET: the text is not the value, so a backend holding the session's state answers it. */
    @Test
    void variablesSetFromAnExpressionAreLeftToTheBackend() {
        variables.recordSet("SET autocommit=1, sql_mode = concat(@@sql_mode, ',STRICT_TRANS_TABLES')");
        assertNull(variables.answer("SELECT @@sql_mode", true, "shop"));
        variables.recordSet("SET sql_mode = 'ANSI'");
        assertEquals("ANSI", rows(variables.answer("SELECT @@sql_mode", true, "shop")).get(1));
        variables.recordSet("SET sql_mode = @@global.sql_mode");
        assertNull(variables.answer("SELECT @@sql_mode", true, "shop"));
    }

    /**
     * One owner: the engine's session keeps the isolation level, which the read-back only reads (the
     * backend's default until the session sets one); no SET text recorded here changes it.
     */
    @Test
    void theIsolationIsTheEnginesWhateverWasRecorded() {
        io.shardwise.core.execute.SessionState.Isolation[] engine = {null};
        SessionVariables tracked = new SessionVariables(CLIENT, () -> java.util.Map.of("transaction_isolation", "READ-COMMITTED",
                "tx_isolation", "READ-COMMITTED"), () -> null, () -> false, () -> engine[0]);
        assertEquals(List.of("@@transaction_isolation|@@tx_isolation", "READ-COMMITTED|READ-COMMITTED"),
                rows(tracked.answer("SELECT @@transaction_isolation, @@tx_isolation", true, "shop")));
        tracked.recordSet("SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        tracked.recordSet("SET transaction_isolation = 'READ-UNCOMMITTED'");
        assertEquals("READ-COMMITTED", rows(tracked.answer("SELECT @@transaction_isolation", true, "shop")).get(1),
                "recorded text is no second copy");
        engine[0] = io.shardwise.core.execute.SessionState.Isolation.REPEATABLE_READ;
        assertEquals(List.of("@@session.transaction_isolation|@@tx_isolation", "REPEATABLE-READ|REPEATABLE-READ"),
                rows(tracked.answer("SELECT @@session.transaction_isolation, @@tx_isolation", true, "shop")));
    }

    /** One owner: the engine's session keeps the access mode, which the read-back only reads (no copy of its own to drift). */
    @Test
    void theAccessModeIsTheEnginesWhateverWasRecorded() {
        boolean[] engine = {true};
        SessionVariables tracked = new SessionVariables(CLIENT, java.util.Map::of, () -> null, () -> engine[0]);
        assertEquals(List.of("@@transaction_read_only|@@tx_read_only", "1|1"),
                rows(tracked.answer("SELECT @@transaction_read_only, @@tx_read_only", true, "shop")));
        tracked.recordSet("SET SESSION TRANSACTION READ ONLY");
        engine[0] = false; // the engine refused or reset it: the read-back follows the engine, not the recorded text
        assertEquals("0", rows(tracked.answer("SELECT @@tx_read_only", true, "shop")).get(1));
    }

    @Test
    void sqlModeIsTheEnginesOnceASetChangedItWhateverTheSetSpelled() {
        String[] engine = {null};
        SessionVariables tracked = new SessionVariables(CLIENT, () -> java.util.Map.of("sql_mode", "STRICT_TRANS_TABLES"),
                () -> engine[0], () -> false);
        assertEquals("STRICT_TRANS_TABLES", tracked.text("sql_mode"));
        // the engine evaluated the expression on a backend; the text of the SET is no value
        tracked.recordSet("SET sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')");
        engine[0] = "STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES";
        assertEquals(List.of("@@sql_mode", "STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES"), rows(tracked.answer("SELECT @@sql_mode", true, "shop")));
        assertEquals("STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES", tracked.text("sql_mode"));
    }

    @Test
    void defaultsAreTheBackendsWhereTheBackendDecidesThemAndDefaultRestoresThem() {
        SessionVariables fromBackend = new SessionVariables(CLIENT, () -> java.util.Map.of("sql_mode", "STRICT_TRANS_TABLES",
                "version_comment", "mariadb.org binary distribution", "sql_auto_is_null", "OFF", "time_zone", "+00:00",
                "max_allowed_packet", "16777216"));
        String select = "SELECT @@sql_mode, @@version_comment, @@sql_auto_is_null, @@time_zone, @@max_allowed_packet";
        List<String> initial = List.of("@@sql_mode|@@version_comment|@@sql_auto_is_null|@@time_zone|@@max_allowed_packet",
                "STRICT_TRANS_TABLES|mariadb.org binary distribution|0|+00:00|67108864");
        assertEquals(initial, rows(fromBackend.answer(select, true, "shop")));
        fromBackend.recordSet("SET sql_mode = 'ANSI_QUOTES', time_zone = '+02:00'");
        fromBackend.recordSet("SET SESSION sql_mode = DEFAULT");
        assertEquals("STRICT_TRANS_TABLES|mariadb.org binary distribution|0|+02:00|67108864", rows(fromBackend.answer(select, true, "shop")).get(1));
        fromBackend.reset();
        assertEquals(initial, rows(fromBackend.answer(select, true, "shop")));
    }

    @Test
    void maxAllowedPacketIsTheConfiguredLimit() {
        SessionVariables limited = new SessionVariables(new SessionVariables.Client("app", "10.0.0.9", 12, 4 << 20),
                () -> java.util.Map.of("max_allowed_packet", "16777216"));
        assertEquals(List.of("@@max_allowed_packet", "4194304"), rows(limited.answer("SELECT @@max_allowed_packet", true, "shop")));
    }

    /**
     * completion_type is read as MariaDB 11.4 reads it (checked against a real one): 0-2 or a name in any case,
     * quoted or not, becomes the quoted name the session keeps; an unquoted RELEASE is a reserved word (1064); a
     * quoted number, another name or NULL is 1231; a decimal 1232; an expression is evaluated when applied.
     */
    @Test
    void completionTypeIsReadAsMariaDbReadsIt() {
        java.util.Map<String, String> named = new java.util.LinkedHashMap<>();
        named.put("SET completion_type = 1", "'CHAIN'");
        named.put("SET SESSION completion_type = 'chain'", "'CHAIN'");
        named.put("SET @@completion_type = 2", "'RELEASE'");
        named.put("SET @@session.completion_type = 'Release'", "'RELEASE'");
        named.put("SET completion_type = no_chain", "'NO_CHAIN'");
        named.put("SET completion_type = 0", "'NO_CHAIN'");
        named.put("SET completion_type = CHAIN", "'CHAIN'");
        for (var e : named.entrySet()) {
            SetStatement.Variable v = (SetStatement.Variable) SetStatement.parse(e.getKey(), LexicalMode.DEFAULT).assignments().get(0);
            assertEquals("completion_type", v.name(), e.getKey());
            assertEquals(e.getValue(), v.expression(), e.getKey());
        }
        assertTrue(((SetStatement.Variable) SetStatement.parse("SET completion_type = DEFAULT", LexicalMode.DEFAULT).assignments().get(0)).isDefault());
        assertFalse(((SetStatement.Variable) SetStatement.parse("SET completion_type = @x", LexicalMode.DEFAULT).assignments().get(0)).literal());
        SessionVariables v = new SessionVariables(new SessionVariables.Client("app", "localhost", 1));
        v.record(SetStatement.parse("SET completion_type = 1", LexicalMode.DEFAULT));
        ResultCursor read = v.answer("SELECT @@completion_type", true, "shop");
        assertEquals(39, read.columns().get(0).decimals(), "as MariaDB 11.4 describes it (OracleIT)");
        assertTrue(read.next());
        assertEquals("CHAIN", new String(read.get(0), StandardCharsets.UTF_8));
        java.util.Map<String, Integer> refused = new java.util.LinkedHashMap<>();
        refused.put("SET completion_type = RELEASE", 1064);
        refused.put("SET completion_type = 3", 1231);
        refused.put("SET completion_type = '1'", 1231);
        refused.put("SET completion_type = NULL", 1231);
        refused.put("SET completion_type = 'x'", 1231);
        refused.put("SET completion_type = 1.0", 1232);
        refused.put("SET GLOBAL completion_type = 1", 1235);
        refused.put("SET @@global.completion_type = 1", 1235);
        for (var e : refused.entrySet()) {
            io.shardwise.core.error.ShardwiseException x = org.junit.jupiter.api.Assertions.assertThrows(
                    io.shardwise.core.error.ShardwiseException.class, () -> SetStatement.parse(e.getKey(), LexicalMode.DEFAULT), e.getKey());
            assertEquals(e.getValue(), x.errno(), e.getKey());
        }
    }

    @Test
    void answersAreDescribedInTheResultsCollationTheSessionLastSet() {
        Collations table = Collations.of(new String[][] {{"45", "utf8mb4_general_ci", "utf8mb4", "Yes"},
                {"224", "utf8mb4_unicode_ci", "utf8mb4", ""}, {"8", "latin1_swedish_ci", "latin1", "Yes"},
                {"33", "utf8mb3_general_ci", "utf8mb3", "Yes"}});
        SessionVariables session = new SessionVariables(CLIENT, java.util.Map::of, () -> null, () -> table);
        String sql = "SELECT @@version_comment, @@autocommit";
        // before any SET NAMES: the server's utf8mb4_general_ci, four bytes a character ("Shardwise": 9)
        assertEquals(List.of("45 36", "63 21"), described(session, sql));
        session.recordSet("SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci");
        assertEquals(List.of("224 36", "63 21"), described(session, sql));
        session.recordSet("SET NAMES latin1");
        assertEquals(List.of("8 9", "63 21"), described(session, sql));
        session.recordSet("SET character_set_results = utf8mb3");
        assertEquals(List.of("33 27", "63 21"), described(session, sql));
        session.recordSet("SET collation_connection = utf8mb4_unicode_ci"); // the connection's collation is not the results'
        assertEquals(List.of("33 27", "63 21"), described(session, sql));
        session.recordSet("SET character_set_results = NULL"); // no conversion: each value as it is
        assertEquals(List.of("45 36", "63 21"), described(session, sql));
    }

    private static List<String> described(SessionVariables session, String sql) {
        try (ResultCursor answer = session.results().follow(session.answer(sql, true, "shop"))) {
            return answer.columns().stream().map(c -> c.collation() + " " + c.length()).toList();
        }
    }
}
