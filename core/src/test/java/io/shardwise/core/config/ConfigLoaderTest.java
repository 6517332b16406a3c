package io.shardwise.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {
    /** The configuration of DESIGN.md, verbatim. */
    static final String DESIGN_EXAMPLE = """
            schema: shop                      # the logical database clients see
            backends:                         # physical MySQL-compatible servers (one pool each)
              ds0: { url: "jdbc:mysql://127.0.0.1:3306/shop_0", user: root, password: "", pool: { max: 64 } }
              ds1: { url: "jdbc:mysql://127.0.0.1:3306/shop_1", user: root, password: "${env:DS1_PASSWORD}" }
            defaultBackend: ds0               # tables no rule names live here (single tables)
            tables:
              orders:
                nodes: "ds${0..1}.orders_${0..1}"   # ds0.orders_0, ds0.orders_1, ds1.orders_0, ds1.orders_1
                key: user_id                        # the sharding column
                algorithm: { type: mod }            # node index = user_id mod 4, in the order listed above
                generate: { column: order_id, type: snowflake }
              order_items: { bindTo: orders, key: user_id }   # same nodes shape, co-located with orders
              sbtest1: { nodes: "ds${0..1}.sbtest1", key: id, algorithm: { type: hash } }
              events:
                nodes: "ds0.events_${2025..2026}"
                key: created_at
                algorithm: { type: interval, unit: year, from: "2025-01-01" }
              countries: { broadcast: true }        # a full copy on every backend
            server:                           # the server face only
              port: 3307
              users: [ { name: app, password: "${env:APP_PASSWORD}", schemas: [shop] } ]
            """;

    static final Map<String, String> ENV = Map.of("DS1_PASSWORD", "s3cret", "APP_PASSWORD", "app-pw");

    static ConfigLoader.Result parse(String yaml) {
        return new ConfigLoader(ENV::get).parse(yaml, "test.yaml");
    }

    /** The problems of a configuration, as users read them. */
    static List<String> problems(String yaml) {
        return parse(yaml).problems().stream().map(ConfigProblem::toString).toList();
    }

    static void assertOneProblem(String yaml, String... fragments) {
        List<String> problems = problems(yaml);
        assertEquals(1, problems.size(), () -> "expected one problem, got " + problems);
        for (String fragment : fragments) {
            assertTrue(problems.get(0).contains(fragment), () -> "'" + fragment + "' missing from: " + problems.get(0));
        }
    }

    /** A small valid configuration; tests append or replace lines to break it one way. */
    static final String BASE = """
            schema: shop
            backends:
              ds0: { url: "jdbc:mysql://h:3306/shop_0" }
              ds1: { url: "jdbc:mysql://h:3306/shop_1" }
            defaultBackend: ds0
            tables:
              orders: { nodes: "ds${0..1}.orders_${0..1}", key: user_id, algorithm: { type: mod } }
            """;

    @Test
    void designExampleLoadsWithEveryTableKind() {
        ConfigLoader.Result result = parse(DESIGN_EXAMPLE);
        assertEquals(List.of(), result.problems());
        ShardwiseConfig config = result.config();
        assertEquals("shop", config.schema());
        assertEquals("ds0", config.defaultBackend());
        assertEquals(64, config.backends().get("ds0").pool().max());
        assertEquals("s3cret", config.backends().get("ds1").password());

        TableConfig.Sharded orders = assertInstanceOf(TableConfig.Sharded.class, config.tables().get("orders"));
        assertEquals(List.of(new DataNode("ds0", "orders_0"), new DataNode("ds0", "orders_1"),
                new DataNode("ds1", "orders_0"), new DataNode("ds1", "orders_1")), orders.nodes());
        assertEquals("user_id", orders.key());
        assertEquals("mod", orders.algorithm().type());
        assertEquals("order_id", orders.generate().column());
        assertEquals("snowflake", orders.generate().type());

        TableConfig.Bound items = assertInstanceOf(TableConfig.Bound.class, config.tables().get("order_items"));
        assertEquals("orders", items.bindTo());
        assertEquals(List.of(new DataNode("ds0", "order_items_0"), new DataNode("ds0", "order_items_1"),
                new DataNode("ds1", "order_items_0"), new DataNode("ds1", "order_items_1")), items.nodes());

        TableConfig.Sharded events = assertInstanceOf(TableConfig.Sharded.class, config.tables().get("events"));
        assertEquals(List.of(new DataNode("ds0", "events_2025"), new DataNode("ds0", "events_2026")), events.nodes());
        assertEquals(Map.of("unit", "year", "from", "2025-01-01"), events.algorithm().properties());

        TableConfig.Broadcast countries = assertInstanceOf(TableConfig.Broadcast.class, config.tables().get("countries"));
        assertEquals(List.of(new DataNode("ds0", "countries"), new DataNode("ds1", "countries")), countries.nodes());

        assertEquals(3307, config.server().port());
        assertEquals("app-pw", config.server().users().get(0).password());
        assertEquals(List.of("shop"), config.server().users().get(0).schemas());
        assertEquals(List.of("orders", "order_items", "sbtest1", "events", "countries"), List.copyOf(config.tables().keySet()));
    }

    @Test
    void everyMistakeIsReportedInOnePass() {
        List<String> problems = problems("""
                schema: shop
                backends:
                  ds0: { url: "jdbc:mysql://h/db", usr: root }
                  ds1: { url: "http://h/db" }
                defaultBackend: ds0
                tables:
                  orders: { nodes: "ds${0..2}.orders", key: user_id, algoritm: { type: mod } }
                """);
        assertEquals(4, problems.size(), problems::toString);
        assertTrue(problems.get(0).startsWith("backends.ds0.usr (line 3): unknown key 'usr'. Did you mean 'user'?"), problems.get(0));
        assertTrue(problems.get(1).startsWith("backends.ds1.url (line 4): 'http://h/db' is not a MySQL JDBC URL"), problems.get(1));
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("tables.orders.algoritm (line 7): unknown key 'algoritm'. Did you mean 'algorithm'?")), problems::toString);
        assertTrue(problems.stream().anyMatch(p -> p.contains("missing key 'algorithm'")), problems::toString);
    }

    @Test
    void unknownKeysAreRejectedWithASuggestionAndTheValidKeys() {
        assertOneProblem(BASE + "defaultBackends: ds0\n",
                "(line 8)", "unknown key 'defaultBackends'", "Did you mean 'defaultBackend'?", "Valid keys here:", "tables");
    }

    @Test
    void nodeExpressionThatExpandsToNothingIsReported() {
        assertOneProblem(BASE.replace("ds${0..1}.orders_${0..1}", "ds${0..1}.orders_${3..2}"),
                "tables.orders.nodes (line 7)", "'ds${0..1}.orders_${3..2}' expands to no node", "a <= b");
        assertOneProblem(BASE.replace("ds${0..1}.orders_${0..1}", "ds${[]}.orders"), "expands to no node");
    }

    @Test
    void nodeNamingAnUndefinedBackendListsTheDefinedOnes() {
        assertOneProblem(BASE.replace("ds${0..1}.orders_${0..1}", "ds${0..2}.orders"),
                "tables.orders.nodes (line 7)", "names backend ds2; defined: ds0, ds1");
    }

    @Test
    void bindToAMissingTableSuggestsTheClosestShardedTable() {
        assertOneProblem(BASE + "  order_items: { bindTo: order, key: user_id }\n",
                "tables.order_items.bindTo (line 8)", "'order' is not a sharded table here.", "Did you mean 'orders'?",
                "Sharded tables: orders");
    }

    @Test
    void bindToADifferentlyShapedTableExplainsBothShapes() {
        assertOneProblem(BASE + "  order_items: { bindTo: orders, key: user_id, nodes: \"ds${0..1}.items_${0..2}\" }\n",
                "tables.order_items.nodes (line 8)", "gives 6 nodes on [ds0, ds0, ds0, ds1, ds1, ds1]",
                "'orders' has 4 nodes on [ds0, ds0, ds1, ds1]", "same number of nodes on the same backends in the same order");
    }

    @Test
    void boundTableWithSameShapedExplicitNodesIsAccepted() {
        ConfigLoader.Result r = parse(BASE + "  order_items: { bindTo: orders, key: user_id, nodes: \"ds${0..1}.items_${0..1}\" }\n");
        assertEquals(List.of(), r.problems());
        assertEquals(new DataNode("ds1", "items_1"), r.config().tables().get("order_items").nodes().get(3));
    }

    @Test
    void bindToANonShardedTableSaysWhatItIs() {
        assertOneProblem(BASE + "  countries: { broadcast: true }\n  x: { bindTo: countries, key: code }\n",
                "tables.x.bindTo", "'countries' is a broadcast table; bindTo needs a sharded table");
        assertOneProblem(BASE + "  items: { bindTo: orders, key: user_id }\n  sub: { bindTo: items, key: user_id }\n",
                "tables.sub.bindTo", "itself bound to 'orders'; bind to 'orders' instead");
    }

    @Test
    void boundNodesCannotBeDerivedWhenTheRootsNamesDoNotContainIt() {
        assertOneProblem(BASE.replace("orders_${0..1}", "o_${0..1}") + "  items: { bindTo: orders, key: user_id }\n",
                "cannot derive the nodes of 'items' from ds0.o_0", "give nodes: explicitly");
    }

    @Test
    void boundTableMayNotCarryItsOwnAlgorithm() {
        assertOneProblem(BASE + "  items: { bindTo: orders, key: user_id, algorithm: { type: hash } }\n",
                "tables.items.algorithm", "uses the algorithm of the table it is bound to");
    }

    @Test
    void backendThatNoTableUsesIsReported() {
        assertOneProblem(BASE.replace("  ds1: { url: \"jdbc:mysql://h:3306/shop_1\" }\n",
                        "  ds1: { url: \"jdbc:mysql://h:3306/shop_1\" }\n  ds2: { url: \"jdbc:mysql://h:3306/shop_2\" }\n"),
                "backends.ds2 (line 5)", "backend 'ds2' is not used by any table and is not the defaultBackend");
    }

    @Test
    void theDefaultBackendCountsAsUsedAndBroadcastTablesUseEveryBackend() {
        String yaml = """
                schema: s
                backends: { a: { url: "jdbc:mysql://h/a" }, b: { url: "jdbc:mysql://h/b" } }
                defaultBackend: a
                tables: { c: { broadcast: true } }
                """;
        assertEquals(List.of(), problems(yaml));
    }

    @Test
    void duplicatePhysicalTableIsReportedWithItsOwner() {
        assertOneProblem(BASE + "  archive: { nodes: \"ds1.orders_${1..2}\", key: user_id, algorithm: mod }\n",
                "tables.archive.nodes (line 8)", "physical table ds1.orders_1 is also used by table 'orders'",
                "each physical table holds one logical table");
        assertOneProblem(BASE.replace("ds${0..1}.orders_${0..1}", "ds0.o, ds1.o, ds0.O"),
                "physical table ds0.O appears twice in table 'orders'");
    }

    @Test
    void singleTableOnTheDefaultBackendCollidesWithAShardedNodeOfTheSameName() {
        assertOneProblem(BASE + "  orders_0: {}\n", "physical table ds0.orders_0 is also used by table 'orders'");
    }

    @Test
    void tableNamesDifferingOnlyInCaseAreRejected() {
        assertOneProblem(BASE + "  Orders: { backend: ds1 }\n", "tables.Orders.backend", "differs from table 'orders' only in case");
    }

    @Test
    void environmentReferencesExpandWithDefaultsAndMissingOnesAreReported() {
        String yaml = BASE.replace("\"jdbc:mysql://h:3306/shop_0\"", "\"jdbc:mysql://${env:DB_HOST:-localhost}:3306/shop_0\", password: \"${env:DS1_PASSWORD}\"");
        ConfigLoader.Result ok = parse(yaml);
        assertEquals(List.of(), ok.problems());
        assertEquals("jdbc:mysql://localhost:3306/shop_0", ok.config().backends().get("ds0").url());
        assertEquals("s3cret", ok.config().backends().get("ds0").password());

        assertOneProblem(BASE.replace("\"jdbc:mysql://h:3306/shop_1\"", "\"jdbc:mysql://h:3306/shop_1\", password: \"${env:NOPE}\""),
                "backends.ds1.password (line 4)", "environment variable NOPE is not set", "${env:NOPE:-value}");
    }

    @Test
    void anEnvironmentValueMayItselfContainDollarBrace() {
        ConfigLoader.Result r = new ConfigLoader(Map.of("PW", "a${env:b}c")::get)
                .parse(BASE.replace("\"jdbc:mysql://h:3306/shop_0\"", "\"jdbc:mysql://h:3306/shop_0\", password: \"${env:PW}\""), "t");
        assertEquals(List.of(), r.problems());
        assertEquals("a${env:b}c", r.config().backends().get("ds0").password());
        assertOneProblem(BASE.replace("\"jdbc:mysql://h:3306/shop_0\"", "\"jdbc:mysql://h:3306/shop_0\", password: \"${env:bad-name}\""),
                "malformed environment reference");
    }

    @Test
    void secretsNeverAppearInToString() {
        ShardwiseConfig config = parse(DESIGN_EXAMPLE).config();
        assertFalse(config.toString().contains("s3cret"), config::toString);
        assertFalse(config.toString().contains("app-pw"), config::toString);
    }

    @Test
    void duplicateYamlKeysAreReported() {
        assertOneProblem(BASE + "schema: other\n", "schema (line 8)", "duplicate key 'schema'");
    }

    @Test
    void invalidYamlGivesTheLine() {
        assertOneProblem("schema: shop\nbackends: [\n", "not valid YAML");
        assertOneProblem("", "the file is empty");
    }

    @Test
    void missingRequiredSectionsAreNamed() {
        List<String> p = problems("tables: {}\n");
        assertTrue(p.contains("(top level): missing key 'schema'"), p::toString);
        assertTrue(p.stream().anyMatch(s -> s.startsWith("(top level): missing key 'backends'")), p::toString);
    }

    @Test
    void severalBackendsNeedAnExplicitDefault() {
        assertOneProblem(BASE.replace("defaultBackend: ds0\n", ""), "missing key 'defaultBackend'", "one of ds0, ds1");
        assertOneProblem(BASE.replace("defaultBackend: ds0", "defaultBackend: ds9"),
                "defaultBackend (line 5)", "'ds9' is not a backend.", "Defined: ds0, ds1");
    }

    @Test
    void yamlNullsAreNullsAndValidKeysAreListedInAStableOrder() {
        ConfigLoader.Result r = parse(BASE.replace("{ url: \"jdbc:mysql://h:3306/shop_0\" }", "{ url: \"jdbc:mysql://h:3306/shop_0\", password: ~ }"));
        assertEquals(List.of(), r.problems());
        assertEquals("", r.config().backends().get("ds0").password());
        assertOneProblem(BASE + "  t: { nodez: x }\n", "Valid keys here: algorithm, backend, bindTo, broadcast, generate, key, nodes");
    }

    @Test
    void aSingleBackendIsTheDefault() {
        ConfigLoader.Result r = parse("schema: s\nbackends: { only: { url: \"jdbc:mariadb://h/s\" } }\n");
        assertEquals(List.of(), r.problems());
        assertEquals("only", r.config().defaultBackend());
        assertEquals("root", r.config().backends().get("only").user());
    }

    @Test
    void poolSettingsAreCheckedAndDurationsTakeUnits() {
        ConfigLoader.Result r = parse(BASE.replace("{ url: \"jdbc:mysql://h:3306/shop_0\" }",
                "{ url: \"jdbc:mysql://h:3306/shop_0\", pool: { max: 8, minIdle: 2, connectionTimeout: 5s, idleTimeout: 2m, maxLifetime: 1800000 } }"));
        assertEquals(List.of(), r.problems());
        PoolConfig pool = r.config().backends().get("ds0").pool();
        assertEquals(new PoolConfig(8, 2, Duration.ofSeconds(5), Duration.ofMinutes(2), Duration.ofMinutes(30)), pool);

        assertOneProblem(BASE.replace("{ url: \"jdbc:mysql://h:3306/shop_0\" }", "{ url: \"jdbc:mysql://h:3306/shop_0\", pool: { max: 0 } }"),
                "backends.ds0.pool.max", "'0' is out of range; expected an integer from 1 to 10000");
        assertOneProblem(BASE.replace("{ url: \"jdbc:mysql://h:3306/shop_0\" }", "{ url: \"jdbc:mysql://h:3306/shop_0\", pool: { max: 4, minIdle: 5 } }"),
                "backends.ds0.pool.minIdle", "'5' is more than max (4)");
        assertOneProblem(BASE.replace("{ url: \"jdbc:mysql://h:3306/shop_0\" }", "{ url: \"jdbc:mysql://h:3306/shop_0\", pool: { idleTimeout: soon } }"),
                "'soon' is not a duration", "(e.g. 30s)");
    }

    @Test
    void backendNamesMustBeUsableInNodeExpressions() {
        assertOneProblem("schema: s\nbackends: { \"my-db\": { url: \"jdbc:mysql://h/s\" } }\n", "backend name 'my-db' must be letters, digits and _");
    }

    @Test
    void aTableIsOfExactlyOneKind() {
        assertOneProblem(BASE + "  c: { broadcast: true, nodes: \"ds0.c\" }\n", "table 'c' sets broadcast and nodes; a table is either sharded");
        assertOneProblem(BASE + "  c: { broadcast: true, key: id }\n", "tables.c.key", "'key' applies to sharded and bound tables only");
    }

    @Test
    void shardedTablesNeedAKeyAndAnAlgorithm() {
        assertOneProblem(BASE.replace(", key: user_id", ""), "tables.orders (line 7)", "missing key 'key'", "e.g. key: user_id");
        assertOneProblem(BASE.replace(", algorithm: { type: mod }", ""), "missing key 'algorithm'", "types: mod, hash, range, interval");
        assertOneProblem(BASE.replace("{ type: mod }", "{ boundaries: [1] }"), "tables.orders.algorithm", "missing key 'type'");
    }

    @Test
    void singleTablesComeFromABackendAOneNodeExpressionOrNothing() {
        ShardwiseConfig c = parse(BASE + "  a: { backend: ds1 }\n  b: { nodes: \"ds1.b_v2\" }\n  c: {}\n  d:\n").config();
        assertEquals(new TableConfig.Single("a", new DataNode("ds1", "a"), null), c.tables().get("a"));
        assertEquals(new TableConfig.Single("b", new DataNode("ds1", "b_v2"), null), c.tables().get("b"));
        assertEquals(new TableConfig.Single("c", new DataNode("ds0", "c"), null), c.tables().get("c"));
        assertEquals(new TableConfig.Single("d", new DataNode("ds0", "d"), null), c.tables().get("d"));
        assertNotNull(c.table("ORDERS"), "lookup ignores case");
    }

    @Test
    void keyGeneratorsNeedAColumnAndAType() {
        assertOneProblem(BASE.replace("{ type: mod }", "{ type: mod }, generate: { type: snowflake }"), "tables.orders.generate", "missing key 'column'");
        assertOneProblem(BASE.replace("{ type: mod }", "{ type: mod }, generate: { column: id }"), "tables.orders.generate", "missing key 'type'");
    }

    @Test
    void serverUsersAreCheckedAgainstTheSchema() {
        assertOneProblem(BASE + "server: { users: [ { name: app, schemas: [shopp] } ] }\n",
                "server.users[0].schemas[0]", "'shopp' is not a schema of this configuration. Did you mean 'shop'?");
        assertOneProblem(BASE + "server: { users: [ { name: app }, { name: app } ] }\n", "server.users[1]", "user 'app' is defined twice");
        assertOneProblem(BASE + "server: { port: 70000 }\n", "server.port", "expected an integer from 0 to 65535");
        assertOneProblem(BASE + "server: { users: [ { password: x } ] }\n", "server.users[0]", "missing key 'name'");
        ShardwiseConfig c = parse(BASE + "server: { users: [ { name: app } ] }\n").config();
        assertEquals(new UserConfig("app", "", List.of("shop")), c.server().users().get(0));
    }

    @Test
    void loadThrowsOneExceptionListingEveryProblemWithErrno1105() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class,
                () -> new ConfigLoader(ENV::get).load(BASE.replace("ds0", "dsX").replace("shop_1", "shop_1\", usr: \"x"), "bad.yaml"));
        assertEquals(1105, e.errno());
        assertTrue(e.problems().size() >= 2, e.problems()::toString);
        assertTrue(e.getMessage().startsWith("Invalid Shardwise configuration in bad.yaml:"), e.getMessage());
        for (ConfigProblem p : e.problems()) {
            assertTrue(e.getMessage().contains(p.toString()), p::toString);
        }
    }
}
