package io.shardwise.jmh.proxy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The raw results the proxy-bench script writes: comma-separated, one header line, one line per
 * run, in the order the runs happened. A run that failed has status {@code failed} (its numbers
 * are empty) and stays in the table as "failed", never silently dropped.
 */
final class Results {
    private Results() {}

    /** One sysbench run. {@code test} is the script and ps mode, e.g. {@code oltp_point_select/disable}. */
    record SysbenchRun(String test, int threads, int pool, String variant, double tps, double qps,
                       double avgMs, double p95Ms, long errors, String status) {
        boolean ok() {
            return status.equals("ok");
        }
    }

    /** One mysqlslap run: the average seconds to run all queries at that concurrency. */
    record SlapRun(int concurrency, String variant, double seconds, String status) {
        boolean ok() {
            return status.equals("ok");
        }
    }

    /**
     * One connection experiment run: mysqlslap's average seconds for {@code scenario} (e.g. {@code 40x1}: 40
     * fresh clients running one query each), and the CPU the proxy process (HAProxy or Shardwise) spent per
     * client connection during the run, in milliseconds (NaN for direct).
     */
    record ConnectRun(String scenario, String variant, double seconds, double cpuMsPerConnection, String status) {
        boolean ok() {
            return status.equals("ok");
        }
    }

    static List<ConnectRun> connect(Path csv) {
        List<ConnectRun> runs = new ArrayList<>();
        for (Map<String, String> r : rows(csv)) {
            runs.add(new ConnectRun(r.get("scenario"), r.get("variant"), number(r.get("seconds")), number(r.get("cpu_ms")),
                    r.get("status")));
        }
        return runs;
    }

    static List<SysbenchRun> sysbench(Path csv) {
        List<SysbenchRun> runs = new ArrayList<>();
        for (Map<String, String> r : rows(csv)) {
            runs.add(new SysbenchRun(r.get("test"), Integer.parseInt(r.get("threads")), Integer.parseInt(r.get("pool")),
                    r.get("variant"), number(r.get("tps")), number(r.get("qps")), number(r.get("avg_ms")),
                    number(r.get("p95_ms")), (long) number(r.get("errors")), r.get("status")));
        }
        return runs;
    }

    static List<SlapRun> slap(Path csv) {
        List<SlapRun> runs = new ArrayList<>();
        for (Map<String, String> r : rows(csv)) {
            runs.add(new SlapRun(Integer.parseInt(r.get("concurrency")), r.get("variant"), number(r.get("seconds")),
                    r.get("status")));
        }
        return runs;
    }

    /** {@code key=value} lines (the script's settings), in file order. */
    static Map<String, String> settings(Path file) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String line : read(file)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                settings.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
            }
        }
        return settings;
    }

    private static List<Map<String, String>> rows(Path csv) {
        List<String> lines = read(csv);
        if (lines.isEmpty()) {
            throw new IllegalStateException(csv + " is empty: no run was recorded");
        }
        String[] header = lines.getFirst().split(",", -1);
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] cells = line.split(",", -1);
            if (cells.length != header.length) {
                throw new IllegalStateException(csv + ": '" + line + "' has " + cells.length + " fields for " + header.length);
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], cells[i].trim());
            }
            rows.add(row);
        }
        return rows;
    }

    private static double number(String cell) {
        return cell == null || cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    static String fixed(double value, int decimals) {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    static String percent(double part, double whole) {
        return Double.isNaN(part) || Double.isNaN(whole) || whole == 0 ? "—" : String.format(Locale.ROOT, "%.0f %%", 100 * part / whole);
    }
}
