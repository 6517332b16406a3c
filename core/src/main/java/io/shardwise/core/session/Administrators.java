package io.shardwise.core.session;

import io.shardwise.core.config.UserConfig;
import io.shardwise.core.rule.ShardingRule;
import java.util.List;

/**
 * Who may read the default backend's system schemas: a server user the configuration marks
 * {@code admin: true}. Everyone else meets them as a MySQL user without privileges on them does.
 */
final class Administrators {
    /** The system schemas an administrator reads (read-only) from the default backend. */
    static final List<String> SYSTEM_SCHEMAS = List.of("mysql", "performance_schema", "sys");

    private Administrators() {}

    static boolean isAdministrator(ShardingRule rule, String user) {
        for (UserConfig u : rule.config().server().users()) {
            if (u.name().equals(user)) {
                return u.admin();
            }
        }
        return false;
    }

    static boolean isSystemSchema(String name) {
        for (String s : SYSTEM_SCHEMAS) {
            if (s.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }
}
