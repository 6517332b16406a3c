package io.shardwise.core;

import io.shardwise.core.route.ExecutionUnit;
import java.util.List;

/**
 * A read whose result is its units' results as the backends send them, one unit after another: a
 * face may relay the backends' packets instead of decoding rows. Only the column metadata's names
 * change (schema to the logical one, each unit's physical tables to logical ones, as
 * {@link ExecutionUnit#logicalTable}); the first unit's column definitions describe every unit's rows.
 *
 * @param logicalSchema what a column definition's non-empty schema becomes
 * @param setup SQL a fresh backend connection runs once so it carries the session's settings as the
 *     executor's connections would ("" for none): connections are pooled per setup
 */
public record RelayPlan(List<ExecutionUnit> units, String logicalSchema, String setup) {
    public RelayPlan {
        units = List.copyOf(units);
        java.util.Objects.requireNonNull(setup, "setup");
        if (units.isEmpty()) {
            throw new IllegalArgumentException("a relay plan needs a unit");
        }
        for (ExecutionUnit u : units) {
            if (!u.params().isEmpty()) {
                throw new IllegalArgumentException("a relayed unit is text SQL without parameters: " + u.explain());
            }
        }
    }
}
