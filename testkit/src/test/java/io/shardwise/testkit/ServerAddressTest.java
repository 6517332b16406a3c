package io.shardwise.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ServerAddressTest {

    @Test
    void parsesUserPasswordHostAndPort() {
        assertEquals(List.of(new ServerAddress("app", "secret", "db1.example", 3310)),
                ServerAddress.parseList("mysql://app:secret@db1.example:3310"));
    }

    @Test
    void passwordMayBeOmittedOrEmpty() {
        assertEquals(List.of(new ServerAddress("root", "", "127.0.0.1", 3306)),
                ServerAddress.parseList("mysql://root@127.0.0.1:3306"));
        assertEquals(List.of(new ServerAddress("root", "", "127.0.0.1", 3306)),
                ServerAddress.parseList("mysql://root:@127.0.0.1:3306"));
    }

    @Test
    void portDefaultsTo3306() {
        assertEquals(3306, ServerAddress.parseList("mysql://root@localhost").getFirst().port());
    }

    @Test
    void commaSeparatedListGivesSeveralServersInOrder() {
        assertEquals(List.of(
                        new ServerAddress("a", "x", "h1", 3306),
                        new ServerAddress("b", "", "h2", 3307),
                        new ServerAddress("c", "y", "::1", 3308)),
                ServerAddress.parseList("mysql://a:x@h1:3306, mysql://b@h2:3307 ,MYSQL://c:y@[::1]:3308"));
    }

    @Test
    void percentEscapesLetPasswordsHoldReservedCharacters() {
        ServerAddress a = ServerAddress.parseList("mysql://app:p%40ss%3Aw%2Cord%25@db:3306").getFirst();
        assertEquals("p@ss:w,ord%", a.password());
        assertEquals("db", a.host());
    }

    @Test
    void passwordContainingAtSignSplitsAtTheLastOne() {
        assertEquals("p@ss", ServerAddress.parseList("mysql://app:p@ss@db:3306").getFirst().password());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "root@127.0.0.1:3306            | must start with mysql://",
        "jdbc:mysql://root@h:3306       | must start with mysql://",
        "mysql://127.0.0.1:3306         | no user@",
        "mysql://:pw@h:3306             | empty user",
        "mysql://root@:3306             | empty host",
        "mysql://root@h:33o6            | port '33o6' is not a number",
        "mysql://root@h:70000           | port 70000 is outside 1-65535",
        "mysql://root@h:3306/db         | no path or schema",
        "mysql://root@[::1:3306         | unclosed '['",
        "mysql://root:%zz@h:3306        | bad percent escape",
    })
    void malformedValuesFailNamingTheVariableAndTheExpectedFormat(String value, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServerAddress.parseList(value));
        assertTrue(e.getMessage().startsWith("SHARDWISE_TEST_MYSQL "), e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
        assertTrue(e.getMessage().contains("expected mysql://user[:password]@host[:port]"), e.getMessage());
    }

    @Test
    void errorInAListNamesTheEntry() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerAddress.parseList("mysql://a@h1:3306,,mysql://b@h2:3306"));
        assertTrue(e.getMessage().contains("entry 2 of 3"), e.getMessage());
        assertTrue(e.getMessage().contains("empty entry"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mysql://app:hunter2@h:bad", "mysql://app:hunter2@h:3306/x"})
    void errorsAndToStringNeverShowThePassword(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServerAddress.parseList(value));
        assertFalse(e.getMessage().contains("hunter2"), e.getMessage());
        assertTrue(e.getMessage().contains("app:***@"), e.getMessage());
        assertEquals("mysql://app:***@h:3306", new ServerAddress("app", "hunter2", "h", 3306).toString());
    }
}
