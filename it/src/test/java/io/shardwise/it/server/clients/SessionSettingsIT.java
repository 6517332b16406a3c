package io.shardwise.it.server.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.it.server.clients.ClientFixture.Endpoint;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14 items 9, 10 and 11 through real drivers on both server paths: SHOW statements that name no
 * logical table are answered from the default backend (PLUGINS, ENGINES, CHARSET, COLLATION, PRIVILEGES,
 * STATUS); SHOW VARIABLES spells values as the server does; a select mixing variables and session
 * functions answers each with the logical value; LAST_INSERT_ID() is the session's; wait_timeout closes
 * an idle client — all compared with one MariaDB through PyMySQL. The backends' system schemas meet a
 * user as MySQL's meet one without privileges on them (1044, 1142), an administrator
 * ({@code admin: true}) reads them and only reads; SHOW GRANTS names the logical account, and the
 * replication status is an administrator's — checked through Connector/J.
 */
class SessionSettingsIT {
    private static ClientFixture fixture;
    @RegisterExtension
    static final ClientFixture.Lifecycle LIFECYCLE = new ClientFixture.Lifecycle(() -> ClientFixture.start("settings", yaml -> yaml.replace("    - { name: app,",
                "    - { name: dba, password: dba, schemas: [shop], admin: true }\n    - { name: app,")), f -> fixture = f);

    @Test
    void pymysqlShowsSettingsAndSessionFunctionsAsOneServer() {
        String python = ClientProcess.require("python3 with PyMySQL (apt-get install python3-pymysql)", "/usr/bin/python3", "python3");
        String script = CharsetsIT.root().resolve("it/src/test/python/pymysql_session.py").toString();
        CharsetsIT.sameOnEveryPath(fixture, e -> ClientProcess.run(List.of(python, script, e.host(), Integer.toString(e.port()),
                e.user(), e.password(), e.database()), null, null, 120), "## idle connection: closed");
    }

    @Test
    void systemSchemasAreRefusedToAUserAndReadOnlyForAnAdministrator() throws SQLException {
        for (boolean relay : List.of(true, false)) {
            Endpoint app = relay ? fixture.viaServer() : fixture.viaExecutor();
            Endpoint dba = relay ? fixture.viaServer("dba", "dba") : fixture.viaExecutor("dba", "dba");
            List<String> user = outcomes(app, List.of("USE mysql", "USE performance_schema", "USE sys",
                    "SELECT User FROM mysql.user", "SELECT * FROM performance_schema.threads LIMIT 1", "SELECT * FROM sys.version",
                    "SHOW TABLES FROM mysql", "DESCRIBE mysql.user", "DELETE FROM mysql.user WHERE 1 = 0", "SHOW MASTER STATUS",
                    "SHOW BINARY LOGS", "SHOW GRANTS FOR root@localhost", "USE no_such_database_anywhere"));
            assertEquals(List.of("USE mysql: 1044 42000", "USE performance_schema: 1044 42000", "USE sys: 1044 42000",
                    "SELECT User FROM mysql.user: 1142 42000", "SELECT * FROM performance_schema.threads LIMIT 1: 1142 42000",
                    "SELECT * FROM sys.version: 1142 42000", "SHOW TABLES FROM mysql: 1044 42000", "DESCRIBE mysql.user: 1044 42000",
                    "DELETE FROM mysql.user WHERE 1 = 0: 1142 42000", "SHOW MASTER STATUS: 1227 42000", "SHOW BINARY LOGS: 1227 42000",
                    "SHOW GRANTS FOR root@localhost: 1044 42000", "USE no_such_database_anywhere: 1049 42000"), user, "relay " + relay);
            List<String> admin = outcomes(dba, List.of("SELECT COUNT(*) > 0 FROM mysql.user", "SHOW TABLES FROM mysql LIKE 'user'",
                    "DELETE FROM mysql.user WHERE 1 = 0", "SHOW GRANTS"));
            assertEquals(List.of("SELECT COUNT(*) > 0 FROM mysql.user: 1", "SHOW TABLES FROM mysql LIKE 'user': user",
                    "DELETE FROM mysql.user WHERE 1 = 0: 1142 42000",
                    "SHOW GRANTS: GRANT USAGE ON *.* TO `dba`@`%`, GRANT ALL PRIVILEGES ON `shop`.* TO `dba`@`%`, "
                            + "GRANT SELECT ON `mysql`.* TO `dba`@`%`, GRANT SELECT ON `performance_schema`.* TO `dba`@`%`, "
                            + "GRANT SELECT ON `sys`.* TO `dba`@`%`"), admin, "relay " + relay);
            List<String> grants = outcomes(app, List.of("SHOW GRANTS", "SHOW GRANTS FOR CURRENT_USER()"));
            assertEquals(List.of("SHOW GRANTS: GRANT USAGE ON *.* TO `app`@`%`, GRANT ALL PRIVILEGES ON `shop`.* TO `app`@`%`",
                    "SHOW GRANTS FOR CURRENT_USER(): GRANT USAGE ON *.* TO `app`@`%`, GRANT ALL PRIVILEGES ON `shop`.* TO `app`@`%`"),
                    grants);
        }
    }

    /** Each statement's first column of each row, or its error code and SQLSTATE. */
    private static List<String> outcomes(Endpoint e, List<String> statements) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:mysql://" + e.host() + ":" + e.port() + "/" + e.database()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true", e.user(), e.password()); Statement s = c.createStatement()) {
            for (String sql : statements) {
                try {
                    if (s.execute(sql)) {
                        List<String> rows = new ArrayList<>();
                        try (ResultSet rs = s.getResultSet()) {
                            while (rs.next()) {
                                rows.add(rs.getString(1));
                            }
                        }
                        out.add(sql + ": " + String.join(", ", rows));
                    } else {
                        out.add(sql + ": ok");
                    }
                } catch (SQLException refused) {
                    assertTrue(refused.getErrorCode() > 1000, () -> sql + ": " + refused);
                    out.add(sql + ": " + refused.getErrorCode() + " " + refused.getSQLState());
                }
            }
        }
        return out;
    }
}
