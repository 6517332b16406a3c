package io.shardwise.core.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The benchmark tables of the sample: sysbench's {@code sbtest1..4} and the HSCALE {@code small}
 * table, with exactly the upstream schemas, so benchmark numbers compare with published ones.
 */
final class BenchmarkRows {
    static final int SBTEST_TABLES = 4;
    static final int SBTEST_ROWS = 1000;

    /** sysbench 1.0's oltp_common.lua schema, with the secondary index inline. */
    private static final String SBTEST_DDL = "CREATE TABLE {table} (id INT NOT NULL AUTO_INCREMENT,"
            + " k INT NOT NULL DEFAULT 0, c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '',"
            + " PRIMARY KEY (id), KEY k_1 (k))";

    private static final String SMALL_DDL = "CREATE TABLE {table} (id INT UNSIGNED NOT NULL,"
            + " category ENUM('books','hardware','software') NOT NULL, PRIMARY KEY(id)) ENGINE=MEMORY";

    private BenchmarkRows() {}

    static List<SampleTable> tables() {
        List<SampleTable> tables = new ArrayList<>();
        for (int n = 1; n <= SBTEST_TABLES; n++) {
            tables.add(sbtest(n));
        }
        tables.add(small());
        return List.copyOf(tables);
    }

    /** Rows as sysbench's prepare step makes them: k uniform in [1, rows], c and pad digit groups. */
    static SampleTable sbtest(int n) {
        Random r = new Random(0x5B7E_5700L + n);
        List<List<Object>> rows = new ArrayList<>(SBTEST_ROWS);
        for (int id = 1; id <= SBTEST_ROWS; id++) {
            rows.add(ShopRows.row(id, 1 + r.nextInt(SBTEST_ROWS), digitGroups(r, 10), digitGroups(r, 5)));
        }
        return new SampleTable("sbtest" + n, List.of("id", "k", "c", "pad"), SBTEST_DDL, rows);
    }

    /** sysbench's {@code ###########-###########...}: groups of 11 random digits joined by '-'. */
    static String digitGroups(Random r, int groups) {
        StringBuilder s = new StringBuilder(groups * 12);
        for (int g = 0; g < groups; g++) {
            if (g > 0) {
                s.append('-');
            }
            for (int i = 0; i < 11; i++) {
                s.append((char) ('0' + r.nextInt(10)));
            }
        }
        return s.toString();
    }

    /** HSCALE's three rows. Ids are Long because Connector/J reads INT UNSIGNED as Long. */
    static SampleTable small() {
        return new SampleTable("small", List.of("id", "category"), SMALL_DDL,
                List.of(ShopRows.row(1L, "books"), ShopRows.row(2L, "hardware"), ShopRows.row(3L, "software")));
    }
}
