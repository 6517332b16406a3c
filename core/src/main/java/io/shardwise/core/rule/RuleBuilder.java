package io.shardwise.core.rule;

import io.shardwise.core.config.AlgorithmConfig;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.config.KeyGeneratorConfig;
import io.shardwise.core.config.Location;
import io.shardwise.core.config.Problems;
import io.shardwise.core.config.ShardwiseConfig;
import io.shardwise.core.config.Suggestions;
import io.shardwise.core.config.TableConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Instantiates algorithms and key generators, reporting property mistakes as configuration problems. */
final class RuleBuilder {
    private RuleBuilder() {}

    /** The rule, or null after reporting problems. */
    static ShardingRule build(ShardwiseConfig config, Problems problems) {
        Map<String, ShardingAlgorithmProvider> providers = providers(problems);
        Map<String, TableRule> rules = new LinkedHashMap<>();
        int before = problems.size();
        for (TableConfig table : config.tables().values()) {
            TableRule.GeneratedKey key = table.generate() == null ? null : KeyGenerators.create(table.generate(), problems);
            switch (table) {
                case TableConfig.Sharded s -> {
                    ShardingAlgorithm algorithm = algorithm(s, providers, problems);
                    if (algorithm != null) {
                        rules.put(s.name(), new TableRule.Sharded(s.name(), s.nodes(), s.key(), algorithm, s.name(), key));
                    }
                }
                case TableConfig.Bound b -> {
                    // the root's algorithm instance, so bound tables can never disagree with it
                    if (rules.get(b.bindTo()) instanceof TableRule.Sharded root) {
                        rules.put(b.name(), new TableRule.Sharded(b.name(), b.nodes(), b.key(), root.algorithm(), root.name(), key));
                    }
                }
                case TableConfig.Broadcast c -> rules.put(c.name(), new TableRule.Broadcast(c.name(), c.nodes(), key));
                case TableConfig.Single s -> rules.put(s.name(), new TableRule.Single(s.name(), s.node(), key));
            }
        }
        return problems.size() > before ? null : new ShardingRule(config, rules);
    }

    private static Map<String, ShardingAlgorithmProvider> providers(Problems problems) {
        Map<String, ShardingAlgorithmProvider> providers = new TreeMap<>();
        for (ShardingAlgorithmProvider p : ServiceLoader.load(ShardingAlgorithmProvider.class, RuleBuilder.class.getClassLoader())) {
            ShardingAlgorithmProvider previous = providers.putIfAbsent(p.type(), p);
            if (previous != null && previous.getClass() != p.getClass()) {
                problems.add(Location.ROOT, "two algorithm providers claim type '" + p.type() + "': "
                        + previous.getClass().getName() + " and " + p.getClass().getName() + "; remove one from the classpath");
            }
        }
        return providers;
    }

    private static ShardingAlgorithm algorithm(TableConfig.Sharded table, Map<String, ShardingAlgorithmProvider> providers,
                                               Problems problems) {
        AlgorithmConfig config = table.algorithm();
        ShardingAlgorithmProvider provider = providers.get(config.type());
        Location typeAt = config.location().child("type", config.location().line());
        if (provider == null) {
            problems.add(typeAt, "'" + config.type() + "' is not an algorithm type."
                    + Suggestions.didYouMean(config.type(), providers.keySet())
                    + " Known: " + String.join(", ", providers.keySet())
                    + " (custom types come from ShardingAlgorithmProvider jars on the classpath)");
            return null;
        }
        int before = problems.size();
        for (String name : config.properties().keySet()) {
            if (!provider.propertyNames().contains(name)) {
                problems.add(config.location().child(name, config.location().line()), "unknown property '" + name
                        + "' for algorithm type " + config.type() + "." + Suggestions.didYouMean(name, provider.propertyNames())
                        + " Valid: type" + (provider.propertyNames().isEmpty() ? "" : ", " + String.join(", ", provider.propertyNames())));
            }
        }
        ShardingAlgorithm algorithm = provider.create(new Context(table.name(), table.nodes(), config, problems));
        if (problems.size() > before) {
            return null;
        }
        if (algorithm == null) {
            problems.add(typeAt, "algorithm provider " + provider.getClass().getName() + " made no algorithm and reported no reason");
        }
        return algorithm;
    }

