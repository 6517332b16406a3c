package io.shardwise.core.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Reads the YAML configuration (format in docs/configuration.md) into a {@link ShardwiseConfig},
 * collecting every structural and cross-reference mistake. Algorithm and key-generator properties
 * are checked later, by the rule builder, which adds its problems to the same report.
 */
public final class ConfigLoader {
    static final Set<String> TOP_LEVEL_KEYS = Set.of("schema", "backends", "defaultBackend", "tables", "server", "transaction",
            "federation", "timeouts");

    private final EnvironmentReferences env;

    public ConfigLoader(Function<String, String> environment) {
        this.env = new EnvironmentReferences(environment);
    }

    public static ConfigLoader withSystemEnvironment() {
        return new ConfigLoader(System::getenv);
    }

    /**
     * The outcome of a parse: all problems, and the configuration. When there are problems the
     * configuration holds only the parts that parsed (so later checks can still find their own
     * mistakes in one pass), or is null when too little parsed; use it only when problems is empty.
     */
    public record Result(ShardwiseConfig config, List<ConfigProblem> problems) {
        public Result {
            problems = List.copyOf(problems);
        }
    }

    /** Reads a file, throwing {@link InvalidConfigException} with every problem found. */
    public ShardwiseConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            Problems p = new Problems();
            p.add(Location.ROOT, "cannot read " + file.toAbsolutePath() + ": " + e);
            p.throwIfAny(file.toString());
            throw new AssertionError("unreachable");
        }
        return load(text, file.toString());
    }

    public ShardwiseConfig load(String yaml, String source) {
        Result r = parse(yaml, source);
        if (!r.problems().isEmpty()) {
            throw new InvalidConfigException(source, r.problems());
        }
        return r.config();
    }

    public Result parse(String yaml, String source) {
        return parse(yaml, source, ConfigOverrides.NONE);
    }

    /** Parses the text with the overrides applied first, so their values get the same checks. */
    public Result parse(String yaml, String source, ConfigOverrides overrides) {
        Problems problems = new Problems();
        ShardwiseConfig config = parse(yaml, source, overrides, problems);
        return new Result(config, problems.list());
    }

    ShardwiseConfig parse(String yaml, String source, ConfigOverrides overrides, Problems problems) {
        Node rootNode;
        try {
            LoadSettings settings = LoadSettings.builder().setLabel(source).setAllowDuplicateKeys(true)
                    .setSchema(new org.snakeyaml.engine.v2.schema.CoreSchema()).build();
            rootNode = new Compose(settings).composeString(yaml).orElse(null);
        } catch (MarkedYamlEngineException e) {
            int line = e.getProblemMark().map(m -> m.getLine() + 1).orElse(0);
            problems.add(new Location("", line), "not valid YAML: " + e.getProblem());
            return null;
        } catch (YamlEngineException e) {
            problems.add(Location.ROOT, "not valid YAML: " + e.getMessage());
            return null;
        }
        if (!overrides.isEmpty()) {
            rootNode = overrides.applyTo(rootNode, problems);
        }
        if (rootNode == null) {
            problems.add(Location.ROOT, "the file is empty; expected at least schema and backends");
            return null;
        }
        ConfigNode root = new ConfigNode(rootNode, Location.ROOT, problems, env);
        Map<String, ConfigNode> top = root.entries(TOP_LEVEL_KEYS);

        String schema = required(top, "schema", root);
        Map<String, BackendConfig> backends = new LinkedHashMap<>();
        ConfigNode backendsNode = top.get("backends");
        if (backendsNode == null) {
            root.problem("missing key 'backends'; name at least one server, e.g. ds0: { url: \"jdbc:mysql://host:3306/db\", user: app }");
        } else {
            backends = BackendsParser.parse(backendsNode);
        }
        // names declared, even where the backend itself is broken, so that one mistake in a backend
        // is not reported again by every table that names it
        Set<String> declared = backendsNode == null ? Set.of() : backendsNode.entries().keySet();
        String defaultBackend = defaultBackend(top.get("defaultBackend"), declared, root);
        Map<String, TableConfig> tables = top.containsKey("tables")
                ? new TablesParser(backends, defaultBackend).parse(top.get("tables"))
                : Map.of();
        ServerConfig server = top.containsKey("server") ? ServerParser.parse(top.get("server"), schema) : ServerConfig.DEFAULT;
        TransactionConfig transaction = top.containsKey("transaction") ? TransactionParser.parse(top.get("transaction"))
                : TransactionConfig.DEFAULT;
        TimeoutsConfig timeouts = top.containsKey("timeouts") ? TimeoutsParser.parse(top.get("timeouts")) : TimeoutsConfig.DEFAULT;

        ConfigValidator.validate(declared, defaultBackend, tables, backendsNode, top.get("tables"), problems);
        if (schema == null || backends.isEmpty() || defaultBackend == null) {
            return null;
        }
        FederationConfig federation = top.containsKey("federation") ? FederationConfig.parse(top.get("federation"))
                : FederationConfig.DEFAULT;
        return new ShardwiseConfig(schema, backends, defaultBackend, tables, server, transaction, federation, timeouts);
    }

    private static String required(Map<String, ConfigNode> entries, String key, ConfigNode parent) {
        ConfigNode node = entries.get(key);
        if (node == null) {
            parent.problem("missing key '" + key + "'");
            return null;
        }
        return node.name();
    }

    private static String defaultBackend(ConfigNode node, Set<String> backends, ConfigNode root) {
        if (node == null) {
            if (backends.size() == 1) {
                return backends.iterator().next();
            }
            if (backends.size() > 1) {
                root.problem("missing key 'defaultBackend'; with several backends, name the one that holds"
                        + " tables without a rule: one of " + String.join(", ", backends));
            }
            return null;
        }
        String name = node.name();
        if (name != null && !backends.isEmpty() && !backends.contains(name)) {
            node.problem("'" + name + "' is not a backend." + Suggestions.didYouMean(name, backends)
                    + " Defined: " + String.join(", ", backends));
            return null;
        }
        return name;
    }
}
