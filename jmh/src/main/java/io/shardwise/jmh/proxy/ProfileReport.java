package io.shardwise.jmh.proxy;

import io.shardwise.jmh.report.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the Shardwise server's CPU goes while it serves a benchmark: reads the JFR recording that
 * {@code jmh/proxy-bench profile} takes of the sharded server (CPU-time samples, JDK 25's
 * {@code jdk.CPUTimeSample}, or execution samples on older JDKs) and sorts every sample into the
 * component that owns it, so the report names the cost (socket writes, Connector/J, thread
 * hand-offs, planning) instead of listing frames.
 *
 * <p>A sample belongs to the innermost frame outside the JDK (the library or Shardwise code that
 * asked for the work); a sample inside a socket or selector call is I/O: on the event loops when
 * Netty made the call (client connections and the packet relay's backend connections alike), on the
 * backend side when Connector/J did; JDK-only stacks of the virtual-thread machinery are scheduling.
 */
final class ProfileReport {
    /** System calls on sockets and selectors: the JDK's (NIO, Connector/J's blocking sockets) and Netty's native transport's. */
    private static final String[] SOCKET_LEAVES = {"sun.nio.ch.", "java.net.", "sun.net.", "io.netty.channel.unix.",
            "io.netty.channel.epoll.Native."};
    /** Component by class-name prefix, checked in order on the owning frame. */
    private static final List<Map.Entry<String, String>> OWNERS = List.of(
            Map.entry("com.mysql.cj.", "Connector/J (statements, result decoding)"),
            Map.entry("com.zaxxer.hikari.", "HikariCP (borrow, return)"),
            Map.entry("io.netty.", "Netty pipeline (framing, buffers, tasks)"),
            Map.entry("io.shardwise.server.", "Shardwise server (commands, result encoding)"),
            Map.entry("io.shardwise.core.merge.", "Shardwise merge"),
            Map.entry("io.shardwise.core.execute.", "Shardwise execution (leases, session state, cursors)"),
            Map.entry("io.shardwise.core.", "Shardwise planning (normalize, plan cache, route, render)"),
            Map.entry("org.apache.calcite.", "Calcite (cache misses)"));
    static final String CLIENT_IO = "socket I/O on event loops (Netty: epoll, reads, writes; clients and relay connections)";
    static final String BACKEND_IO = "backend socket I/O (Connector/J reads, writes)";
    static final String SCHEDULING = "virtual-thread scheduling (ForkJoinPool, continuations, parking)";
    static final String JDK_OTHER = "JDK, other (JFR, class loading, ...)";

    private ProfileReport() {}

    /** The owning component of one sample; {@code frames} are class.method names, innermost first. */
    static String component(List<String> frames) {
        if (frames.isEmpty()) {
            return JDK_OTHER;
        }
        boolean socket = startsWithAny(frames.getFirst(), SOCKET_LEAVES);
        for (String frame : frames) {
            if (isJdk(frame) || socket && startsWithAny(frame, SOCKET_LEAVES)) {
                continue;
            }
            if (socket && frame.startsWith("io.netty.")) {
                return CLIENT_IO;
            }
            if (socket && frame.startsWith("com.mysql.cj.")) {
                return BACKEND_IO;
            }
            for (Map.Entry<String, String> owner : OWNERS) {
                if (frame.startsWith(owner.getKey())) {
                    return owner.getValue();
                }
            }
            return "other: " + frame.substring(0, Math.max(0, frame.lastIndexOf('.')));
        }
        for (String frame : frames) {
            if (frame.startsWith("java.util.concurrent.ForkJoin") || frame.startsWith("java.lang.VirtualThread")
                    || frame.startsWith("jdk.internal.vm.Continuation") || frame.startsWith("java.util.concurrent.locks.")) {
                return SCHEDULING;
            }
        }
        return JDK_OTHER;
    }

    private static boolean isJdk(String frame) {
        return startsWithAny(frame, new String[] {"java.", "javax.", "jdk.", "sun."});
    }

    private static boolean startsWithAny(String s, String[] prefixes) {
        for (String p : prefixes) {
            if (s.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Samples read from a recording: per component, per innermost method, and the average CPU load per thread group;
     * the bytes the process's threads allocated while it was recorded (each thread's last
     * {@code jdk.ThreadAllocationStatistics} minus its first, summed) and the allocation samples'
     * weights by allocation site (the allocated class and the innermost non-JDK frame).
     */
    record Profile(String eventType, long samples, Map<String, Long> byComponent, Map<String, Long> byLeaf,
                   Map<String, Double> threadLoad, long allocatedBytes, Map<String, Long> allocationSites) {}

    static Profile read(Path recording) {
        Map<String, Long> cpuTime = new LinkedHashMap<>();
        Map<String, Long> cpuLeaf = new LinkedHashMap<>();
        Map<String, Long> execution = new LinkedHashMap<>();
        Map<String, Long> executionLeaf = new LinkedHashMap<>();
        Map<String, double[]> load = new LinkedHashMap<>(); // thread -> {sum of its loads, events}
        Map<Long, long[]> allocated = new LinkedHashMap<>(); // thread id -> {first, last} cumulative bytes
        Map<String, Long> sites = new LinkedHashMap<>();
        long[] counts = new long[2];
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                switch (e.getEventType().getName()) {
                    case "jdk.CPUTimeSample" -> {
                        counts[0]++;
                        add(e.getStackTrace(), cpuTime, cpuLeaf);
                    }
                    case "jdk.ExecutionSample" -> {
                        counts[1]++;
                        add(e.getStackTrace(), execution, executionLeaf);
                    }
                    case "jdk.ThreadAllocationStatistics" -> {
                        if (recorder(e.getThread("thread"))) {
                            continue;
                        }
                        long bytes = e.getLong("allocated");
                        long[] span = allocated.computeIfAbsent(e.getLong("thread.javaThreadId"), k -> new long[] {bytes, bytes});
                        span[0] = Math.min(span[0], bytes);
                        span[1] = Math.max(span[1], bytes);
                    }
                    case "jdk.ObjectAllocationSample" -> {
                        if (!recorder(e.getThread("eventThread"))) {
                            sites.merge(allocationSite(e), e.getLong("weight"), Long::sum);
                        }
                    }
                    case "jdk.ThreadCPULoad" -> {
                        RecordedThread t = e.getThread();
                        double[] sum = load.computeIfAbsent(t == null ? null : t.getJavaName(), k -> new double[2]);
                        sum[0] += e.getFloat("user") + e.getFloat("system");
                        sum[1]++;
                    }
                    default -> { }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + recording, e);
        }
        // one event per thread per period; a group's share is the sum of its threads' average loads
        Map<String, Double> threadLoad = new LinkedHashMap<>();
        load.forEach((thread, v) -> threadLoad.merge(threadGroup(thread), v[0] / v[1], Double::sum));
        boolean cpu = counts[0] > 0;
        long bytes = allocated.values().stream().mapToLong(span -> span[1] - span[0]).sum();
        return new Profile(cpu ? "jdk.CPUTimeSample" : "jdk.ExecutionSample", cpu ? counts[0] : counts[1],
                sorted(cpu ? cpuTime : execution), sorted(cpu ? cpuLeaf : executionLeaf), threadLoad, bytes, sorted(sites));
    }

    /** The recording's own threads (JFR's, the attach listener jcmd talks to): their allocation is not the server's. */
    private static boolean recorder(RecordedThread t) {
        String name = t == null ? null : t.getJavaName();
        return name != null && (name.startsWith("JFR ") || name.equals("Attach Listener"));
    }

    /** The allocated class and the innermost frame outside the JDK that asked for it. */
    private static String allocationSite(RecordedEvent e) {
        String type = e.getClass("objectClass") == null ? "?" : e.getClass("objectClass").getName();
        RecordedStackTrace stack = e.getStackTrace();
        if (stack != null) {
            for (RecordedFrame f : stack.getFrames()) {
                String frame = f.getMethod().getType().getName() + "." + f.getMethod().getName();
                if (f.isJavaFrame() && !isJdk(frame)) {
                    return "`" + type + "` in `" + frame + "`";
                }
            }
        }
        return "`" + type + "`";
    }

    private static void add(RecordedStackTrace stack, Map<String, Long> components, Map<String, Long> leaves) {
        List<String> frames = new ArrayList<>();
        if (stack != null) {
            for (RecordedFrame f : stack.getFrames()) {
                if (f.isJavaFrame()) {
                    frames.add(f.getMethod().getType().getName() + "." + f.getMethod().getName());
                }
            }
        }
        components.merge(component(frames), 1L, Long::sum);
        leaves.merge(frames.isEmpty() ? "(no Java frame)" : frames.getFirst(), 1L, Long::sum);
    }

    /** Threads named alike (one per event loop, carrier or compiler) are one row. */
    static String threadGroup(String name) {
        if (name == null) {
            return "(unnamed)";
        }
        if (name.contains("EventLoop") || name.startsWith("multiThreadIoEventLoopGroup")) {
            return "Netty event loops (client I/O)";
        }
        if (name.startsWith("ForkJoinPool-1-worker")) {
            return "virtual-thread carriers (sessions, backend calls)";
        }
        if (name.contains("CompilerThre")) {
            return "JIT compilers";
        }
        if (name.startsWith("GC ") || name.startsWith("G1 ") || name.contains("Conc")) {
            return "garbage collector";
        }
        return "other JVM threads";
    }

    private static Map<String, Long> sorted(Map<String, Long> counts) {
        Map<String, Long> out = new LinkedHashMap<>();
        counts.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /** @param queries the statements the recorded run answered (0: unknown, no per-statement figure) */
    static List<Table> tables(Profile p, long queries) {
        List<List<String>> components = new ArrayList<>();
        p.byComponent().forEach((c, n) -> components.add(List.of(c, Results.percent(n, p.samples()), Long.toString(n))));
        List<List<String>> leaves = new ArrayList<>();
        p.byLeaf().entrySet().stream().limit(20)
                .forEach(e -> leaves.add(List.of("`" + e.getKey() + "`", Results.percent(e.getValue(), p.samples()))));
        List<List<String>> threads = new ArrayList<>();
        p.threadLoad().entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()))
                .forEach(e -> threads.add(List.of(e.getKey(), Results.fixed(100 * e.getValue(), 1) + " %")));
        long sampled = p.allocationSites().values().stream().mapToLong(Long::longValue).sum();
        List<List<String>> sites = new ArrayList<>();
        p.allocationSites().entrySet().stream().limit(15).forEach(e -> sites.add(List.of(e.getKey(), Results.percent(e.getValue(), sampled),
                queries > 0 ? Long.toString(Math.round(p.allocatedBytes() * (double) e.getValue() / sampled / queries)) : "")));
        String perQuery = queries > 0 ? String.format("%,d bytes per statement (%,d bytes over %,d statements)",
                Math.round(p.allocatedBytes() / (double) queries), p.allocatedBytes(), queries)
                : String.format("%,d bytes (statements unknown)", p.allocatedBytes());
        return List.of(
                new Table("What the server allocates", "All the server's threads allocated " + perQuery + " while it was recorded"
                        + " (each thread's last `jdk.ThreadAllocationStatistics` minus its first, summed over all threads but JFR's"
                        + " own; the recording spans the run and a moment around it, so idle allocation counts too). By site: the `jdk.ObjectAllocationSample`"
                        + " weights, the allocated class and the innermost non-JDK frame; bytes per statement are that site's"
                        + " share of the total.", List.of("site", "share", "bytes per statement"), sites),
                new Table("Where the server's CPU goes", p.samples() + " `" + p.eventType() + "` samples of the sharded "
                        + "server. A sample belongs to the innermost non-JDK frame (the code that asked for the work); socket "
                        + "and selector calls are I/O, split by who made them.", List.of("component", "share", "samples"), components),
                new Table("Hottest methods (innermost frame)", "", List.of("method", "share"), leaves),
                new Table("CPU by thread group", "Average share of the whole machine (all cores) during the recording, from "
                        + "`jdk.ThreadCPULoad`.", List.of("threads", "CPU"), threads));
    }
}
