package io.shardwise.core.route;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One statement for one backend: physical SQL, and values for its {@code ?} markers (prepared
 * statements only; literals of text statements stay in {@code sql}). Parameter values are Java
 * objects the executor binds with setObject: null, Long, BigInteger (unsigned), BigDecimal, Double,
 * Float, String, byte[], Boolean, LocalDate, LocalDateTime, LocalTime. {@code logicalTables} maps
 * each physical table name the SQL uses to its logical name, so result metadata never shows
 * physical names.
 */
public record ExecutionUnit(String backend, String sql, List<Object> params, Map<String, String> logicalTables) {
    public ExecutionUnit {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(sql, "sql");
        // null-tolerant copy: SQL NULL is a legal parameter value
        params = params.isEmpty() ? List.of() : Collections.unmodifiableList(new ArrayList<>(params));
        logicalTables = Map.copyOf(logicalTables);
    }

    public ExecutionUnit(String backend, String sql) {
        this(backend, sql, List.of(), Map.of());
    }

    /** Stable one-line form for PREVIEW and golden plan tests. */
    public String explain() {
        return backend + ": " + sql + (params.isEmpty() ? "" : " " + params);
    }

    /** The logical name of a table this unit's SQL names physically; any other name as it is. */
    public String logicalTable(String physical) {
        return logical(physical, logicalTables);
    }

    /** Exact match first; backends with lower_case_table_names report names in their own case. */
    public static String logical(String physical, Map<String, String> logicalTables) {
        if (physical == null || physical.isEmpty() || logicalTables.isEmpty()) {
            return physical;
        }
        String exact = logicalTables.get(physical);
        if (exact != null) {
            return exact;
        }
        for (Map.Entry<String, String> e : logicalTables.entrySet()) {
            if (e.getKey().equalsIgnoreCase(physical)) {
                return e.getValue();
            }
        }
        return physical;
    }
}
