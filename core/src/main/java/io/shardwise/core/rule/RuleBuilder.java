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
        // roots first: a bound table may be listed above the table it is bound to
        List<TableConfig> ordered = new java.util.ArrayList<>();
        for (TableConfig t : config.tables().values()) {
            if (!(t instanceof TableConfig.Bound)) {
                ordered.add(t);
            }
        }
        for (TableConfig t : config.tables().values()) {
            if (t instanceof TableConfig.Bound) {
                ordered.add(t);
            }
        }
        for (TableConfig table : ordered) {
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
                    } else {
                        // the root's own problem is reported already; never let a bound table fall
                        // back to a single table silently
                        problems.add(new Location("tables." + b.name() + ".bindTo", 0),
                                "'" + b.bindTo() + "' could not be built, so '" + b.name() + "' cannot be bound to it");
                    }
                }
                case TableConfig.Broadcast c -> rules.put(c.name(), new TableRule.Broadcast(c.name(), c.nodes(), key));
                case TableConfig.Single s -> rules.put(s.name(), new TableRule.Single(s.name(), s.node(), key));
            }
        }
        if (problems.size() > before) {
            return null;
        }
        // the file's order for users who list tables
        Map<String, TableRule> inFileOrder = new LinkedHashMap<>();
        for (String name : config.tables().keySet()) {
            inFileOrder.put(name, rules.get(name));
        }
        return new ShardingRule(config, inFileOrder);
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
                        + " Valid: type" + (provider.propertyNames().isEmpty() ? "" : ", " + String.join(", ", new java.util.TreeSet<>(provider.propertyNames()))));
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
            if (config.properties().containsKey("workerId")) {
                Long l = wholeNumber(rawWorker);
                if (l != null && l >= 0 && l <= SnowflakeKeyGenerator.MAX_WORKER_ID) {
                    workerId = l.intValue();
                } else {
                    at(config, "workerId", problems, "'" + rawWorker + "' is not a worker id; expected 0 to "
                            + SnowflakeKeyGenerator.MAX_WORKER_ID + ", distinct for every Shardwise process that writes");
                }
            }
            long epoch = java.time.LocalDate.of(2024, 1, 1).atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli();
            Object rawEpoch = config.properties().get("epoch");
            if (config.properties().containsKey("epoch")) {
                try {
                    epoch = java.time.LocalDate.parse(String.valueOf(rawEpoch)).atStartOfDay(java.time.ZoneOffset.UTC).toInstant().toEpochMilli();
                    if (epoch > System.currentTimeMillis()) {
                        at(config, "epoch", problems, "'" + rawEpoch + "' is in the future; ids would carry no time and"
                                + " repeat after a restart. Expected a past date, YYYY-MM-DD (UTC)");
                    }
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
            if (config.properties().containsKey("version")) {
                Long l = wholeNumber(raw);
                if (l != null && (l == 4 || l == 7)) {
                    version = l.intValue();
                } else {
                    at(config, "version", problems, "'" + raw + "' is not a supported UUID version; expected 4 (random) or 7 (time-ordered)");
                }
            }
            return new UuidKeyGenerator(version, System::currentTimeMillis);
        }

        private static Long wholeNumber(Object raw) {
            if (raw == null) {
                return null;
            }
            try {
                return raw instanceof Long l ? l : Long.valueOf(raw.toString().trim());
            } catch (NumberFormatException e) {
                return null;
            }
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
