package io.shardwise.core.session;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.rule.ShardingRule;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The default backend's session variables as a new connection sees them ({@code SHOW SESSION
 * VARIABLES}), asked once per backend URL and user for the life of the process: the starting values
 * of {@link SessionVariables}.
 *
 * <p>Hazard: while the backend cannot be reached the answer is empty (the built-in defaults apply)
 * and is asked again by the next session; a backend whose global settings change later keeps the
 * values first read until the server restarts.
 */
final class BackendVariables {
    private static final Map<String, Map<String, String>> CACHE = new ConcurrentHashMap<>();

    private BackendVariables() {}

    /** Whether the default backend's variables were read already (using them then never blocks). */
    static boolean cached(ShardingRule rule) {
        BackendConfig backend = rule.config().backends().get(rule.config().defaultBackend());
        return CACHE.containsKey(backend.url() + "|" + backend.user());
    }

    static Map<String, String> of(ShardingRule rule) {
        BackendConfig backend = rule.config().backends().get(rule.config().defaultBackend());
        String key = backend.url() + "|" + backend.user();
        Map<String, String> known = CACHE.get(key);
        if (known != null) {
            return known;
        }
        try {
            BackendCatalog.Answer answer = new BackendCatalog(rule).query(backend.name(), "SHOW SESSION VARIABLES");
            Map<String, String> values = new HashMap<>();
            for (byte[][] row : answer.rows()) {
                if (row[0] != null && row[1] != null) {
                    values.put(new String(row[0], StandardCharsets.UTF_8).toLowerCase(Locale.ROOT),
                            new String(row[1], StandardCharsets.UTF_8));
                }
            }
            Map<String, String> read = Map.copyOf(values);
            CACHE.put(key, read);
            return read;
        } catch (RuntimeException unreachable) {
            return Map.of(); // the session still opens; its statements will report the backend's state
        }
    }
}
