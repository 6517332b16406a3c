package io.shardwise.it.server;

import java.sql.SQLException;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Connector/J through the Shardwise server against Connector/J straight to the unsharded database,
 * for each way Connector/J talks to a server: client-side prepares (the default), server-side
 * prepared statements with and without its statement cache, rewritten batches (multi-row INSERT,
 * multi-statement UPDATE/DELETE through COM_SET_OPTION) and allowMultiQueries. Rows and metadata,
 * update counts, generated keys and error codes must agree.
 */
class ConnectorJOptionsIT {
    private static final String CLIENT_PREPARES = "";
    private static final String SERVER_PREPARES = "useServerPrepStmts=true";
    private static final String CACHED_SERVER_PREPARES = "useServerPrepStmts=true&cachePrepStmts=true";
    private static final String REWRITTEN_BATCHES = "rewriteBatchedStatements=true";
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
        ServerFixture.same(f::directConnectorJ, f::connectorJ, options, scenario, UnaryOperator.identity());
    }

    @ParameterizedTest
    @ValueSource(strings = {CLIENT_PREPARES, SERVER_PREPARES, CACHED_SERVER_PREPARES, REWRITTEN_BATCHES, MULTI_QUERIES})
    void pointAndScatterSelectsAgree(String options) throws SQLException {
        same(options, ClientScenarios::selects);
    }

    @ParameterizedTest
    @ValueSource(strings = {CLIENT_PREPARES, SERVER_PREPARES, CACHED_SERVER_PREPARES, REWRITTEN_BATCHES, MULTI_QUERIES})
    void everyColumnTypeReadsAlike(String options) throws SQLException {
        same(options, ClientScenarios::columnTypes);
    }

    @ParameterizedTest
    @ValueSource(strings = {CLIENT_PREPARES, SERVER_PREPARES, CACHED_SERVER_PREPARES, REWRITTEN_BATCHES, MULTI_QUERIES})
    void insertsUpdatesDeletesAndGeneratedKeysAgree(String options) throws SQLException {
        same(options, ClientScenarios::writes);
    }

    @ParameterizedTest
    @ValueSource(strings = {CLIENT_PREPARES, SERVER_PREPARES, CACHED_SERVER_PREPARES, REWRITTEN_BATCHES, MULTI_QUERIES,
            REWRITTEN_BATCHES + "&" + SERVER_PREPARES, REWRITTEN_BATCHES + "&" + MULTI_QUERIES})
    void batchesWithAFailingEntryAgree(String options) throws SQLException {
        same(options, ClientScenarios::batches);
    }

    @ParameterizedTest
    @ValueSource(strings = {CLIENT_PREPARES, SERVER_PREPARES, CACHED_SERVER_PREPARES, REWRITTEN_BATCHES, MULTI_QUERIES})
    void transactionsRollBackAndCommitAlike(String options) throws SQLException {
        same(options, ClientScenarios::transactions);
    }

    @ParameterizedTest
    @ValueSource(strings = {CLIENT_PREPARES, SERVER_PREPARES, CACHED_SERVER_PREPARES, REWRITTEN_BATCHES, MULTI_QUERIES})
    void errorsCarryTheSameCodes(String options) throws SQLException {
        same(options, ClientScenarios::errors);
    }

    /** With allowMultiQueries each result comes back in order; without it both sides refuse the text with 1064. */
    @ParameterizedTest
    @ValueSource(strings = {CLIENT_PREPARES, MULTI_QUERIES, MULTI_QUERIES + "&" + SERVER_PREPARES})
    void multiStatementQueriesAgree(String options) throws SQLException {
        same(options, ClientScenarios::multiStatements);
    }
}
