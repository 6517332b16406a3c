package io.shardwise.server;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;

/** One line describing a loaded configuration, for {@code --check} and the demo banner. */
public record ConfigSummary(String schema, int backends, int sharded, int bindingGroups, int broadcast, int single) {
    public static ConfigSummary of(ShardingRule rule) {
        int sharded = 0;
        int roots = 0;
        int broadcast = 0;
        int single = 0;
        for (TableRule t : rule.tables()) {
            switch (t) {
                case TableRule.Sharded s -> {
                    sharded++;
                    if (s.bindingRoot().equals(s.name())) {
                        roots++;
                    }
                }
                case TableRule.Broadcast b -> broadcast++;
                case TableRule.Single s -> single++;
            }
        }
        return new ConfigSummary(rule.schema(), rule.config().backends().size(), sharded, roots, broadcast, single);
    }

    @Override
    public String toString() {
        return "schema '" + schema + "': " + backends + " backend" + (backends == 1 ? "" : "s") + ", "
                + sharded + " sharded table" + (sharded == 1 ? "" : "s") + " (" + bindingGroups + " binding group"
                + (bindingGroups == 1 ? "" : "s") + "), " + broadcast + " broadcast, " + single + " single";
    }
}
