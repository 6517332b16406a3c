package io.shardwise.it.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DatabaseMetaData through the Shardwise driver on the sharded layout against Connector/J's on the
 * unsharded database: the same labels, values and Java classes, the catalog name aside (the logical
 * schema {@code shop} on one side, the unsharded database's name on the other, shown as
 * {@code <catalog>}). Physical names (orders_0, the backend databases) therefore cannot appear.
 */
class DatabaseMetaDataIT {
    private static final String CATALOG = "<catalog>";
    /** Statistics of an index are the first physical table's, not the logical table's: see docs/jdbc.md. */
    private static final Set<String> STATISTICS = Set.of("CARDINALITY", "PAGES");
    /**
     * No-argument methods that rightly differ: they name the driver, its URL or the account (Shardwise
     * has none of its own). Every other boolean, int and String answer must equal Connector/J's.
     */
    private static final Set<String> DRIVER_IDENTITY = Set.of("getURL", "getUserName", "getDriverName", "getDriverVersion",
            "getDriverMajorVersion", "getDriverMinorVersion", "getConnection");
    /**
     * Deliberately false where Connector/J says true: the driver refuses the function escape
     * {@code {? = call f(?)}}, so claiming it would mislead.
     */
    private static final Set<String> TRUTHFULLY_FALSE = Set.of("supportsStoredFunctionsUsingCallSyntax");

    private static Fixture f;

    @BeforeAll
    static void load() {
        f = Fixture.get();
    }

    interface Listing {
        ResultSet list(DatabaseMetaData md, String catalog) throws SQLException;
    }

    /** Labels and rows (getObject values with classes) of a listing through each driver, catalog names replaced. */
    private static void same(Listing listing) throws SQLException {
        List<String> expected;
        try (Connection c = f.direct()) {
            expected = rows(listing, c);
        }
        List<String> actual;
        try (Connection c = f.shardwise()) {
            actual = rows(listing, c);
        }
        assertEquals(String.join("\n", expected), String.join("\n", actual));
        assertTrue(expected.size() > 1, "compared at least one row");
    }

