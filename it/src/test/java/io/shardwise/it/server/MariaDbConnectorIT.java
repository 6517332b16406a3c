package io.shardwise.it.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MariaDB Connector/J 3.5 through the Shardwise server against the same driver straight to the
 * unsharded database: its connect-time queries, text and binary (server-prepared) queries, batches,
 * transactions, multi-queries and every column type must give the same rows, metadata, counts and
 * error codes.
 */
class MariaDbConnectorIT {
    private static final String TEXT = "";
    private static final String SERVER_PREPARES = "useServerPrepStmts=true";
    private static final String MULTI_QUERIES = "allowMultiQueries=true";
    private static ServerFixture f;

    @BeforeAll
    static void start() {
        f = ServerFixture.get();
    }

    @AfterEach
    void nothingBorrowed() throws InterruptedException {
        f.assertNothingBorrowed();
    }

    private static void same(String options, ClientScenarios.Scenario scenario) throws SQLException {
        ServerFixture.same(f::directMariadb, f::mariadb, options, scenario, MariaDbConnectorIT::withoutExpressionWidths);
    }

    private static final Pattern INTEGER_EXPRESSION = Pattern.compile("label=.* table= type=-?\\d+ typeName=(TINYINT|SMALLINT|MEDIUMINT|INTEGER|BIGINT)\\b.*");

    /**
     * Known gap: the MariaDB driver reports an integer column's wire length as its display size and
     * precision, and the engine reads backends through Connector/J, which drops that length for
     * integers; table columns get MySQL's default widths back, but an expression's own width
     * ({@code SELECT 1}: 1, {@code COUNT(*)}: 21) is lost. And a JSON column is LONGTEXT through Shardwise:
     * MariaDB names the JSON format only in its extended metadata, a MariaDB-only capability the server
     * does not offer (against MySQL the driver cannot tell either). Values and types still agree.
     */
    private static List<String> withoutExpressionWidths(List<String> lines) {
        return lines.stream().map(l -> INTEGER_EXPRESSION.matcher(l).matches()
                ? l.replaceAll(" precision=\\d+", "").replaceAll(" displaySize=\\d+", "")
                : l.startsWith("label=t_json ") ? l.replace("typeName=JSON ", "typeName=LONGTEXT ") : l).toList();
    }

    @Test
    void connectsAndDescribesItself() throws SQLException {
        try (Connection c = f.mariadb("")) {
            assertTrue(c.isValid(5));
            DatabaseMetaData md = c.getMetaData();
            assertEquals("MariaDB Connector/J", md.getDriverName());
            assertEquals("shop", c.getCatalog());
            assertTrue(c.getAutoCommit());
            assertEquals(Connection.TRANSACTION_REPEATABLE_READ, c.getTransactionIsolation());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {TEXT, SERVER_PREPARES})
    void pointAndScatterSelectsAgree(String options) throws SQLException {
        same(options, ClientScenarios::selects);
    }

    @ParameterizedTest
    @ValueSource(strings = {TEXT, SERVER_PREPARES})
    void everyColumnTypeReadsAlike(String options) throws SQLException {
        same(options, ClientScenarios::columnTypes);
    }

    @ParameterizedTest
    @ValueSource(strings = {TEXT, SERVER_PREPARES})
    void insertsUpdatesDeletesAndGeneratedKeysAgree(String options) throws SQLException {
        same(options, ClientScenarios::writes);
    }

    @ParameterizedTest
    @ValueSource(strings = {TEXT, SERVER_PREPARES, MULTI_QUERIES})
    void batchesWithAFailingEntryAgree(String options) throws SQLException {
        same(options, ClientScenarios::batches);
    }

    @ParameterizedTest
    @ValueSource(strings = {TEXT, SERVER_PREPARES})
    void transactionsRollBackAndCommitAlike(String options) throws SQLException {
        same(options, ClientScenarios::transactions);
    }

    @ParameterizedTest
    @ValueSource(strings = {TEXT, SERVER_PREPARES})
    void errorsCarryTheSameCodes(String options) throws SQLException {
        same(options, ClientScenarios::errors);
    }

    @ParameterizedTest
    @ValueSource(strings = {TEXT, MULTI_QUERIES})
    void multiStatementQueriesAgree(String options) throws SQLException {
        same(options, ClientScenarios::multiStatements);
    }
}
