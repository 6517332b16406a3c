package io.shardwise.core.sample;

import static org.junit.jupiter.api.Assertions.fail;

import com.google.common.collect.HashMultiset;
import com.google.common.collect.Multiset;
import com.google.common.collect.Multisets;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.testkit.MysqlServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Reads sample tables back from a real server, independently of the loader's code. */
final class SampleDb {
    private SampleDb() {}

    static SampleTarget target(MysqlServer server, String databasePrefix) {
        return new SampleTarget(server.host(), server.port(), server.user(), server.password(), databasePrefix);
    }

    /** The database a backend's URL names: what the rule, not the test, says. */
    static String database(ShardingRule rule, String backend) {
        String url = rule.config().backends().get(backend).url();
        int slash = url.indexOf('/', "jdbc:mysql://".length());
        int query = url.indexOf('?', slash);
        return url.substring(slash + 1, query < 0 ? url.length() : query);
    }

    /** Every row of {@code table}, columns in the sample's order, values as Connector/J's getObject gives them. */
    static List<List<Object>> rows(MysqlServer server, String database, String table, List<String> columns) {
        String select = "SELECT " + columns.stream().map(c -> "`" + c + "`").collect(Collectors.joining(", "))
                + " FROM `" + table + "`";
        List<List<Object>> rows = new ArrayList<>();
        try (Connection c = server.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(select)) {
            while (rs.next()) {
                Object[] row = new Object[columns.size()];
                for (int i = 0; i < row.length; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                rows.add(Arrays.asList(row));
            }
        } catch (SQLException e) {
            throw new AssertionError("reading " + database + "." + table + ": " + e.getMessage(), e);
        }
        return rows;
    }

    static long count(MysqlServer server, String database, String table) {
        return longQuery(server, database, "SELECT COUNT(*) FROM `" + table + "`");
    }

    static long longQuery(MysqlServer server, String database, String sql) {
        try (Connection c = server.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new AssertionError(sql + " on " + database + ": " + e.getMessage(), e);
        }
    }

    static String stringQuery(MysqlServer server, String database, String sql) {
        try (Connection c = server.connect(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new AssertionError(sql + " on " + database + ": " + e.getMessage(), e);
        }
    }

    /** The base tables of a database, lower-cased, sorted. */
    static Set<String> tables(MysqlServer server, String database) {
        Set<String> names = new TreeSet<>();
        String sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'";
        try (Connection c = server.connect(null); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, database);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1).toLowerCase(java.util.Locale.ROOT));
                }
            }
        } catch (SQLException e) {
            throw new AssertionError(sql + ": " + e.getMessage(), e);
        }
        return names;
    }

    /** Equal as multisets (row order ignored, duplicates counted); the message lists what differs. */
    static void assertSameRows(Collection<List<Object>> expected, Collection<List<Object>> actual, String what) {
        Multiset<List<Object>> e = HashMultiset.create(expected);
        Multiset<List<Object>> a = HashMultiset.create(actual);
        if (e.equals(a)) {
            return;
        }
        Multiset<List<Object>> missing = Multisets.difference(e, a);
        Multiset<List<Object>> extra = Multisets.difference(a, e);
        fail(what + ": expected " + expected.size() + " rows, got " + actual.size() + "; missing " + missing.size()
                + " e.g. " + first(missing) + "; unexpected " + extra.size() + " e.g. " + first(extra));
    }

    private static String first(Multiset<List<Object>> rows) {
        return rows.elementSet().stream().limit(3).map(SampleDb::describe).collect(Collectors.joining(", ", "[", "]"));
    }

    /** A row with each value's type, since 10.0 and 10.00, or 1 and 1L, look alike when printed. */
    static String describe(List<Object> row) {
        return row.stream().map(v -> v == null ? "NULL" : v.getClass().getSimpleName() + " " + v)
                .collect(Collectors.joining(", ", "(", ")"));
    }

    static void dropDatabases(MysqlServer server, String... databases) {
        for (String d : databases) {
            server.dropSchema(d);
        }
    }
}
