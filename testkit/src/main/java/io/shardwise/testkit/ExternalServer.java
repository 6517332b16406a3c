package io.shardwise.testkit;

import java.sql.SQLException;

/** A server named by {@value ServerAddress#ENV}: checked reachable on creation, never stopped by us. */
final class ExternalServer implements MysqlServer {

    private final ServerAddress address;
    private final String version;

    private ExternalServer(ServerAddress address, String version) {
        this.address = address;
        this.version = version;
    }

    /** @throws IllegalStateException naming the variable and address when the server cannot be reached */
    static ExternalServer connect(ServerAddress address) {
        try {
            return new ExternalServer(address,
                    Jdbc.queryVersion(address.host(), address.port(), address.user(), address.password()));
        } catch (SQLException e) {
            throw new IllegalStateException(ServerAddress.ENV + " names " + address + ", which is unreachable or refuses"
                    + " the login: " + e.getMessage() + " [SQLState " + e.getSQLState() + ", errno " + e.getErrorCode() + "]", e);
        }
    }

    @Override
    public BackendKind kind() {
        return BackendKind.EXTERNAL;
    }

    @Override
    public String host() {
        return address.host();
    }

    @Override
    public int port() {
        return address.port();
    }

    @Override
    public String user() {
        return address.user();
    }

    @Override
    public String password() {
        return address.password();
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public void close() {
        // not ours to stop
    }

    @Override
    public String toString() {
        return "ExternalServer[" + address + "]";
    }
}
