package io.shardwise.core.rule;

import io.shardwise.core.config.ConfigLoader;
import io.shardwise.core.config.ConfigOverrides;
import io.shardwise.core.config.ConfigProblem;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.config.InvalidConfigException;
import io.shardwise.core.config.Problems;
import io.shardwise.core.config.ShardwiseConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Where every logical table's rows live: the configuration with algorithms and key generators
 * instantiated. Immutable and shared by all sessions. Tables the configuration does not name are
 * single tables on the default backend; names match ignoring case.
 */
public final class ShardingRule {
    private final ShardwiseConfig config;
    private final Map<String, TableRule> tables;
    private final Map<String, TableRule> tablesByLowerName;
    /** The logical catalog over these tables: which physical tables stand for which logical ones. */
    private final LogicalTables logicalTables;

    ShardingRule(ShardwiseConfig config, Map<String, TableRule> tables) {
        this.config = config;
        this.tables = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tables));
        Map<String, TableRule> lower = new HashMap<>();
        tables.forEach((name, rule) -> lower.put(name.toLowerCase(Locale.ROOT), rule));
        this.tablesByLowerName = Map.copyOf(lower);
        this.logicalTables = new LogicalTables(this);
    }

    /** Reads and validates a configuration file; every problem in it is reported at once. */
    public static ShardingRule load(Path file) {
        return load(file, System::getenv);
    }

    public static ShardingRule load(Path file, Function<String, String> environment) {
        return load(file, environment, ConfigOverrides.NONE);
    }

    /** Reads a file with some of its values replaced by properties (see {@link ConfigOverrides}). */
    public static ShardingRule load(Path file, Function<String, String> environment, ConfigOverrides overrides) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            Problems p = new Problems();
            p.add(io.shardwise.core.config.Location.ROOT, "cannot read " + file.toAbsolutePath() + ": " + e);
            throw new InvalidConfigException(file.toString(), p.list());
        }
        return load(text, file.toString(), environment, overrides);
    }

    public static ShardingRule load(String yaml, String source, Function<String, String> environment) {
        return load(yaml, source, environment, ConfigOverrides.NONE);
    }

    public static ShardingRule load(String yaml, String source, Function<String, String> environment, ConfigOverrides overrides) {
        ConfigLoader.Result parsed = new ConfigLoader(environment).parse(yaml, source, overrides);
        List<ConfigProblem> problems = new ArrayList<>(parsed.problems());
        ShardingRule rule = null;
        if (parsed.config() != null) {
            Problems ruleProblems = new Problems();
            rule = RuleBuilder.build(parsed.config(), ruleProblems);
            problems.addAll(ruleProblems.list());
        }
        if (!problems.isEmpty() || rule == null) {
            throw new InvalidConfigException(overrides.label(source), problems);
        }
        return rule;
    }

    /** Builds the rule of an already parsed configuration. */
    public static ShardingRule of(ShardwiseConfig config) {
        Problems problems = new Problems();
        ShardingRule rule = RuleBuilder.build(config, problems);
        problems.throwIfAny("configuration of schema " + config.schema());
        return rule;
    }

    public ShardwiseConfig config() {
        return config;
    }

    public String schema() {
        return config.schema();
    }

    /** The configured rule of that table, or a single table on the default backend. */
    public TableRule table(String name) {
        TableRule rule = tables.get(name);
        if (rule == null) {
            rule = tablesByLowerName.get(name.toLowerCase(Locale.ROOT));
        }
        return rule != null ? rule : new TableRule.Single(name, new DataNode(config.defaultBackend(), name), null);
    }

    /** Whether the configuration names this table (rather than it defaulting to a single table). */
    public boolean isConfigured(String name) {
        return tables.containsKey(name) || tablesByLowerName.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /** Physical ↔ logical table names, as every listing, description and error message reads them. */
    public LogicalTables logicalTables() {
        return logicalTables;
    }

    /** The configured tables, in the file's order. */
    public Collection<TableRule> tables() {
        return tables.values();
    }
}
