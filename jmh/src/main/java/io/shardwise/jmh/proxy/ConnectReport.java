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
            List<ConnectRun> tlsRelayRuns = scenario.getValue().get(Variant.RELAY_TLS);
            double tlsRelay = tlsRelayRuns == null ? Double.NaN : median(tlsRelayRuns, ConnectRun::seconds);
            for (Variant v : Variant.values()) {
                List<ConnectRun> of = scenario.getValue().get(v);
                if (of == null) {
                    continue;
                }
                long failed = of.stream().filter(r -> !r.ok()).count();
                double seconds = median(of, ConnectRun::seconds);
                double cpu = median(of, ConnectRun::cpuMsPerConnection);
                rows.add(List.of(scenario.getKey(), v.label, Results.fixed(seconds, 3), times(seconds, relay),
                        TLS.contains(v) ? times(seconds, tlsRelay) : "—",
                        Results.fixed(cpu, 3), of.size() - failed + (failed == 0 ? "" : " (" + failed + " failed)")));
            }
        }
        return new Table("Fresh connections", "Scenario `CxQ`: C clients connect at once and each runs Q queries (HSCALE's "
                + "statement) and disconnects; mysqlslap's average seconds over its iterations, the median over the rounds. "
                + "`× relay` is the time as a multiple of the relay's (lower is better). CPU is the proxy process's own "
                + "(HAProxy's or Shardwise's, user + system from /proc) per client connection, the backend's not included. "
                + "TLS rows: the client negotiates TLS with Shardwise, or through the relay with the backend (which "
                + "offers TLS with a certificate of the kind Shardwise generates); `× TLS relay` compares them (the "
                + "issue's target: ≤ 1.5×), `× relay` with the plaintext relay, so it includes the whole TLS cost, the "
                + "client's own (its library loads the system CA bundle per connection) included.",
                List.of("scenario", "variant", "seconds", "× relay", "× TLS relay", "proxy CPU ms / connection", "rounds"), rows);
    }

    private static final java.util.Set<Variant> TLS = java.util.EnumSet.of(Variant.RELAY_TLS, Variant.SW_TLS, Variant.SW_TLS_JDK,
            Variant.SW_BASE_TLS);

    private static String times(double seconds, double reference) {
        return Double.isNaN(reference) || Double.isNaN(seconds) ? "—" : String.format(Locale.ROOT, "%.2f×", seconds / reference);
    }

    private static double median(List<ConnectRun> runs, java.util.function.ToDoubleFunction<ConnectRun> value) {
        double[] v = runs.stream().filter(ConnectRun::ok).mapToDouble(value).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
