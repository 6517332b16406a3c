package io.shardwise.core;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.execute.Column;
import io.shardwise.core.federate.FederatedPlan;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.session.ValuesCursor;
import io.shardwise.core.sql.analyze.Call;
import io.shardwise.core.sql.analyze.Ddl;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.Insert;
import io.shardwise.core.sql.analyze.Passthrough;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.Update;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Shardwise's own plan of a statement that does not run as one unit on one backend (EXPLAIN of a
 * scatter, a merge, a federated SELECT, a write over several shards): its {@code tier}, its
 * {@code route} and its steps in the order they run. Steps with one {@code id} run together (in
 * parallel outside a transaction); a step with a greater id starts once they are done.
 *
 * <p>Rendered as a table ({@link Format#TABLE}: one row per step, {@link #LABELS}) or as one JSON
 * document ({@link Format#JSON}: one row, one column {@code EXPLAIN}, as MySQL's FORMAT=JSON).
 * Built from the route plan PREVIEW shows, so both always agree on every unit's SQL.
 */
record OwnPlan(String tier, RouteKind route, List<Step> steps) {
    OwnPlan {
        steps = List.copyOf(steps);
    }

    enum Format { TABLE, JSON }

    /** One step: {@code backend}/{@code sql}/{@code params} for a unit, null for one Shardwise performs itself. */
    record Step(int id, String step, String backend, String sql, List<Object> params, String detail) {
        Step {
            params = params.isEmpty() ? List.of() : java.util.Collections.unmodifiableList(new ArrayList<>(params));
        }
    }

    static final List<String> LABELS = List.of("id", "tier", "route", "step", "backend", "sql", "params", "detail");

    private static final int LONGLONG = 8;
    private static final int VAR_STRING = 253;
    /** The decimals MySQL sends for a string column. */
    private static final int NOT_FIXED_DEC = 39;
    private static final int UTF8MB4_GENERAL_CI = 45;

    /**
     * @param federated the third tier's plan when {@code route}'s units are one's (a federated SELECT, or the SELECT choosing a
     *                  keyed write's or key move's rows on that tier): its steps are named from it; else null
     */
    static OwnPlan of(RoutePlan route, Statement statement, FederatedPlan federated) {
        List<Step> steps = new ArrayList<>();
        List<ExecutionUnit> units = route.units();
        String tier = switch (route.kind()) {
            case FEDERATED -> {
                federatedSteps(units, federated, "statement", steps);
                yield "federated";
            }
            case INSERT_SELECT -> {
                int next = reads(route, "read", steps);
                steps.add(new Step(next, "insert", null, null, List.of(), "the rows read, as INSERT ... VALUES batches of "
                        + InsertBatches.BATCH + " routed by the target's rule, in one transaction with the read"));
                yield "insert select";
            }
            case KEYED_WRITE -> {
                int next = choice(route, federated, steps);
                steps.add(new Step(next, "write by key", null, null, List.of(), "the statement on the chosen rows' nodes, by their"
                        + " primary keys, in one transaction with the choice"));
                yield "keyed write";
            }
            case KEY_MOVE -> {
                int next = choice(route, federated, steps);
                steps.add(new Step(next, "write by key", null, null, List.of(), "the statement on the chosen rows, in place on"
                        + " their nodes: by their primary keys, or (several tables) the join where it meets, on the third tier if it"
                        + " does not meet on one node"));
                steps.add(new Step(next + 1, "move rows", null, null, List.of(), "each updated row whose new sharding key belongs"
                        + " to another node: read, deleted from its node, inserted by the rule; in one transaction with the choice"));
                yield "key move";
            }
            case UNSHARDED, POINT, MULTI_POINT, RANGE, SCATTER, BROADCAST_READ, BROADCAST_WRITE -> {
                boolean read = reads(statement);
                if (read) {
                    reads(route, "read", steps);
                } else {
                    for (ExecutionUnit u : units) {
                        steps.add(new Step(1, "write", u.backend(), u.sql(), u.params(), null));
                    }
                }
                yield read ? "merger" : "write"; // a read of one unit is the backend's own EXPLAIN, never this plan
            }
        };
        return new OwnPlan(tier, route.kind(), steps);
    }

    private static boolean reads(Statement statement) {
        return switch (statement) {
            case Select s -> true;
            case Insert i -> false;
            case Update u -> false;
            case Delete d -> false;
            case Ddl d -> false;
            case Passthrough p -> false;
            case Call c -> false;
            case SessionCommand c -> false;
        };
    }

    /**
     * The steps of the SELECT that chooses a write's rows: the merger's reads and merge, or (its units a federated
     * plan's: a subquery over other shards in the choice) the third tier's steps, the SELECT itself named "choose
     * rows"; the next free id.
     */
    private static int choice(RoutePlan route, FederatedPlan federated, List<Step> steps) {
        if (federated == null) {
            return reads(route, "choose rows", steps);
        }
        federatedSteps(route.units(), federated, "choose rows", steps);
        return steps.get(steps.size() - 1).id() + 1;
    }

    /** The route's units as reads with id 1, then their merge with id 2 when there are several; the next free id. */
    private static int reads(RoutePlan route, String step, List<Step> steps) {
        for (ExecutionUnit u : route.units()) {
            steps.add(new Step(1, step, u.backend(), u.sql(), u.params(), null));
        }
        if (route.units().size() == 1) {
            return 2;
        }
        steps.add(new Step(2, "merge", null, null, List.of(), route.merge().explain()));
        return 3;
    }

    /**
     * The federated route's units ({@code FederatedRunner#preview}: the remote scans, then the
     * coordinator's sequence) named by the plan's structure: per copy a drop, a create, a copy of each
     * local node and an insert of each remote node's shipped rows; then the statement; then a drop per
     * copy. The scans share id 1 (they run in parallel outside a transaction); each coordinator step
     * has its own.
     */
    private static void federatedSteps(List<ExecutionUnit> units, FederatedPlan plan, String statement, List<Step> steps) {
        List<String[]> names = new ArrayList<>(); // {step, detail} per unit, in unit order
        int scans = 0;
        if (plan == null) {
            plan = new FederatedPlan("", List.of(), java.util.Map.of(), java.util.Map.of(), List.of()); // nothing to name steps by
        }
        for (FederatedPlan.Copy c : plan.copies()) {
            for (DataNode remote : c.remote()) {
                if (!reads(units, remote.backend(), remote.table())) {
                    continue; // pruned by the copy's pushed conjuncts (CopyScans)
                }
                names.add(new String[] {"ship", "the rows of " + c.table() + " for its copy on " + plan.coordinator()});
                scans++;
            }
        }
        for (FederatedPlan.Copy c : plan.copies()) {
            names.add(new String[] {"drop copy", "a stale copy of " + c.table()});
            names.add(new String[] {"create copy", "a temporary copy of " + c.table()
                    + (c.like() != null ? " like its node " + c.like() : " from the definition of its node " + c.definition())});
            for (String local : c.local()) {
                if (!reads(units, plan.coordinator(), local)) {
                    continue;
                }
                names.add(new String[] {"copy local", c.table() + "'s node " + local + " on the coordinator"});
            }
            for (DataNode remote : c.remote()) {
                if (!reads(units, remote.backend(), remote.table())) {
                    continue;
                }
                names.add(new String[] {"insert shipped", "the rows shipped from " + remote.backend() + "." + remote.table()});
            }
        }
        names.add(new String[] {statement, statement.equals("statement") ? "the statement as written, over the copies"
                : "the SELECT choosing the write's rows, over the copies"});
        for (FederatedPlan.Copy c : plan.copies()) {
            names.add(new String[] {"drop copy", "the copy of " + c.table()});
        }
        boolean named = names.size() == units.size(); // else a plan shape this naming does not know: steps unnamed, never misnamed
        int id = scans > 0 ? 1 : 0;
        for (int i = 0; i < units.size(); i++) {
            ExecutionUnit u = units.get(i);
            if (!named || i >= scans) {
                id++;
            }
            steps.add(new Step(id, named ? names.get(i)[0] : "step", u.backend(), u.sql(), u.params(), named ? names.get(i)[1] : null));
        }
    }

    /** Whether a unit on {@code backend} reads {@code table}: a node the copy's pushed conjuncts prune has none. */
    private static boolean reads(List<ExecutionUnit> units, String backend, String table) {
        String from = "FROM `" + table.replace("`", "``") + "`";
        for (ExecutionUnit u : units) {
            if (u.backend().equals(backend) && u.sql() != null && u.sql().contains(from)) {
                return true;
            }
        }
        return false;
    }

    static List<Column> columns(Format format) {
        return switch (format) {
            case TABLE -> {
                List<Column> columns = new ArrayList<>(LABELS.size());
                // as MariaDB describes its own EXPLAIN's id and text columns
                columns.add(new Column("", "", "", "id", "", Column.BINARY_COLLATION, 20, LONGLONG, Column.FLAG_UNSIGNED | Column.FLAG_BINARY, 0));
                for (String label : LABELS.subList(1, LABELS.size())) {
                    boolean wide = label.equals("sql") || label.equals("params") || label.equals("detail");
                    columns.add(new Column("", "", "", label, "", UTF8MB4_GENERAL_CI, wide ? 65535 * 4L : 64 * 4, VAR_STRING, 0, NOT_FIXED_DEC));
                }
                yield columns;
            }
            case JSON -> List.of(new Column("", "", "", "EXPLAIN", "", UTF8MB4_GENERAL_CI, 65535 * 4L, VAR_STRING, Column.FLAG_NOT_NULL, NOT_FIXED_DEC));
        };
    }

    ValuesCursor cursor(Format format) {
        List<byte[][]> rows = new ArrayList<>();
        switch (format) {
            case TABLE -> {
                for (Step s : steps) {
                    rows.add(new byte[][] {bytes(Integer.toString(s.id())), bytes(tier), bytes(route.name()), bytes(s.step()),
                            bytes(s.backend()), bytes(s.sql()), s.params().isEmpty() ? null : bytes(s.params().toString()), bytes(s.detail())});
                }
            }
            case JSON -> rows.add(new byte[][] {bytes(json())});
        }
        return new ValuesCursor(columns(format), rows);
    }

    /** The plan as MySQL's FORMAT=JSON is laid out: one object, two-space indents, a member per line. */
    String json() {
        StringBuilder sb = new StringBuilder("{\n  \"shardwise\": {\n");
        sb.append("    \"tier\": ").append(quote(tier)).append(",\n");
        sb.append("    \"route\": ").append(quote(route.name())).append(",\n");
        sb.append("    \"steps\": [");
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            sb.append(i == 0 ? "\n" : ",\n").append("      {\n");
            sb.append("        \"id\": ").append(s.id()).append(",\n");
            sb.append("        \"step\": ").append(quote(s.step()));
            member(sb, "backend", s.backend());
            member(sb, "sql", s.sql());
            if (!s.params().isEmpty()) {
                sb.append(",\n        \"params\": [");
                for (int p = 0; p < s.params().size(); p++) {
                    sb.append(p == 0 ? "" : ", ").append(value(s.params().get(p)));
                }
                sb.append(']');
            }
            member(sb, "detail", s.detail());
            sb.append("\n      }");
        }
        return sb.append("\n    ]\n  }\n}").toString();
    }

    private static void member(StringBuilder sb, String name, String value) {
        if (value != null) {
            sb.append(",\n        \"").append(name).append("\": ").append(quote(value));
        }
    }

    /** A parameter value: numbers as JSON numbers, NULL as null, anything else as its text. */
    private static String value(Object v) {
        return switch (v) {
            case null -> "null";
            case Long l -> l.toString();
            case Integer n -> n.toString();
            case BigInteger b -> b.toString();
            case BigDecimal d -> d.toPlainString();
            case byte[] b -> quote("0x" + java.util.HexFormat.of().formatHex(b));
            default -> quote(v.toString());
        };
    }

    /** A JSON string (RFC 8259: quote, backslash and control characters escaped). */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }
}
