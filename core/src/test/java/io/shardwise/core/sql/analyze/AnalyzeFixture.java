package io.shardwise.core.sql.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.core.sql.normalize.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Fluent checks of what the analyzer makes of one statement (STYLE 22), over the sample
 * configuration: {@code sql("SELECT * FROM orders WHERE user_id = 5").select().template("select * from
 * {orders} where user_id = ?0").key("orders", "= ?0")}. The statement is normalized first, as on the
 * hot path, so literals arrive as {@code ?} markers; a template renders with table slots as
 * {@code {table}} and parameter slots as {@code ?index}. In {@link #fails}, a {@code ^} in the SQL
 * marks where the error must be reported.
 */
final class AnalyzeFixture {
    static final ShardingRule RULE = SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop"));
    private static final Analyzer ANALYZER = new Analyzer(RULE);

    private final String sql;
    private final io.shardwise.core.sql.normalize.LexicalMode mode;
    private Statement statement;

    private AnalyzeFixture(String sql, io.shardwise.core.sql.normalize.LexicalMode mode) {
        this.sql = sql;
        this.mode = mode;
    }

    static AnalyzeFixture sql(String sql) {
        return new AnalyzeFixture(sql, io.shardwise.core.sql.normalize.LexicalMode.DEFAULT);
    }

    /** {@code sql} as a session in this sql_mode reads it. */
    static AnalyzeFixture sql(String sql, String sqlMode) {
        return new AnalyzeFixture(sql, io.shardwise.core.sql.normalize.LexicalMode.of(sqlMode));
    }

    Statement statement() {
        if (statement == null) {
            statement = ANALYZER.analyze(Normalizer.normalize(sql, mode).digest(), mode);
        }
        return statement;
    }

    Select asSelect() {
        return assertInstanceOf(Select.class, statement(), sql);
    }

    AnalyzeFixture is(Class<? extends Statement> kind) {
        assertInstanceOf(kind, statement(), sql);
        return this;
    }

    AnalyzeFixture select() {
        return is(Select.class);
    }

    /** The template with its slots shown: tables as {@code {name}}, parameters as {@code ?index}. */
    AnalyzeFixture template(String expected) {
        assertEquals(expected, render(statement().template()), sql);
        return this;
    }

    static String render(SqlTemplate t) {
        StringBuilder sb = new StringBuilder();
        int pos = 0;
        List<Slot> slots = new ArrayList<>(t.slots());
        slots.sort(null);
        for (Slot s : slots) {
            sb.append(t.text(), pos, s.start());
            switch (s) {
                case Slot.Table table -> sb.append('{').append(table.table()).append('}');
                case Slot.Param p -> sb.append('?').append(p.index());
            }
            pos = s.end();
        }
        return sb.append(t.text().substring(pos)).toString();
    }

    /** Every table the statement names, as {@code [schema.]name [alias]}, in text order. */
    AnalyzeFixture tables(String... expected) {
        List<String> actual = new ArrayList<>();
        for (TableRef t : statement().tables()) {
            actual.add(t.toString());
        }
        assertEquals(Arrays.asList(expected), actual, sql);
        return this;
    }

    /** What the top-level WHERE says about the key of the table exposed as {@code table}. */
    AnalyzeFixture key(String table, String condition) {
        KeyCondition c = conditions().get(ref(table));
        assertEquals(condition, c == null ? null : c.toString(), () -> sql + "\n  conditions: " + conditions());
        return this;
    }

    /** Nothing is known of the key of {@code table}: a scatter. */
    AnalyzeFixture noKey(String table) {
        return key(table, null);
    }

    private Map<TableRef, KeyCondition> conditions() {
        return switch (statement()) {
            case Select s -> s.conditions();
            case Update u -> u.conditions();
            case Delete d -> d.conditions();
            default -> throw new AssertionError("no key conditions on " + statement());
        };
    }

    private TableRef ref(String exposed) {
        for (TableRef t : statement().tables()) {
            if (t.exposedName().equals(exposed)) {
                return t;
            }
        }
        throw new AssertionError("no table exposed as " + exposed + " in " + statement().tables());
    }

    /** The pairs joined on their sharding keys, as {@code left=right} by exposed name. */
    AnalyzeFixture keyJoins(String... expected) {
        List<String> actual = new ArrayList<>();
        for (Select.KeyJoin j : asSelect().keyJoins()) {
            actual.add(j.left().exposedName() + "=" + j.right().exposedName());
        }
        assertEquals(Arrays.asList(expected), actual, sql);
        return this;
    }

    /**
     * The select items: their text, {@code " as alias"}, and {@code " <- kind(distinct arg)"} when the
     * item is one aggregate, {@code " <- contains aggregate"} when it has one inside.
     */
    AnalyzeFixture items(String... expected) {
        List<String> actual = new ArrayList<>();
        for (SelectShape.Item i : asSelect().shape().items()) {
            StringBuilder sb = new StringBuilder(i.text());
            if (i.alias() != null) {
                sb.append(" as ").append(i.alias());
            }
            if (i.aggregate() != null) {
                SelectShape.Aggregate a = i.aggregate();
                sb.append(" <- ").append(a.kind()).append('(').append(a.distinct() ? "distinct " : "").append(a.argument()).append(')');
            } else if (i.containsAggregate()) {
                sb.append(" <- contains aggregate");
            }
            actual.add(sb.toString());
        }
        assertEquals(Arrays.asList(expected), actual, sql);
        return this;
    }

    /** GROUP BY keys: {@code #item}, {@code ?ordinal} or the expression's text; {@code " desc"} when descending. */
    AnalyzeFixture groupBy(String... expected) {
        assertEquals(Arrays.asList(expected), keys(asSelect().shape().groupBy()), sql);
        return this;
    }

    AnalyzeFixture orderBy(String... expected) {
        assertEquals(Arrays.asList(expected), keys(asSelect().shape().orderBy()), sql);
        return this;
    }

    private static List<String> keys(List<SelectShape.Key> keys) {
        List<String> out = new ArrayList<>();
        for (SelectShape.Key k : keys) {
            String what = k.ordinal() != null ? k.ordinal().toString() : k.text() != null ? k.text() : "#" + k.item();
            out.add(what + (k.descending() ? " desc" : ""));
        }
        return out;
    }

    /** {@code "offset, limit"}: each a value reference, or null. */
    AnalyzeFixture limit(String expected) {
        SelectShape s = asSelect().shape();
        assertEquals(expected, s.offset() + ", " + s.limit(), sql);
        return this;
    }

    AnalyzeFixture distinct(boolean expected) {
        assertEquals(expected, asSelect().shape().distinct(), sql);
        return this;
    }

    AnalyzeFixture star(boolean expected) {
        assertEquals(expected, asSelect().shape().star(), sql);
        return this;
    }

    /** The HAVING condition's normalized text (its literals are bare {@code ?} markers). */
    AnalyzeFixture having(String expected) {
        assertEquals(expected, asSelect().shape().having(), sql);
        return this;
    }

    AnalyzeFixture nested(boolean expected) {
        boolean actual = switch (statement()) {
            case Select s -> s.nested();
            case Update u -> u.nested();
            case Delete d -> d.nested();
            default -> throw new AssertionError("not a SELECT, UPDATE or DELETE: " + statement());
        };
        assertEquals(expected, actual, sql);
        return this;
    }

    AnalyzeFixture session(SessionCommand.Kind kind, String argument) {
        SessionCommand c = assertInstanceOf(SessionCommand.class, statement(), sql);
        assertEquals(kind, c.kind(), sql);
        assertEquals(argument, c.argument(), sql);
        return this;
    }

    /** An INSERT's table, columns and rows (each value reference's text; {@code expr} for a computed value). */
    AnalyzeFixture inserts(String table, List<String> columns, String... rows) {
        Insert i = assertInstanceOf(Insert.class, statement(), sql);
        assertEquals(table, i.table().toString(), sql);
        assertEquals(columns, i.columns(), sql);
        List<String> actual = new ArrayList<>();
        for (List<ValueRef> row : i.rows()) {
            List<String> values = new ArrayList<>();
            for (ValueRef v : row) {
                values.add(v == null ? "expr" : v.toString());
            }
            actual.add(String.join(", ", values));
        }
        assertEquals(Arrays.asList(rows), actual, sql);
        return this;
    }

    /** The UPDATE's assigned columns and whether it has ORDER BY/LIMIT. */
    AnalyzeFixture assigns(List<String> columns, boolean limited) {
        Update u = assertInstanceOf(Update.class, statement(), sql);
        assertEquals(columns, u.assigned(), sql);
        assertEquals(limited, u.limited(), sql);
        return this;
    }

    /**
     * Analysis fails with {@code code} and a message containing {@code fragment}; a {@code ^} in the
     * SQL (removed before analysis) marks the position the message must name.
     */
    void fails(ErrorCode code, String fragment) {
        int caret = sql.indexOf('^');
        String text = caret < 0 ? sql : sql.substring(0, caret) + sql.substring(caret + 1);
        ShardwiseException e = assertThrows(ShardwiseException.class,
                () -> ANALYZER.analyze(Normalizer.normalize(text, mode).digest(), mode), text);
        assertEquals(code, e.code(), e::getMessage);
        assertTrue(e.getMessage().contains(fragment), () -> "'" + fragment + "' missing from: " + e.getMessage());
        if (caret >= 0) {
            assertTrue(e.getMessage().contains("at position " + caret + " "), () -> "position " + caret + " not in: " + e.getMessage());
        }
    }
}
