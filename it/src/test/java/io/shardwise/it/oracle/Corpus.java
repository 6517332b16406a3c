package io.shardwise.it.oracle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Collects corpus statements under a current category; the fluent face of {@link HandCorpus}. */
final class Corpus {
    private final List<OracleCase> cases = new ArrayList<>();
    private String category = "uncategorized";

    Corpus category(String name) {
        category = name;
        return this;
    }

    /** A text statement. */
    Corpus q(String sql) {
        cases.add(new OracleCase(category, sql, null, false, false));
        return this;
    }

    /** A text statement whose strings compare under the collation (DISTINCT, GROUP BY, MIN/MAX of strings). */
    Corpus ci(String sql) {
        cases.add(new OracleCase(category, sql, null, false, true));
        return this;
    }

    /** A prepared statement with these parameter values. */
    Corpus p(String sql, Object... params) {
        cases.add(new OracleCase(category, sql, Arrays.asList(params), false, false));
        return this;
    }

    /** A statement that fails on MySQL; Shardwise must fail with the same errno, SQLSTATE and message. */
    Corpus fails(String sql) {
        cases.add(new OracleCase(category, sql, null, true, false));
        return this;
    }

    /** A statement that fails on MySQL with the same errno and SQLSTATE but, for {@code reason}, other wording. */
    Corpus failsWordedOtherwise(String sql, String reason) {
        cases.add(new OracleCase(category, sql, null, true, false, reason));
        return this;
    }

    /** A write, then the whole table it touched, in primary-key order. */
    Corpus write(String sql, String table, String primaryKey) {
        cases.add(new OracleCase(category, sql, null, false, false));
        return check(table, primaryKey);
    }

    /** A prepared write with these values, then the whole table it touched. */
    Corpus pwrite(String sql, String table, String primaryKey, Object... params) {
        cases.add(new OracleCase(category, sql, Arrays.asList(params), false, false));
        return check(table, primaryKey);
    }

    /** A failing write, then the whole table (which must be unchanged on both sides). */
    Corpus failingWrite(String sql, String table, String primaryKey) {
        cases.add(new OracleCase(category, sql, null, true, false));
        return check(table, primaryKey);
    }

    Corpus check(String table, String primaryKey) {
        cases.add(new OracleCase(category, "SELECT * FROM " + table + " ORDER BY " + primaryKey, null, false, false));
        return this;
    }

    Corpus add(OracleCase c) {
        cases.add(c);
        return this;
    }

    List<OracleCase> cases() {
        return List.copyOf(cases);
    }
}
