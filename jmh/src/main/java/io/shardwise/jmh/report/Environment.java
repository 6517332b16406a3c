package io.shardwise.jmh.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Where and with what a benchmark ran, so a table can be judged and rerun: the machine (cores, CPU
 * model, memory, OS, load), the JDK, the versions of everything measured, the commit and the date.
 * Linux sources (/proc) are read when present; elsewhere those fields say "unknown".
 *
 * @param versions component name to version, in the order given (Shardwise, MariaDB, Connector/J, peers ...)
 * @param loadBefore the one-minute load average when the run started (-1 when unknown)
 */
public record Environment(String date, int cores, String cpu, String memory, String os, String jdk,
                          Map<String, String> versions, String commit, double loadBefore, double loadAfter) {
    public Environment {
        versions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(versions));
    }

    /** The machine and JDK now; {@code loadBefore} is what the caller read when its run began. */
    public static Environment capture(Map<String, String> versions, double loadBefore) {
        return new Environment(
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")),
                Runtime.getRuntime().availableProcessors(),
                procField("/proc/cpuinfo", "model name"),
                readMemory(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                versions,
                readCommit(),
                loadBefore,
                load());
    }

    public static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    public String markdown() {
        StringBuilder v = new StringBuilder();
        versions.forEach((name, version) -> v.append(v.isEmpty() ? "" : " · ").append(name).append(' ').append(version));
        return "| | |\n|---|---|\n"
                + "| date | " + date + " |\n"
                + "| machine | " + cores + " cores (`availableProcessors`), " + cpu + ", " + memory + " RAM, " + os + " |\n"
                + "| load average (1 min) | " + fmt(loadBefore) + " at start, " + fmt(loadAfter) + " at the end"
                + (Math.max(loadBefore, loadAfter) > cores ? " (above the core count: the machine was shared, times are pessimistic)" : "")
                + " |\n"
                + "| JDK | " + jdk + " |\n"
                + "| versions | " + v + " |\n"
                + "| commit | " + commit + " |\n\n";
    }

    private static String fmt(double load) {
        return load < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", load);
    }

    private static String procField(String file, String field) {
        try {
            for (String line : Files.readAllLines(Path.of(file))) {
                if (line.startsWith(field)) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: say so in the table
        }
        return "unknown CPU";
    }

    private static String readMemory() {
        String total = procField("/proc/meminfo", "MemTotal"); // "24626844 kB"
        try {
            long kb = Long.parseLong(total.replace("kB", "").trim());
            return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
        } catch (NumberFormatException e) {
            return "unknown";
        }
    }

    /** The short commit and whether the work tree had changes, from git when it is there. */
    private static String readCommit() {
        String head = git("rev-parse", "--short", "HEAD");
        if (head.isEmpty()) {
            return "unknown (not a git checkout)";
        }
        String status = git("status", "--porcelain", "--untracked-files=no");
        return "`" + head + "`" + (status.isEmpty() ? "" : " with uncommitted changes");
    }

    private static String git(String... args) {
        try {
            List<String> command = new java.util.ArrayList<>(List.of("git"));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
