package io.shardwise.server;

import io.shardwise.core.Engine;
import io.shardwise.core.config.InvalidConfigException;
import io.shardwise.core.rule.ShardingRule;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code shardwise} command line: serves a configuration's schema over the MySQL protocol
 * ({@code --config FILE}), validates configurations ({@code --check}) and starts the demo
 * ({@code --demo}). Exit codes: 0 success, 1 invalid configuration or failed start, 2 usage error.
 */
@Command(name = "shardwise", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Sharding middleware for MySQL: serves one logical schema spread over many MySQL servers.",
        footer = {"", "Examples:",
                "  shardwise --config shop.yaml           serve the schema of shop.yaml to MySQL clients",
                "  shardwise --demo                       embedded MariaDB backends with the sample sharded schema, served on 3307",
                "  shardwise --check --config shop.yaml   validate a configuration and exit"})
public final class Main implements Callable<Integer> {
    public static final int OK = 0;
    public static final int FAILED = 1;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "YAML configuration (see docs/configuration.md).")
    Path config;

    @Option(names = "--check", description = "Validate the configuration, print every problem, and exit (non-zero if invalid).")
    boolean check;

    @Option(names = "--demo", description = "Start embedded MariaDB backends, load the sample sharded schema, print how to connect.")
    boolean demo;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "Port clients connect to (overrides server.port).")
    Integer port;

    @Option(names = "--exit-when-ready", hidden = true, description = "Stop as soon as the demo is ready (for tests).")
    boolean exitWhenReady;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        loggingDefaults();
        nettyDefaults();
        System.exit(commandLine().execute(args));
    }

    /**
     * Netty's leak detector off unless the command line sets {@code -Dio.netty.leakDetection.level}:
     * at its default (SIMPLE) it tracks one buffer in 128 with a stack trace taken on the hot path
     * (a {@code TraceRecord}, a Throwable), several per hundred relayed statements, for a report of
     * leaks the tests look for already (they run PARANOID). Set before any Netty class reads it.
     */
    static void nettyDefaults() {
        System.getProperties().putIfAbsent("io.netty.leakDetection.level", "disabled");
    }

    /**
     * slf4j-simple (what HikariCP and Calcite log through) at WARN with times, on stderr, unless the
     * command line sets {@code -Dorg.slf4j.simpleLogger.*}: system properties, because a
     * simplelogger.properties in this jar would shadow the test kit's in every test class path.
     */
    private static void loggingDefaults() {
        System.getProperties().putIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.getProperties().putIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
        System.getProperties().putIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss.SSS");
    }

    static CommandLine commandLine() {
        return new CommandLine(new Main());
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (demo) {
            return demo(out, err);
        }
        if (config == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Give --config FILE (with --check to validate it), or --demo.");
        }
        ShardingRule rule;
        try {
            rule = ShardingRule.load(config);
        } catch (InvalidConfigException e) {
            err.println(e.getMessage());
            err.flush();
            return FAILED;
        }
        if (check) {
            out.println(ConfigSummary.of(rule) + " in " + config + ": OK");
            out.flush();
            return OK;
        }
        return serve(rule, out, err);
    }

    /** The demo module's {@link DemoMode} when it is on the class path (./shardwise --demo), else a hint. */
    private int demo(PrintWriter out, PrintWriter err) {
        Optional<DemoMode> mode = ServiceLoader.load(DemoMode.class).findFirst();
        if (mode.isEmpty()) {
            err.println("--demo needs the demo module (embedded MariaDB backends), which the server distribution leaves out."
                    + " From a source checkout, run: ./shardwise --demo");
            err.flush();
            return FAILED;
        }
        return mode.get().run(out, err, port, !exitWhenReady);
    }

    /** Starts the engine and the server, prints where it listens, and waits for SIGTERM (or returns at once with --exit-when-ready). */
    private int serve(ShardingRule rule, PrintWriter out, PrintWriter err) {
        Engine engine;
        ShardwiseServer server;
        try {
            engine = Engine.start(rule);
        } catch (RuntimeException e) {
            err.println("Could not start the engine: " + e.getMessage());
            err.flush();
            return FAILED;
        }
        String bind = rule.config().server().bind();
        int listenPort = port != null ? port : rule.config().server().port();
        try {
            server = ShardwiseServer.start(engine, bind, listenPort);
        } catch (RuntimeException e) {
            engine.close();
            err.println("Could not start the server: " + e.getMessage());
            err.flush();
            return FAILED;
        }
        out.println("Shardwise serves schema '" + rule.schema() + "' on " + bind + ":" + server.address().getPort()
                + " (MySQL protocol)");
        out.println("  " + server.tls().describe());
        out.println("  Network: " + server.transport().name() + " transport, " + ShardwiseServer.eventLoops() + " event loops");
        out.flush();
        java.time.Duration drain = rule.config().server().shutdownTimeout();
        return awaitShutdown(() -> {
            out.println("Shardwise stopping: no new connections; running statements and open transactions have "
                    + drain.toMillis() + " ms to finish");
            out.flush();
            int cut = server.shutdown(drain);
            engine.close();
            out.println("Shardwise stopped: " + (cut == 0 ? "every session drained" : cut + " session(s) still busy were cut off and rolled back")
                    + ", every backend connection closed.");
            out.flush();
        }, !exitWhenReady);
    }

    /**
     * Runs {@code stop} on SIGTERM or Ctrl-C (SIGINT) and returns {@link #OK}, or at once when not
     * {@code wait}. The signals are handled, not left to the JVM's shutdown hooks: after a hook the
     * JVM exits with 143, and a drained, clean stop is a success (0) to whoever sent the signal
     * (systemd, Kubernetes, a test).
     */
    static int awaitShutdown(Runnable stop, boolean wait) {
        if (!wait) {
            stop.run();
            return OK;
        }
        CountDownLatch signalled = new CountDownLatch(1);
        for (String name : new String[] {"TERM", "INT"}) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> signalled.countDown());
        }
        try {
            signalled.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stop.run();
        return OK;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"Shardwise " + (v == null ? "(development build)" : v)};
        }
    }
}
