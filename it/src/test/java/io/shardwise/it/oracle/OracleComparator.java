package io.shardwise.it.oracle;

import io.shardwise.it.oracle.Outcome.Crash;
import io.shardwise.it.oracle.Outcome.Failure;
import io.shardwise.it.oracle.Outcome.Row;
import io.shardwise.it.oracle.Outcome.Rows;
import io.shardwise.it.oracle.Outcome.Update;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides whether Shardwise's outcome of a statement matches the unsharded database's, and writes
 * the report when it does not. Results agree when labels, protocol types and rows agree (in order
 * when the statement has a top-level ORDER BY, as multisets otherwise); updates when affected rows
 * and last insert id agree; errors when errno and SQLSTATE agree and, for a comparator that knows
 * the unsharded database's name, the message too, read with that name as the logical schema's (a
 * client matching on MySQL's text must not see physical names). A report always shows the
 * statement, both outcomes and the first rows that differ: nothing passes silently.
 *
 * <p>Cells of FLOAT and DOUBLE columns compare within the float tolerance ({@link #sameDouble}): MySQL
 * computes VARIANCE/STDDEV and floating sums in the order it reads the rows, so a merge of per-shard
 * partials can differ in the last bits of a DOUBLE (and the backend differs from itself when its scan
 * order changes). Every other cell compares byte for byte.
 */
final class OracleComparator {
    /** Rows shown per side in a report. */
    static final int SHOWN_ROWS = 5;

    private final Pattern directDatabase;
    private final String logicalSchema;
    private final Map<String, Integer> metadataKinds = new java.util.concurrent.ConcurrentHashMap<>();

    /** Compares errors by errno and SQLSTATE only. */
    OracleComparator() {
        this.directDatabase = null;
        this.logicalSchema = null;
    }

    /** Compares error messages too, {@code directDatabase} (a whole identifier) read as {@code logicalSchema}. */
    OracleComparator(String directDatabase, String logicalSchema) {
        this.directDatabase = Pattern.compile("(?<![\\w$])" + Pattern.quote(directDatabase) + "(?![\\w$])");
        this.logicalSchema = logicalSchema;
    }

    sealed interface Verdict {
        /** Both sides agree. */
        record Identical() implements Verdict {}

        /** The sides disagree: a Shardwise bug, or a corpus statement whose result is not determined. */
        record Different(String report) implements Verdict {}

        /** A side crashed, or an error case did not fail on the unsharded database. */
        record Error(String report) implements Verdict {}
    }

    static final Verdict IDENTICAL = new Verdict.Identical();

    Verdict compare(OracleCase c, Outcome sharded, Outcome direct) {
        if (sharded instanceof Crash || direct instanceof Crash) {
            return new Verdict.Error(report(c, sharded, direct, "a side crashed" + stack(sharded) + stack(direct)));
        }
        if (c.mustFail() && !(direct instanceof Failure)) {
            return new Verdict.Error(report(c, sharded, direct, "corpus: this error case succeeds on the unsharded database"));
        }
        String difference = switch (direct) {
            case Rows d -> sharded instanceof Rows s ? rowsAndMetadata(c, s, d) : "shardwise did not return rows";
            case Update d -> sharded instanceof Update s ? update(s, d) : "shardwise did not return an update count";
            case Failure d -> sharded instanceof Failure s ? failure(c, s, d) : "shardwise succeeded where the unsharded database failed";
            case Crash d -> throw new AssertionError("handled above");
        };
        return difference == null ? IDENTICAL : new Verdict.Different(report(c, sharded, direct, difference));
    }

    private static String update(Update s, Update d) {
        List<String> diffs = new ArrayList<>();
        if (s.affectedRows() != d.affectedRows()) {
            diffs.add("affected rows " + s.affectedRows() + " vs " + d.affectedRows());
        }
        if (s.lastInsertId() != d.lastInsertId()) {
            diffs.add("last insert id " + s.lastInsertId() + " vs " + d.lastInsertId());
        }
        return diffs.isEmpty() ? null : String.join("; ", diffs);
    }

    private String failure(OracleCase c, Failure s, Failure d) {
        if (s.errno() != d.errno()) {
            return "errno " + s.errno() + " vs " + d.errno();
        }
        if (!java.util.Objects.equals(s.sqlState(), d.sqlState())) {
            return "SQLSTATE " + s.sqlState() + " vs " + d.sqlState();
        }
        if (directDatabase == null || d.message() == null || c.otherMessage() != null) {
            return null;
        }
        String expected = directDatabase.matcher(d.message()).replaceAll(Matcher.quoteReplacement(logicalSchema));
        return expected.equals(s.message()) ? null : "message\n      shardwise: " + s.message() + "\n      direct:    " + expected;
    }

    /**
     * Protocol types agree, where VAR_STRING (253) and STRING (254) count as one: MariaDB itself
     * reports MAX() of an ENUM as either (JDBC: VARCHAR or CHAR), depending on the plan its optimizer picks for the data a
     * shard holds (a constant-table plan gives 253), so no merge can reproduce the choice.
     */
    static boolean sameTypes(List<Integer> a, List<Integer> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            int x = a.get(i);
            int y = b.get(i);
            if (x != y && !(isCharacterString(x) && isCharacterString(y))) {
                return false;
            }
        }
        return true;
    }

    /** VAR_STRING or STRING; through JDBC, which maps them so, VARCHAR or CHAR. */
    private static boolean isCharacterString(int type) {
        return type == 253 || type == 254 || type == ConnectorJSide.jdbcType(java.sql.Types.VARCHAR)
                || type == ConnectorJSide.jdbcType(java.sql.Types.CHAR);
    }

    private String rowsAndMetadata(OracleCase c, Rows s, Rows d) {
        String rows = rows(c, s, d);
        return rows != null ? rows : metadata(c, s, d);
    }

    /**
     * Statements whose columns were described differently, by property (a statement counts once per
     * property); {@code excused <property>} counts the differences {@link #excused} lets pass.
     */
    Map<String, Integer> metadataKinds() {
        return new java.util.TreeMap<>(metadataKinds);
    }

    /**
     * The columns' descriptions agree on every property both sides report ({@link Outcome.Meta}); the
     * direct database's name reads as the logical schema, as in error messages. Null when they agree.
     */
    private String metadata(OracleCase c, Rows s, Rows d) {
        if (s.meta().isEmpty() || d.meta().isEmpty()) {
            return null;
        }
        StringBuilder sb = null;
        java.util.Set<String> kinds = new java.util.TreeSet<>();
        java.util.Set<String> excusedKinds = new java.util.TreeSet<>();
        for (int i = 0; i < d.meta().size(); i++) {
            Map<String, Object> sm = s.meta().get(i);
            Map<String, Object> dm = d.meta().get(i);
            for (Map.Entry<String, Object> e : dm.entrySet()) {
                String key = e.getKey();
                if (!sm.containsKey(key)) {
                    continue;
                }
                Object expected = logical(key, e.getValue());
                Object actual = sm.get(key);
                if (java.util.Objects.equals(expected, actual)) {
                    continue;
                }
                if (excused(c, key, actual, expected, dm, d.types().get(i), d.labels().get(i))) {
                    excusedKinds.add("excused " + key);
                    continue;
                }
                kinds.add(key);
                sb = sb == null ? new StringBuilder("column metadata differs:") : sb;
                sb.append("\n      column ").append(i + 1).append(" '").append(d.labels().get(i)).append("' ").append(key)
                        .append(": shardwise ").append(show(key, actual)).append(", direct ").append(show(key, expected));
            }
        }
        kinds.forEach(k -> metadataKinds.merge(k, 1, Integer::sum));
        excusedKinds.forEach(k -> metadataKinds.merge(k, 1, Integer::sum));
        return sb == null ? null : sb.toString();
    }

    /**
     * Flags that describe the column's table rather than the value, and that MariaDB sets only when it
     * reads the column straight from its table, not through a temporary table (GROUP BY, DISTINCT,
     * ROLLUP, a sort of a join), so they follow each database's plan: PRI_KEY, UNIQUE_KEY, MULTIPLE_KEY,
     * TIMESTAMP, NO_DEFAULT_VALUE, ON_UPDATE_NOW, PART_KEY and NUM. AUTO_INCREMENT only where Shardwise's
     * column carries none of these (it came through a temporary table, as a merge's GROUP BY makes it):
     * the federated tier's copies keep it, so a column read from a table reports it as one MariaDB does.
     */
    static final int PLAN_FLAGS = 2 | 4 | 8 | 1024 | 4096 | 8192 | 16384 | 32768;
    private static final int AUTO_INCREMENT_FLAG = 512;
    private static final int BINARY_FLAG = 128;
    private static final int ENUM_FLAG = 256;

    /**
     * The differences one database's answer cannot pin down, each by its property and values
     * (docs/sql-support.md, Known limits, lists them): nothing else is excused.
     */
    static boolean excused(OracleCase c, String key, Object actual, Object expected, Map<String, Object> direct,
                           int directType, String label) {
        boolean binaryCollation = Integer.valueOf(63).equals(direct.get(Outcome.Meta.COLLATION));
        return switch (key) {
            // plan-dependent table flags; BINARY on a number or a date (binary collation, not a string type),
            // which MariaDB adds when the value went through a temporary table
            // and ENUM on MAX()/MIN() of an ENUM, described as STRING or VAR_STRING by plan (see sameTypes)
            case Outcome.Meta.FLAGS -> {
                int temporary = (((Integer) actual) & PLAN_FLAGS) == 0 ? AUTO_INCREMENT_FLAG : 0;
                int mask = PLAN_FLAGS | temporary | (binaryCollation && !isStringType(directType) ? BINARY_FLAG : 0)
                        | (label.regionMatches(true, 0, "MAX(", 0, 4) || label.regionMatches(true, 0, "MIN(", 0, 4) ? ENUM_FLAG : 0);
                yield (((Integer) actual) & ~mask) == (((Integer) expected) & ~mask);
            }
            // JDBC's view of AUTO_INCREMENT lost through a temporary table (see PLAN_FLAGS); never one gained
            case Outcome.Meta.AUTO_INCREMENT -> Boolean.FALSE.equals(actual);
            // MariaDB itself describes MAX()/MIN() of an ENUM as VAR_STRING or STRING by plan (see sameTypes)
            case Outcome.Meta.TYPE_NAME -> Set.of("CHAR", "VARCHAR").containsAll(List.of(actual, expected));
            // a string's "not fixed" decimals (39) are 0 through a temporary table; no client reads a string's scale
            case Outcome.Meta.DECIMALS -> !binaryCollation && Set.of(0, 39).containsAll(List.of(actual, expected));
            // the server faces put a prepared statement's values into its text: a column computed from a
            // parameter has the literal's length where one MySQL types the bound parameter (MariaDB: an
            // integer bound is 21 digits long, the literal 3 is 1; so `amount + ?` is DECIMAL(13,2), not (11,2));
            // MariaDB's own prepare describes these columns differently again (DOUBLE, length 17)
            case Outcome.Meta.LENGTH, Outcome.Meta.PRECISION, Outcome.Meta.DISPLAY_SIZE -> c.prepared() && label.contains("?");
            default -> false;
        };
    }

    /** VARCHAR, VAR_STRING, STRING, the BLOBs and GEOMETRY: the types whose BINARY flag says binary string. */
    private static boolean isStringType(int type) {
        return type == 15 || type >= 249 || type > ConnectorJSide.JDBC_TYPES;
    }

    /** The direct side's schema and catalog read with the logical schema's name. */
    private Object logical(String key, Object value) {
        if (directDatabase != null && value instanceof String text
                && (key.equals(Outcome.Meta.SCHEMA) || key.equals(Outcome.Meta.CATALOG))) {
            return directDatabase.matcher(text).replaceAll(Matcher.quoteReplacement(logicalSchema));
        }
        return value;
    }

    /** Flags spelled out ({@code 4129 NOT_NULL|UNSIGNED|...}), everything else as it is. */
    static String show(String key, Object value) {
        if (!key.equals(Outcome.Meta.FLAGS) || !(value instanceof Integer flags)) {
            return String.valueOf(value);
        }
        String[] names = {"NOT_NULL", "PRI_KEY", "UNIQUE_KEY", "MULTIPLE_KEY", "BLOB", "UNSIGNED", "ZEROFILL", "BINARY",
            "ENUM", "AUTO_INCREMENT", "TIMESTAMP", "SET", "NO_DEFAULT_VALUE", "ON_UPDATE_NOW", "PART_KEY", "NUM"};
        StringBuilder sb = new StringBuilder().append(flags);
        String sep = " ";
        for (int bit = 0; bit < names.length; bit++) {
            if ((flags & (1 << bit)) != 0) {
                sb.append(sep).append(names[bit]);
                sep = "|";
            }
        }
        return sb.toString();
    }

    private static String rows(OracleCase c, Rows s, Rows d) {
        if (!s.labels().equals(d.labels())) {
            return "labels " + s.labels() + " vs " + d.labels();
        }
        if (!sameTypes(s.types(), d.types())) {
            return "types " + s.types() + " vs " + d.types() + " (labels " + d.labels() + ")";
        }
        List<Row> sRows = c.collationEquivalent() ? fold(s.rows()) : s.rows();
        List<Row> dRows = c.collationEquivalent() ? fold(d.rows()) : d.rows();
        boolean[] floating = floatingColumns(d.types());
        String unordered = multisetDifference(sRows, dRows);
        if (unordered != null && sRows.size() == dRows.size() && sameWithinTolerance(sRows, dRows, floating)) {
            unordered = null;
        }
        if (!c.ordered()) {
            return unordered;
        }
        if (unordered != null) {
            return unordered;
        }
        for (int i = 0; i < sRows.size(); i++) {
            if (!sameRow(sRows.get(i), dRows.get(i), floating)) {
                StringBuilder sb = new StringBuilder("same rows in another order; first difference at row " + (i + 1) + ":");
                for (int j = i; j < Math.min(sRows.size(), i + SHOWN_ROWS); j++) {
                    sb.append("\n      row ").append(j + 1).append(": shardwise ").append(s.rows().get(j))
                            .append("  direct ").append(d.rows().get(j));
                }
                return sb.toString();
            }
        }
        return null;
    }

    /** The columns whose protocol type (or JDBC type) is FLOAT or DOUBLE; null when there are none. */
    static boolean[] floatingColumns(List<Integer> types) {
        boolean[] out = new boolean[types.size()];
        boolean any = false;
        for (int i = 0; i < out.length; i++) {
            int t = types.get(i);
            out[i] = t == 4 || t == 5 || t == ConnectorJSide.jdbcType(java.sql.Types.DOUBLE)
                    || t == ConnectorJSide.jdbcType(java.sql.Types.FLOAT) || t == ConnectorJSide.jdbcType(java.sql.Types.REAL);
            any |= out[i];
        }
        return any ? out : null;
    }

    /** The same multiset when FLOAT/DOUBLE cells compare within the tolerance (rows paired greedily; the lists are small). */
    private static boolean sameWithinTolerance(List<Row> sharded, List<Row> direct, boolean[] floating) {
        if (floating == null) {
            return false;
        }
        List<Row> left = new ArrayList<>(direct);
        for (Row r : sharded) {
            boolean found = false;
            for (int i = 0; i < left.size(); i++) {
                if (sameRow(r, left.get(i), floating)) {
                    left.remove(i);
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    static boolean sameRow(Row a, Row b, boolean[] floating) {
        if (a.equals(b)) {
            return true;
        }
        if (floating == null || a.width() != b.width()) {
            return false;
        }
        for (int i = 0; i < a.width(); i++) {
            String x = a.text(i);
            String y = b.text(i);
            if (!java.util.Objects.equals(x, y) && !(floating[i] && x != null && y != null
                    && sameDouble(doubleText(a.bytes(i)), doubleText(b.bytes(i))))) {
                return false;
            }
        }
        return true;
    }

    /**
     * A FLOAT/DOUBLE cell as decimal text: text-protocol cells are that already; Connector/J hands a
     * binary-protocol cell's IEEE bytes (little-endian, 8 for DOUBLE, 4 for FLOAT) to getBytes as they are.
     */
    static String doubleText(byte[] cell) {
        String text = new String(cell, java.nio.charset.StandardCharsets.ISO_8859_1);
        if (text.matches("\\s*[-+]?[0-9.]+([eE][-+]?[0-9]+)?\\s*")) {
            return text;
        }
        java.nio.ByteBuffer le = java.nio.ByteBuffer.wrap(cell).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        return cell.length == 8 ? Double.toString(le.getDouble()) : cell.length == 4 ? Float.toString(le.getFloat()) : text;
    }

    /**
     * The float tolerance: two DOUBLE texts agree when they are within 1e-12 of each other relatively
     * (a few thousand units in the last place: summation and Welford-versus-Chan order), or when one
     * side printed fewer decimals (a fixed scale such as VARIANCE's, argument's + 4, where the binary
     * protocol carries all 17 digits) and the other rounds to it: within half a unit of its last
     * digit, plus the relative tolerance. Texts of the same scale get no more than the relative
     * tolerance, so '0.1' and '0.2' never agree.
     */
    static boolean sameDouble(String x, String y) {
        java.math.BigDecimal a;
        java.math.BigDecimal b;
        try {
            a = new java.math.BigDecimal(x.trim());
            b = new java.math.BigDecimal(y.trim());
        } catch (NumberFormatException e) {
            return false;
        }
        java.math.BigDecimal diff = a.subtract(b).abs();
        java.math.BigDecimal scale = a.abs().max(b.abs());
        if (diff.compareTo(scale.multiply(new java.math.BigDecimal("1e-12"))) <= 0) {
            return true;
        }
        int shorter = Math.min(Math.max(a.scale(), 0), Math.max(b.scale(), 0));
        if (a.scale() == b.scale() || shorter == 0) {
            return false; // the same printed precision (or an integer) must agree within the relative tolerance
        }
        java.math.BigDecimal halfUnit = new java.math.BigDecimal(5).movePointLeft(shorter + 1);
        return diff.compareTo(halfUnit.add(scale.multiply(new java.math.BigDecimal("1e-12")))) <= 0;
    }

    /** Null when both hold the same rows the same number of times; else the rows only one side has. */
    static String multisetDifference(List<Row> sharded, List<Row> direct) {
        Map<Row, Integer> balance = new LinkedHashMap<>();
        for (Row r : sharded) {
            balance.merge(r, 1, Integer::sum);
        }
        for (Row r : direct) {
            balance.merge(r, -1, Integer::sum);
        }
        List<Row> onlySharded = new ArrayList<>();
        List<Row> onlyDirect = new ArrayList<>();
        int shardedExtra = 0;
        int directExtra = 0;
        for (Map.Entry<Row, Integer> e : balance.entrySet()) {
            int n = e.getValue();
            if (n > 0) {
                shardedExtra += n;
                if (onlySharded.size() < SHOWN_ROWS) {
                    onlySharded.add(e.getKey());
                }
            } else if (n < 0) {
                directExtra -= n;
                if (onlyDirect.size() < SHOWN_ROWS) {
                    onlyDirect.add(e.getKey());
                }
            }
        }
        if (shardedExtra == 0 && directExtra == 0) {
            return null;
        }
        StringBuilder sb = new StringBuilder("rows differ: shardwise " + sharded.size() + " rows, direct " + direct.size() + " rows");
        sb.append("\n      only in shardwise (").append(shardedExtra).append("): ").append(onlySharded);
        sb.append("\n      only in direct (").append(directExtra).append("): ").append(onlyDirect);
        return sb.toString();
    }

    /** Cells folded roughly as utf8mb4_general_ci compares them: case, accents, trailing spaces. */
    static List<Row> fold(List<Row> rows) {
        List<Row> out = new ArrayList<>(rows.size());
        for (Row r : rows) {
            String[] texts = new String[r.width()];
            for (int i = 0; i < texts.length; i++) {
                String t = r.text(i);
                texts[i] = t == null ? null : foldText(t);
            }
            out.add(Row.of(texts));
        }
        return out;
    }

    static String foldText(String t) {
        String stripped = Normalizer.normalize(t, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
        return stripped.toLowerCase(Locale.ROOT).stripTrailing();
    }

    private static String report(OracleCase c, Outcome sharded, Outcome direct, String difference) {
        StringBuilder sb = new StringBuilder();
        sb.append('[').append(c.category()).append("] ").append(c).append('\n');
        sb.append("    difference: ").append(difference).append('\n');
        sb.append("    shardwise:  ").append(Outcome.describe(sharded)).append(firstRows(sharded)).append('\n');
        sb.append("    direct:     ").append(Outcome.describe(direct)).append(firstRows(direct));
        return sb.toString();
    }

    private static String firstRows(Outcome o) {
        if (!(o instanceof Rows r) || r.rows().isEmpty()) {
            return "";
        }
        List<Row> first = r.rows().subList(0, Math.min(SHOWN_ROWS, r.rows().size()));
        return "\n                first rows " + first;
    }

    private static String stack(Outcome o) {
        if (!(o instanceof Crash c)) {
            return "";
        }
        StringBuilder sb = new StringBuilder("\n      ").append(c.cause());
        StackTraceElement[] trace = c.cause().getStackTrace();
        for (int i = 0; i < Math.min(8, trace.length); i++) {
            sb.append("\n        at ").append(trace[i]);
        }
        return sb.toString();
    }

    /** Counts per category, for the corpus summary. */
    static Map<String, Integer> countByCategory(List<OracleCase> cases) {
        Map<String, Integer> counts = new HashMap<>();
        for (OracleCase c : cases) {
            counts.merge(c.category(), 1, Integer::sum);
        }
        return counts;
    }
}
