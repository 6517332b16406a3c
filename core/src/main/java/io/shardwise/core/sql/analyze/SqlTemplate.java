package io.shardwise.core.sql.analyze;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A statement's normalized text with its slots (sorted, non-overlapping) and the clauses a route may
 * replace. Rendering copies {@code text} between slots into a pre-sized builder (STYLE 19): no
 * re-parse per execution.
 */
public record SqlTemplate(String text, List<Slot> slots, Map<Clause.Kind, Clause> clauses) {
    public SqlTemplate {
        List<Slot> sorted = new ArrayList<>(slots);
        Collections.sort(sorted);
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).start() < sorted.get(i - 1).end()) {
                throw new IllegalArgumentException("overlapping slots " + sorted.get(i - 1) + " and " + sorted.get(i));
            }
        }
        slots = List.copyOf(sorted);
        clauses = clauses.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(clauses));
    }

    public SqlTemplate(String text, List<Slot> slots) {
        this(text, slots, Map.of());
    }

    public Clause clause(Clause.Kind kind) {
        return clauses.get(kind);
    }

    /** Whether any table slot names a logical table (else the text runs unchanged). */
    public boolean hasTableSlots() {
        for (Slot s : slots) {
            if (s instanceof Slot.Table) {
                return true;
            }
        }
        return false;
    }
}
