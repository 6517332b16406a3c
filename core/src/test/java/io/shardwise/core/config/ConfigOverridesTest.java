package io.shardwise.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.rule.ShardingRule;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigOverridesTest {
    static final String TABLES = ConfigLoaderTest.BASE;
    static final String SERVER = """
            server:
              users: [ { name: app, password: pw } ]
            """;
    static final String BASE = TABLES + SERVER;

    static ConfigLoader.Result parse(String yaml, String... pathsAndValues) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < pathsAndValues.length; i += 2) {
            values.put(pathsAndValues[i], pathsAndValues[i + 1]);
        }
        return new ConfigLoader(ConfigLoaderTest.ENV::get).parse(yaml, "test.yaml", ConfigOverrides.of(values));
    }

    static ShardwiseConfig config(String yaml, String... pathsAndValues) {
        ConfigLoader.Result r = parse(yaml, pathsAndValues);
        assertEquals(List.of(), r.problems());
        return r.config();
    }

    static List<String> problems(String yaml, String... pathsAndValues) {
        return parse(yaml, pathsAndValues).problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void aPropertyReplacesAValueOfTheFile() {
        ShardwiseConfig c = config(BASE, "backends.ds1.url", "jdbc:mysql://other:3306/shop_1", "schema", "store");
        assertEquals("jdbc:mysql://other:3306/shop_1", c.backends().get("ds1").url());
        assertEquals("store", c.schema());
        assertEquals("jdbc:mysql://h:3306/shop_0", c.backends().get("ds0").url(), "values no property names stay");
    }

    @Test
    void aPropertyAddsKeysTheFileLeavesOutCreatingTheMappingsOnTheWay() {
        ShardwiseConfig c = config(BASE, "backends.ds0.pool.max", "4", "backends.ds0.pool.connectionTimeout", "5s",
                "backends.ds1.password", "${env:DS1_PASSWORD}");
        assertEquals(4, c.backends().get("ds0").pool().max());
        assertEquals(Duration.ofSeconds(5), c.backends().get("ds0").pool().connectionTimeout());
        assertEquals(4, c.backends().get("ds0").pool().minIdle(), "other pool values keep their defaults");
        assertEquals("s3cret", c.backends().get("ds1").password(), "environment references expand as in the file");
    }

    @Test
    void listItemsAreReplacedOrAppendedByIndex() {
        ShardwiseConfig c = config(BASE, "server.users[0].password", "new", "server.users[1].name", "reader");
        assertEquals("new", c.server().users().get(0).password());
        assertEquals("app", c.server().users().get(0).name());
        assertEquals("reader", c.server().users().get(1).name());
    }

    @Test
    void anEmptyMappingInTheFileCanBeFilled() {
        ShardwiseConfig c = config(TABLES + "  notes:\n" + SERVER, "tables.notes.backend", "ds1");
        assertEquals("ds1", c.tables().get("notes").nodes().getFirst().backend());
    }

    @Test
    void anUnknownKeyIsReportedAtThePropertyWithASuggestion() {
        assertEquals(List.of("backends.ds0.pool.max_size (set by a property): unknown key 'max_size'. Did you mean 'max'?"
                        + " Valid keys here: connectionTimeout, idleTimeout, max, maxLifetime, minIdle"),
                problems(BASE, "backends.ds0.pool.max_size", "4"));
        assertTrue(problems(BASE, "bakends.ds0.url", "x").getFirst().startsWith(
                "bakends (set by a property): unknown key 'bakends'. Did you mean 'backends'?"));
    }

    @Test
    void aBadValueIsReportedAtThePropertyWithWhatWouldBeValid() {
        assertEquals(List.of("backends.ds0.pool.max (set by a property): 'lots' is not an integer; expected an integer from 1 to 10000"),
                problems(BASE, "backends.ds0.pool.max", "lots"));
        assertEquals(List.of("backends.ds1.url (set by a property): 'postgres://h/db' is not a MySQL JDBC URL;"
                        + " expected jdbc:mysql://host:port/database (or jdbc:mariadb://...)"),
                problems(BASE, "backends.ds1.url", "postgres://h/db"));
    }

    @Test
    void pathsThatCannotBeFollowedAreReported() {
        assertEquals(List.of("schema.name (set by a property): schema is the value 'shop', which has no key 'name'"),
                problems(BASE, "schema.name", "x"));
        assertEquals(List.of("server.users[3].name (set by a property): server.users has 1 items;"
                        + " a property may replace one (index 0 to 0) or append one (index 1)"),
                problems(BASE, "server.users[3].name", "x"));
        assertEquals(List.of("backends..url (set by a property): 'backends..url' is not a configuration path;"
                        + " expected keys joined by dots, with [n] for a list item, e.g. backends.ds0.pool.max or server.users[0].name"),
                problems(BASE, "backends..url", "x"));
        assertEquals(List.of("backends.ds0[0] (set by a property): backends.ds0 is a mapping, which has no item [0]"),
                problems(BASE, "backends.ds0[0]", "x"));
    }

    @Test
    void problemsOfTheFileKeepTheirLinesBesideThoseOfProperties() {
        List<String> problems = problems(BASE.replace("ds1: { url", "ds1: { uri"), "backends.ds0.pool.max", "0");
        assertEquals(List.of("backends.ds0.pool.max (set by a property): '0' is out of range; expected an integer from 1 to 10000",
                "backends.ds1.uri (line 4): unknown key 'uri'. Did you mean 'url'? Valid keys here: password, pool, url, user",
                "backends.ds1 (line 4): missing key 'url'; e.g. url: \"jdbc:mysql://127.0.0.1:3306/ds1\""), problems);
    }

    @Test
    void valuesAreTypedAsTheyWouldBeWrittenPlainInTheFile() {
        String events = TABLES + "  events: { nodes: \"ds0.events_${2025..2026}\", key: created_at,"
                + " algorithm: { type: interval, unit: year, from: \"2025-01-01\" } }\n";
        ShardingRule rule = ShardingRule.load(events, "test.yaml", ConfigLoaderTest.ENV::get,
                ConfigOverrides.of(Map.of("tables.events.algorithm.amount", "2", "tables.events.algorithm.from", "2024-01-01")));
        AlgorithmConfig algorithm = ((TableConfig.Sharded) rule.config().tables().get("events")).algorithm();
        assertEquals(Map.of("unit", "year", "from", "2024-01-01", "amount", 2L), algorithm.properties());
    }

    @Test
    void anEmptyFileCanBeMadeWhollyOfProperties() {
        ShardwiseConfig c = config("", "schema", "s", "backends.ds0.url", "jdbc:mysql://h/s");
        assertEquals("s", c.schema());
        assertEquals("ds0", c.defaultBackend());
    }

    @Test
    void theReportNamesTheFileAndTheProperties() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> ShardingRule.load(BASE, "test.yaml",
                ConfigLoaderTest.ENV::get, ConfigOverrides.of(Map.of("backends.ds0.pool.max", "x", "schema", "s"))));
        assertTrue(e.getMessage().startsWith("Invalid Shardwise configuration in test.yaml with properties backends.ds0.pool.max, schema:"),
                e.getMessage());
    }

    @Test
    void overrideSetsAreEqualWhateverTheirOrder() {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("x", "1");
        a.put("y", "2");
        Map<String, String> b = new LinkedHashMap<>();
        b.put("y", "2");
        b.put("x", "1");
        assertEquals(ConfigOverrides.of(a), ConfigOverrides.of(b));
        assertEquals(ConfigOverrides.of(a).hashCode(), ConfigOverrides.of(b).hashCode());
        assertEquals(ConfigOverrides.NONE, ConfigOverrides.of(Map.of()));
    }
}
