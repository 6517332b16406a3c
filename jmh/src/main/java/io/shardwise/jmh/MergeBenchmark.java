package io.shardwise.jmh;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.merge.Merger;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RowExpr;
import io.shardwise.core.route.SortKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Merge throughput: {@value #UNITS} units' results (in memory, {@link ArrayCursor}) through
 * {@link Merger} as a scatter's plan asks, every merged row read to the end. Scores are per input
 * row ({@code @OperationsPerInvocation}), so ns/op and B/op are the merger's cost per row a shard
 * sends.
 * <ul>
 *   <li>{@link #orderedMerge}: {@code ORDER BY k, id} over 8 sorted streams of {@value #ROWS} rows
 *       (k-way sorted merge, streaming).
 *   <li>{@link #groupedStreaming}: {@code SELECT k, COUNT(*), SUM(id) ... GROUP BY k}, each unit
 *       returning its {@value #ROWS} groups sorted by k, merged group by group (streaming).
 *   <li>{@link #groupedHashed}: the same rows when the units' order is not known to follow the group
 *       key (hashed grouping, then sorted by it).
 *   <li>{@link #groupedExpression}: {@code SELECT k, COUNT(*), SUM(id), SUM(id) / COUNT(*) ... GROUP BY k}
 *       streaming: the quotient evaluated over each merged group with MySQL's decimal division.
 *   <li>{@link #groupedConcat}: {@code SELECT k, GROUP_CONCAT(id ORDER BY id) ... GROUP BY k}: each unit
 *       row a piece with its hidden key, 4 pieces per group per unit; the pieces sorted and joined per
 *       group (hashed grouping).
 *   <li>{@link #groupedVariance}: {@code SELECT k, VARIANCE(id) ... GROUP BY k} streaming: each unit row
 *       carries its group's hidden SUM, COUNT and unrounded VAR_POP, combined by Chan's formula.
 *   <li>{@link #distinctRange}: sysbench's {@code SELECT DISTINCT c ... WHERE id BETWEEN ? AND ? ORDER BY c} on two
 *       shards, {@value #RANGE} rows of a CHAR(120) {@code c} with its hidden WEIGHT_STRING (hashed grouping by the
 *       weight, groups sorted by it, the weight cut off): the per-execute setup counts, not only the rows.
 *   <li>{@link #orderedRange}: sysbench's {@code SELECT c ... WHERE id BETWEEN ? AND ? ORDER BY c} on two shards, each
 *       sorted by the weight (sorted merge, the weight cut off).
 * </ul>
 * Values are text-protocol bytes as a MySQL server sends them; columns INT, BIGINT and DECIMAL.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar MergeBenchmark -f 1 -wi 3 -i 5 -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class MergeBenchmark {
    static final int UNITS = 8;
    static final int ROWS = 1024;
    private static final int MYSQL_LONG = 3;
    private static final int MYSQL_LONGLONG = 8;
    private static final int MYSQL_NEWDECIMAL = 246;
    private static final int MYSQL_VAR_STRING = 253;

    private List<Column> rowColumns;
    private List<Column> groupColumns;
    private byte[][][][] sortedRows;
    private byte[][][][] groupRows;
    private MergeSpec ordered;
    private MergeSpec streamingGroups;
    private MergeSpec hashedGroups;
    private List<Column> expressionColumns;
    private byte[][][][] expressionRows;
    private MergeSpec expressionGroups;
    private List<Column> concatColumns;
    private byte[][][][] concatRows;
    private MergeSpec concatGroups;
    private static final int MYSQL_DOUBLE = 5;
    static final int RANGE = 100;
    private static final int MYSQL_STRING = 254;
    private static final int UTF8MB4_GENERAL_CI = 45;
    private List<Column> rangeColumns;
    private byte[][][][] rangeRows;
    private byte[][][][] rangeSortedRows;
    private MergeSpec distinctRange;
    private MergeSpec orderedRange;
    private List<Column> varianceColumns;
    private byte[][][][] varianceRows;
    private MergeSpec varianceGroups;

    @Setup(Level.Trial)
    public void setUp() {
        rowColumns = List.of(column("k", MYSQL_LONG, 0), column("id", MYSQL_LONG, 0), column("c", MYSQL_LONGLONG, 0));
        groupColumns = List.of(column("k", MYSQL_LONG, 0), column("COUNT(*)", MYSQL_LONGLONG, 0),
                column("SUM(id)", MYSQL_NEWDECIMAL, 0));
        Random random = new Random(7);
        sortedRows = new byte[UNITS][ROWS][][];
        groupRows = new byte[UNITS][ROWS][][];
        for (int u = 0; u < UNITS; u++) {
            int k = 0;
            for (int r = 0; r < ROWS; r++) {
                k += random.nextInt(3); // runs of equal k across and within units: ties reach the second key
                sortedRows[u][r] = cells(k, u * ROWS + r, random.nextInt(1_000_000));
                // units' groups overlap: every unit has groups 0..ROWS-1 with its own counts and sums
                groupRows[u][r] = cells(r, 1 + random.nextInt(50), random.nextInt(100_000));
            }
        }
        MergeSpec.Tail all = MergeSpec.Tail.NONE;
        ordered = new MergeSpec.SortedMerge(List.of(SortKey.ascending(0), SortKey.ascending(1)), all);
        List<AggregateSlot> aggregates = List.of(AggregateSlot.of(AggregateSlot.Kind.COUNT, 1),
                AggregateSlot.of(AggregateSlot.Kind.SUM, 2));
        streamingGroups = new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), aggregates, true, null, List.of(), all);
        hashedGroups = new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), aggregates, false, null, List.of(), all);
        expressionColumns = List.of(groupColumns.get(0), groupColumns.get(1), groupColumns.get(2),
                column("SUM(id) / COUNT(*)", MYSQL_NEWDECIMAL, 4));
        expressionRows = new byte[UNITS][ROWS][][];
        for (int u = 0; u < UNITS; u++) {
            for (int r = 0; r < ROWS; r++) {
                byte[][] g = groupRows[u][r];
                expressionRows[u][r] = new byte[][] {g[0], g[1], g[2], ascii(0)}; // the unit's partial quotient: replaced
            }
        }
        expressionGroups = new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), aggregates,
                List.of(new MergeSpec.ComputedColumn(3, new RowExpr.Arithmetic(RowExpr.ArithmeticOp.DIVIDE,
                        new RowExpr.ColumnRef(2, -1), new RowExpr.ColumnRef(1, -1)))), true, null, List.of(), all);
        if (drain(expressionColumns, expressionRows, expressionGroups, null) != ROWS) {
            throw new IllegalStateException("the expression merge lost groups");
        }
        concatColumns = List.of(column("k", MYSQL_LONG, 0), column("GROUP_CONCAT(id ORDER BY id)", MYSQL_VAR_STRING, 0),
                column("id", MYSQL_LONG, 0));
        concatRows = new byte[UNITS][ROWS][][];
        for (int u = 0; u < UNITS; u++) {
            for (int r = 0; r < ROWS; r++) {
                long id = (long) r * UNITS + u; // the units' pieces of a group interleave in the merged order
                concatRows[u][r] = new byte[][] {ascii(r / 4), ascii(id), ascii(id)};
            }
        }
        concatGroups = new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), List.of(new AggregateSlot(AggregateSlot.Kind.GROUP_CONCAT,
                1, -1, -1, -1, new AggregateSlot.Concat(List.of(SortKey.ascending(2)), List.of(), false, -1, -1))), false, null, List.of(), all);
        if (drain(concatColumns, concatRows, concatGroups, null) != ROWS / 4) {
            throw new IllegalStateException("the GROUP_CONCAT merge lost groups");
        }
        varianceColumns = List.of(column("k", MYSQL_LONG, 0), column("VARIANCE(id)", MYSQL_DOUBLE, 4),
                column("sum(id)", MYSQL_NEWDECIMAL, 0), column("count(id)", MYSQL_LONGLONG, 0),
                column("cast(var_pop(id) as double)", MYSQL_DOUBLE, 31));
        varianceRows = new byte[UNITS][ROWS][][];
        for (int u = 0; u < UNITS; u++) {
            for (int r = 0; r < ROWS; r++) {
                byte[][] g = groupRows[u][r];
                byte[] variance = Double.toString(random.nextDouble() * 1e6).getBytes(StandardCharsets.US_ASCII);
                varianceRows[u][r] = new byte[][] {g[0], variance, g[2], g[1], variance};
            }
        }
        varianceGroups = new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), List.of(new AggregateSlot(AggregateSlot.Kind.VAR_POP,
                1, 2, 3, -1, null, 4)), true, null, List.of(), all);
        if (drain(varianceColumns, varianceRows, varianceGroups, null) != ROWS) {
            throw new IllegalStateException("the VARIANCE merge lost groups");
        }
        rangeSetUp(random);
        long merged = drain(rowColumns, sortedRows, ordered, null);
        long groups = drain(groupColumns, groupRows, streamingGroups, null);
        if (merged != (long) UNITS * ROWS || groups != ROWS || drain(groupColumns, groupRows, hashedGroups, null) != ROWS) {
            throw new IllegalStateException("merge returned " + merged + " rows and " + groups + " groups");
        }
    }

    /** The sysbench range queries' shapes: two units of {@value #RANGE}/2 rows, {@code c} and its weight string. */
    private void rangeSetUp(Random random) {
        rangeColumns = List.of(new Column("sbtest", "sbtest1", "sbtest1", "c", "c", UTF8MB4_GENERAL_CI, 480, MYSQL_STRING,
                        Column.FLAG_NOT_NULL, 0),
                new Column("", "", "", "weight_string(rtrim(c))", "", Column.BINARY_COLLATION, 480, MYSQL_VAR_STRING,
                        Column.FLAG_BINARY, 0));
        rangeRows = new byte[2][RANGE / 2][][];
        rangeSortedRows = new byte[2][][][];
        for (int u = 0; u < 2; u++) {
            for (int r = 0; r < RANGE / 2; r++) {
                StringBuilder c = new StringBuilder(119);
                for (int g = 0; g < 10; g++) {
                    c.append(g == 0 ? "" : "-").append(String.format("%011d", Math.floorMod(random.nextLong(), 100_000_000_000L)));
                }
                byte[] text = c.toString().getBytes(StandardCharsets.US_ASCII);
                byte[] weight = new byte[text.length * 2]; // utf8mb4_general_ci: two bytes per character
                for (int i = 0; i < text.length; i++) {
                    weight[2 * i + 1] = text[i];
                }
                rangeRows[u][r] = new byte[][] {text, weight};
            }
            rangeSortedRows[u] = rangeRows[u].clone();
            java.util.Arrays.sort(rangeSortedRows[u], (a, b) -> java.util.Arrays.compareUnsigned(a[1], b[1]));
        }
        List<SortKey> byWeight = List.of(new SortKey(0, false, 1));
        MergeSpec.Tail visible = new MergeSpec.Tail(false, 0, -1, 1);
        distinctRange = new MergeSpec.GroupedAggregate(byWeight, List.of(), false, null, byWeight, visible);
        orderedRange = new MergeSpec.SortedMerge(byWeight, visible);
        if (drain(rangeColumns, rangeRows, distinctRange, null) != RANGE || drain(rangeColumns, rangeSortedRows, orderedRange, null) != RANGE) {
            throw new IllegalStateException("the range merges lost rows");
        }
    }

    @Benchmark
    @OperationsPerInvocation(RANGE)
    public long distinctRange(Blackhole bh) {
        return drain(rangeColumns, rangeRows, distinctRange, bh);
    }

    @Benchmark
    @OperationsPerInvocation(RANGE)
    public long orderedRange(Blackhole bh) {
        return drain(rangeColumns, rangeSortedRows, orderedRange, bh);
    }

    @Benchmark
    @OperationsPerInvocation(UNITS * ROWS)
    public long orderedMerge(Blackhole bh) {
        return drain(rowColumns, sortedRows, ordered, bh);
    }

    @Benchmark
    @OperationsPerInvocation(UNITS * ROWS)
    public long groupedStreaming(Blackhole bh) {
        return drain(groupColumns, groupRows, streamingGroups, bh);
    }

    @Benchmark
    @OperationsPerInvocation(UNITS * ROWS)
    public long groupedHashed(Blackhole bh) {
        return drain(groupColumns, groupRows, hashedGroups, bh);
    }

    @Benchmark
    @OperationsPerInvocation(UNITS * ROWS)
    public long groupedExpression(Blackhole bh) {
        return drain(expressionColumns, expressionRows, expressionGroups, bh);
    }

    @Benchmark
    @OperationsPerInvocation(UNITS * ROWS)
    public long groupedConcat(Blackhole bh) {
        return drain(concatColumns, concatRows, concatGroups, bh);
    }

    @Benchmark
    @OperationsPerInvocation(UNITS * ROWS)
    public long groupedVariance(Blackhole bh) {
        return drain(varianceColumns, varianceRows, varianceGroups, bh);
    }

    /** Merges the units and reads every cell of every merged row, as a face writing the result would. */
    private static long drain(List<Column> columns, byte[][][][] units, MergeSpec spec, Blackhole bh) {
        List<ResultCursor> inputs = new ArrayList<>(units.length);
        for (byte[][][] rows : units) {
            inputs.add(new ArrayCursor(columns, rows));
        }
        long count = 0;
        try (ResultCursor merged = Merger.merge(inputs, spec)) {
            int width = merged.columns().size();
            while (merged.next()) {
                for (int i = 0; i < width; i++) {
                    if (bh != null) {
                        bh.consume(merged.get(i));
                    }
                }
                count++;
            }
        }
        return count;
    }

    private static byte[][] cells(long a, long b, long c) {
        return new byte[][] {ascii(a), ascii(b), ascii(c)};
    }

    private static byte[] ascii(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    private static Column column(String name, int type, int decimals) {
        return new Column("shop", "t", "t", name, name, Column.BINARY_COLLATION, 20, type,
                Column.FLAG_NOT_NULL | Column.FLAG_BINARY, decimals);
    }
}
