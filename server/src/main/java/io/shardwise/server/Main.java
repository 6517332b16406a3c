package io.shardwise.server;

import io.shardwise.core.config.InvalidConfigException;
import io.shardwise.core.rule.ShardingRule;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code shardwise} command line: validates configurations ({@code --check}) and starts the demo
 * ({@code --demo}). Exit codes: 0 success, 1 invalid configuration or failed start, 2 usage error,
 * 3 a mode this build does not include yet.
 */
@Command(name = "shardwise", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Sharding middleware for MySQL: serves one logical schema spread over many MySQL servers.",
        footer = {"", "Examples:",
                "  shardwise --demo                       embedded MariaDB backends with the sample sharded schema",
                "  shardwise --check --config shop.yaml   validate a configuration and exit"})
public final class Main implements Callable<Integer> {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int NOT_IN_THIS_BUILD = 3;

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
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new Main());
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (demo) {
            return new Demo(out, err).run(!exitWhenReady);
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
        err.println("This build validates configurations (--check) and runs the demo backends (--demo); the MySQL-protocol"
                + " server that serves '" + rule.schema() + "' to clients is not part of it yet.");
        err.flush();
        return NOT_IN_THIS_BUILD;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"Shardwise " + (v == null ? "(development build)" : v)};
        }
    }
}