    private record Context(String table, List<DataNode> nodes, AlgorithmConfig config, Problems problems)
            implements AlgorithmContext {
        @Override
        public Object property(String name) {
            return config.properties().get(name);
        }

        @Override
        public void reject(String property, String message) {
            problems.add(config.location().child(property, config.location().line()), message);
        }
    }

    /** Builds the built-in key generators. */
    static final class KeyGenerators {
        private KeyGenerators() {}

        static TableRule.GeneratedKey create(KeyGeneratorConfig config, Problems problems) {
            int before = problems.size();
            KeyGenerator generator = switch (config.type()) {
                case "snowflake" -> snowflake(config, problems);
                case "uuid" -> uuid(config, problems);
                default -> {
                    problems.add(config.location().child("type", config.location().line()), "'" + config.type()
                            + "' is not a key generator type." + Suggestions.didYouMean(config.type(), List.of("snowflake", "uuid"))
                            + " Known: snowflake, uuid");
                    yield null;
                }
            };
            return generator == null || problems.size() > before ? null : new TableRule.GeneratedKey(config.column(), generator);
        }

        private static KeyGenerator snowflake(KeyGeneratorConfig config, Problems problems) {
            unknown(config, List.of("workerId", "epoch"), problems);
            int workerId = 0;
            Object rawWorker = config.properties().get("workerId");
            if (rawWorker != null) {
                if (rawWorker instanceof Long l && l >= 0 && l <= SnowflakeKeyGenerator.MAX_WORKER_ID) {
                    workerId = l.intValue();
                } else {
                    at(config, "workerId", problems, "'" + rawWorker + "' is not a worker id; expected 0 to "
                            + SnowflakeKeyGenerator.MAX_WORKER_ID + ", distinct for every Shardwise process that writes");
                }
            }
            long epoch = java.time.LocalDate.of(2024, 1, 1).atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli();
            Object rawEpoch = config.properties().get("epoch");
            if (rawEpoch != null) {
                try {
                    epoch = java.time.LocalDate.parse(rawEpoch.toString()).atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli();
                } catch (java.time.format.DateTimeParseException e) {
                    at(config, "epoch", problems, "'" + rawEpoch + "' is not a date; expected YYYY-MM-DD (UTC), in the past");
                }
            }
            return new SnowflakeKeyGenerator(workerId, epoch, System::currentTimeMillis);
        }

        private static KeyGenerator uuid(KeyGeneratorConfig config, Problems problems) {
            unknown(config, List.of("version"), problems);
            Object raw = config.properties().get("version");
            int version = 4;
            if (raw != null) {
                if (raw instanceof Long l && (l == 4 || l == 7)) {
                    version = l.intValue();
                } else {
                    at(config, "version", problems, "'" + raw + "' is not a supported UUID version; expected 4 (random) or 7 (time-ordered)");
                }
            }
            return new UuidKeyGenerator(version, System::currentTimeMillis);
        }

        private static void unknown(KeyGeneratorConfig config, List<String> valid, Problems problems) {
            for (String name : config.properties().keySet()) {
                if (!valid.contains(name)) {
                    at(config, name, problems, "unknown property '" + name + "' for key generator " + config.type() + "."
                            + Suggestions.didYouMean(name, valid) + " Valid: column, type, " + String.join(", ", valid));
                }
            }
        }

        private static void at(KeyGeneratorConfig config, String property, Problems problems, String message) {
            problems.add(config.location().child(property, config.location().line()), message);
        }
    }
}
