package io.shardwise.core.session;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The character sets and collations the default backend knows ({@code information_schema.COLLATIONS}),
 * asked once per backend URL and user for the life of the process: what a handshake's collation id
 * names, a character set's default collation (what {@code SET NAMES x} gives
 * {@code collation_connection}), and MySQL's errors for a name no backend knows (1115, 1273, 1253),
 * raised before a session changes anything.
 *
 * <p>Hazard: while the backend cannot be reached the table is empty and nothing is checked here (the
 * backend still refuses an unknown name when the session's state reaches it); it is asked again by the
 * next session.
 */
public final class Collations {
    private static final Map<String, Collations> CACHE = new ConcurrentHashMap<>();
    /** No table: nothing is checked, nothing is named. */
    static final Collations UNKNOWN = new Collations(Map.of(), Map.of(), Map.of());

    /** One collation: its name and the character set it belongs to, as the backend spells them. */
    public record Collation(String name, String charset) {}

    private final Map<Integer, Collation> byId;
    private final Map<String, Collation> byName;
    /** Lower-case character set name to its default collation. */
    private final Map<String, Collation> defaults;

    private Collations(Map<Integer, Collation> byId, Map<String, Collation> byName, Map<String, Collation> defaults) {
        this.byId = byId;
        this.byName = byName;
        this.defaults = defaults;
    }

    /** The default backend's table (empty while it cannot be reached). */
    static Collations of(ShardingRule rule) {
        BackendConfig backend = rule.config().backends().get(rule.config().defaultBackend());
        String key = backend.url() + "|" + backend.user();
        Collations known = CACHE.get(key);
        if (known != null) {
            return known;
        }
        try {
            BackendCatalog.Answer answer = new BackendCatalog(rule).query(backend.name(),
                    "SELECT ID, COLLATION_NAME, CHARACTER_SET_NAME, IS_DEFAULT FROM information_schema.COLLATIONS");
            Collations read = from(answer);
            CACHE.put(key, read);
            return read;
        } catch (RuntimeException unreachable) {
            return UNKNOWN;
        }
    }

    /** Whether the default backend's table was read already (using it then never blocks). */
    static boolean cached(ShardingRule rule) {
        BackendConfig backend = rule.config().backends().get(rule.config().defaultBackend());
        return CACHE.containsKey(backend.url() + "|" + backend.user());
    }

    private static Collations from(BackendCatalog.Answer answer) {
        Map<Integer, Collation> byId = new HashMap<>();
        Map<String, Collation> byName = new HashMap<>();
        Map<String, Collation> defaults = new HashMap<>();
        for (byte[][] row : answer.rows()) {
            if (row[1] == null || row[2] == null) {
                continue;
            }
            Collation c = new Collation(text(row[1]), text(row[2]));
            byName.put(c.name().toLowerCase(Locale.ROOT), c);
            if (row[0] != null) {
                byId.putIfAbsent(Integer.parseInt(text(row[0])), c);
            }
            if (row[3] != null && text(row[3]).equalsIgnoreCase("yes")) {
                defaults.put(c.charset().toLowerCase(Locale.ROOT), c);
            }
        }
        return new Collations(Map.copyOf(byId), Map.copyOf(byName), Map.copyOf(defaults));
    }

    /** A table for tests: rows of {id, collation, charset, "Yes"|""}. */
    static Collations of(String[][] rows) {
        Map<Integer, Collation> byId = new HashMap<>();
        Map<String, Collation> byName = new HashMap<>();
        Map<String, Collation> defaults = new HashMap<>();
        for (String[] r : rows) {
            Collation c = new Collation(r[1], r[2]);
            byId.put(Integer.parseInt(r[0]), c);
            byName.put(r[1], c);
            if (r[3].equals("Yes")) {
                defaults.put(r[2], c);
            }
        }
        return new Collations(byId, byName, defaults);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    /** The character set's name as the backend spells it ({@code utf8} is {@code utf8mb3}), or {@code name} when unknown. */
    public String charsetName(String name) {
        Collation c = byName.isEmpty() ? null : defaults.get(canonical(name));
        return c == null ? name : c.charset();
    }

    /** The id of a collation of this table, or -1 when it has none. */
    public int id(Collation collation) {
        for (Map.Entry<Integer, Collation> e : byId.entrySet()) {
            if (e.getValue().equals(collation)) {
                return e.getKey();
            }
        }
        return -1;
    }

    /** The collation a handshake names by id, or null when the backend knows none (MySQL then keeps its default). */
    public Collation byId(int id) {
        return byId.get(id);
    }

    /**
     * The default collation of a character set named by a client.
     *
     * @return null when the table is unknown (the backend could not be asked)
     * @throws ShardwiseException 1115 for a character set the backend does not know
     */
    public Collation charset(String name) {
        if (byName.isEmpty()) {
            return null;
        }
        Collation c = defaults.get(canonical(name));
        if (c == null) {
            throw new ShardwiseException(ErrorCode.UNKNOWN_CHARACTER_SET, name);
        }
        return c;
    }

    /**
     * A collation named by a client, of {@code charset} when that is not null.
     *
     * @return null when the table is unknown
     * @throws ShardwiseException 1273 for a collation the backend does not know, 1253 for one of another character set
     */
    public Collation collation(String name, String charset) {
        if (byName.isEmpty()) {
            return null;
        }
        Collation c = byName.get(canonical(name));
        if (c == null) {
            throw new ShardwiseException(ErrorCode.UNKNOWN_COLLATION, name);
        }
        if (charset != null && !c.charset().equalsIgnoreCase(canonical(charset))
                && !(canonical(charset).equals("utf8mb3") && c.charset().equalsIgnoreCase("utf8mb3"))) {
            throw new ShardwiseException(ErrorCode.COLLATION_CHARSET_MISMATCH, name, charset);
        }
        return c;
    }

    /** {@code utf8} is MySQL's alias of utf8mb3 (the backend lists the latter). */
    private static String canonical(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.equals("utf8")) {
            return "utf8mb3";
        }
        return n.startsWith("utf8_") ? "utf8mb3_" + n.substring("utf8_".length()) : n;
    }
}
