package io.shardwise.jmh.run;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One JMH run of the benchmark suite: which benchmarks (full names matching {@code include}), at how
 * many threads, with what iterations. The default settings keep the whole suite under about 15
 * minutes on two cores; the quick ones (a smoke run) under about a minute in one JVM.
 *
 * @param warmups warm-up iterations; each lasts {@code seconds}, as measurement iterations do
 */
record Suite(String name, Pattern include, int threads, int forks, int warmups, int measurements, double seconds) {
    /** What {@code -Pbench} runs. Cache misses warm up longer: Calcite's parser takes C2 a while to settle. */
    static List<Suite> defaults() {
        return List.of(
                new Suite("hit", Pattern.compile("io\\.shardwise\\.jmh\\.HotPathBenchmark\\..*"), 1, 1, 3, 5, 1),
                new Suite("miss", Pattern.compile("io\\.shardwise\\.jmh\\.CacheMissBenchmark\\..*"), 1, 1, 8, 5, 1),
                new Suite("merge", Pattern.compile("io\\.shardwise\\.jmh\\.MergeBenchmark\\..*"), 1, 1, 3, 5, 1),
                // a prepared execute's per-statement work on the server's relay path: route, kept merge plan, inlining
                new Suite("prepared", Pattern.compile("io\\.shardwise\\.jmh\\.PreparedExecuteBenchmark\\..*"), 1, 1, 3, 5, 1),
                // the server's side of connection set-up, in memory (no backend): login and a full TLS handshake
                new Suite("handshake", Pattern.compile("io\\.shardwise\\.jmh\\.HandshakeBenchmark\\..*"), 1, 1, 3, 5, 1),
                new Suite("modes-1", Pattern.compile("io\\.shardwise\\.jmh\\.modes\\.ModesBenchmark\\..*"), 1, 1, 3, 3, 2),
                new Suite("modes-8", Pattern.compile("io\\.shardwise\\.jmh\\.modes\\.ModesBenchmark\\..*"), 8, 1, 3, 3, 2));
    }

    /** One short measured iteration of everything, no warm-up: proves the harness, measures nothing worth reading. */
    Suite quick(int quickForks) {
        return new Suite(name, include, threads, quickForks, 0, 1, 0.1);
    }
}