    private static List<String> rows(Listing listing, Connection c) throws SQLException {
        String catalog = c.getCatalog();
        List<String> out = new ArrayList<>();
        try (ResultSet rs = listing.list(c.getMetaData(), catalog)) {
            int n = rs.getMetaData().getColumnCount();
            List<String> labels = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                labels.add(rs.getMetaData().getColumnLabel(i));
            }
            out.add(String.join(" | ", labels));
            int table = labels.indexOf("TABLE_NAME") + 1;
            List<Map.Entry<String, String>> rows = new ArrayList<>();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    String cell = STATISTICS.contains(labels.get(i - 1)) ? "~" : catalog.equals(v) ? CATALOG : Outcomes.value(v);
                    row.append(cell).append(" | ");
                }
                rows.add(Map.entry(table == 0 ? "" : rs.getString(table).toUpperCase(Locale.ROOT), row.toString()));
            }
            // Servers order names by their information_schema collation (case-folded on MariaDB, binary on
            // MySQL 8 with lower_case_table_names=0): compare table by table, each table's rows in order.
            rows.sort(Map.Entry.comparingByKey());
            rows.forEach(r -> out.add(r.getValue()));
        }
        return out;
    }

    @Test
    void theOneCatalogIsTheLogicalSchemaAndThereAreNoSchemas() throws SQLException {
        try (Connection c = f.shardwise()) {
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getCatalogs()) {
                assertEquals(List.of("java.lang.String shop | "), Outcomes.rows(rs));
            }
            try (ResultSet rs = md.getSchemas()) {
                assertEquals(List.of(), Outcomes.rows(rs));
            }
        }
        try (Connection c = f.direct(); ResultSet rs = c.getMetaData().getSchemas()) {
            assertEquals(List.of(), Outcomes.rows(rs), "Connector/J with databaseTerm=CATALOG has no schemas either");
        }
    }

    @Test
    void productNameAndVersionAreTheBackendsAsConnectorJReportsThem() throws SQLException {
        try (Connection direct = f.direct(); Connection shardwise = f.shardwise()) {
            DatabaseMetaData d = direct.getMetaData();
            DatabaseMetaData s = shardwise.getMetaData();
            assertEquals(d.getDatabaseProductName(), s.getDatabaseProductName());
            assertEquals(d.getDatabaseProductVersion(), s.getDatabaseProductVersion());
            assertEquals(d.getDatabaseMajorVersion(), s.getDatabaseMajorVersion());
            assertEquals(d.getDatabaseMinorVersion(), s.getDatabaseMinorVersion());
        }
    }

    /** Every table of the unsharded database, under the same names: configured tables once, whatever their layout, plus the default backend's own. */
    @Test
    void tablesAreTheLogicalTables() throws SQLException {
        same((md, cat) -> md.getTables(cat, null, "%", new String[] {"TABLE"}));
        same((md, cat) -> md.getTables(cat, null, "order%", null));
        try (Connection c = f.shardwise()) {
            DatabaseMetaData md = c.getMetaData();
            assertEquals(rows((m, cat) -> m.getTables(cat, null, "%", null), c), rows((m, cat) -> m.getTables(null, null, "%", null), c),
                    "no catalog named is the one logical catalog (Connector/J would list every database of the server)");
        }
        try (Connection c = f.shardwise(); ResultSet rs = c.getMetaData().getTables(f.target.databasePrefix() + "_0", null, "%", null)) {
            assertEquals(List.of(), Outcomes.rows(rs), "a backend database is no catalog of the logical schema");
        }
    }

    /** Columns of every table, of sharded, broadcast, single and unconfigured tables alike, and of a column pattern. */
    @Test
    void columnsAreThoseOfTheLogicalTables() throws SQLException {
        same((md, cat) -> md.getColumns(cat, null, "%", "%"));
        same((md, cat) -> md.getColumns(cat, null, "orders", "%_id"));
    }

    @Test
    void primaryKeysAndIndexesAreThoseOfTheLogicalTables() throws SQLException {
        for (String table : List.of("orders", "order_items", "users", "countries", "promotions", "events", "sbtest1", "small", "types")) {
            same((md, cat) -> md.getPrimaryKeys(cat, null, table));
            same((md, cat) -> md.getIndexInfo(cat, null, table, false, true));
        }
    }

    /** Every no-argument boolean, int and String answer (capability flags, limits, keyword lists): the same value or the same refusal. */
    @Test
    void capabilityFlagsAreConnectorJs() throws SQLException {
        List<Method> methods = Arrays.stream(DatabaseMetaData.class.getMethods())
                .filter(m -> m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers()) && !DRIVER_IDENTITY.contains(m.getName()))
                .filter(m -> m.getReturnType() == boolean.class || m.getReturnType() == int.class || m.getReturnType() == String.class
                        || m.getReturnType() == long.class)
                .sorted(Comparator.comparing(Method::getName))
                .toList();
        List<String> differences = new ArrayList<>();
        try (Connection direct = f.direct(); Connection shardwise = f.shardwise()) {
            for (Method m : methods) {
                String expected = call(m, direct.getMetaData());
                String actual = call(m, shardwise.getMetaData());
                if (TRUTHFULLY_FALSE.contains(m.getName())) {
                    assertEquals("java.lang.Boolean false", actual, m.getName());
                } else if (!expected.equals(actual)) {
                    differences.add(m.getName() + ": Connector/J " + expected + ", Shardwise " + actual);
                }
            }
        }
        assertEquals(List.of(), differences, String.join("\n", differences));
        assertTrue(methods.size() > 100, "compared " + methods.size() + " methods");
    }

    private static String call(Method m, DatabaseMetaData md) {
        return Outcomes.of(() -> {
            try {
                return m.invoke(md);
            } catch (ReflectiveOperationException e) {
                if (e.getCause() instanceof SQLException s) {
                    throw s;
                }
                throw new IllegalStateException(e.getCause());
            }
        });
    }
}
