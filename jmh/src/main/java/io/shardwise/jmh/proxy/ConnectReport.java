package io.shardwise.jmh.proxy;

import io.shardwise.jmh.proxy.Results.ConnectRun;
import io.shardwise.jmh.report.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The connection experiment's table: per scenario and variant the median of its rounds' seconds,
 * that time as a multiple of the relay's (the target: ≤ 1.2× without TLS), and the proxy
 * process's CPU per client connection. Medians, because the rounds interleave the variants on a
 * shared machine and one disturbed round must not move the figure.
 */
final class ConnectReport {
    private ConnectReport() {}

    static Table table(List<ConnectRun> runs) {
        Map<String, Map<Variant, List<ConnectRun>>> byScenario = new LinkedHashMap<>();
        for (ConnectRun r : runs) {
            byScenario.computeIfAbsent(r.scenario(), s -> new LinkedHashMap<>())
                    .computeIfAbsent(Variant.of(r.variant()), v -> new ArrayList<>()).add(r);
        }
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<String, Map<Variant, List<ConnectRun>>> scenario : byScenario.entrySet()) {
            List<ConnectRun> relayRuns = scenario.getValue().get(Variant.RELAY);
            double relay = relayRuns == null ? Double.NaN : median(relayRuns, ConnectRun::seconds);
            for (Variant v : Variant.values()) {
                List<ConnectRun> of = scenario.getValue().get(v);
                if (of == null) {
                    continue;
                }
                long failed = of.stream().filter(r -> !r.ok()).count();
                double seconds = median(of, ConnectRun::seconds);
                double cpu = median(of, ConnectRun::cpuMsPerConnection);
                rows.add(List.of(scenario.getKey(), v.label, Results.fixed(seconds, 3),
                        Double.isNaN(relay) || Double.isNaN(seconds) ? "—" : String.format(Locale.ROOT, "%.2f×", seconds / relay),
                        Results.fixed(cpu, 3), of.size() - failed + (failed == 0 ? "" : " (" + failed + " failed)")));
            }
        }
        return new Table("Fresh connections", "Scenario `CxQ`: C clients connect at once and each runs Q queries (HSCALE's "
                + "statement) and disconnects; mysqlslap's average seconds over its iterations, the median over the rounds. "
                + "`× relay` is the time as a multiple of the relay's (lower is better). CPU is the proxy process's own "
                + "(HAProxy's or Shardwise's, user + system from /proc) per client connection, the backend's not included. "
                + "TLS rows: the client negotiates TLS with Shardwise; the relay and its backend stay in plaintext (the "
                + "embedded backend offers no TLS), so their ratio includes the whole TLS cost.",
                List.of("scenario", "variant", "seconds", "× relay", "proxy CPU ms / connection", "rounds"), rows);
    }

    private static double median(List<ConnectRun> runs, java.util.function.ToDoubleFunction<ConnectRun> value) {
        double[] v = runs.stream().filter(ConnectRun::ok).mapToDouble(value).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
