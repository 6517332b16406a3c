package io.shardwise.core.federate;

import io.shardwise.core.config.DataNode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The definitions ({@code SHOW CREATE TABLE}) of the nodes federated copies are made from when their
 * table has no node on the coordinator ({@link FederatedPlan.Copy#definition}), shared by every
 * session: a statement that runs again costs no extra round trip. Bounded by the configured nodes.
 * Emptied by DDL the engine runs (a read under way meanwhile is returned but not kept).
 *
 * <p>Hazard: DDL run on the backends directly is not seen; a copy then has the node's old columns
 * and filling it fails (a column count mismatch) until the engine runs DDL or restarts. Thread-safe.
 */
public final class CopyDefinitions {
    private final Map<DataNode, String> known = new ConcurrentHashMap<>();
    /** Bumped by every invalidation: a definition read before it must not be kept after it. */
    private final AtomicLong generation = new AtomicLong();

    /** The node's definition, read by {@code read} (outside any lock: it blocks on a backend) when not known. */
    public String get(DataNode node, Function<DataNode, String> read) {
        String definition = known.get(node);
        if (definition != null) {
            return definition;
        }
        long before = generation.get();
        definition = read.apply(node);
        if (generation.get() == before) {
            known.put(node, definition);
        }
        return definition;
    }

    public void invalidateAll() {
        generation.incrementAndGet();
        known.clear();
    }
}
