package io.shardwise.core.sql.analyze;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * What the federated tier may leave out of a sharded table's copy without changing the statement's
 * answer, read from the analyzer's Calcite parse of the statement's text: the columns the statement
 * can reference at all, and per table the WHERE and inner-join ON conjuncts of its query block
 * (the outermost query, a derived table, a CTE's or a subquery's SELECT) that can filter its rows
 * before they are copied. Computed once per federated plan.
 *
 * <p>Invariant (what makes a pushed conjunct exact): the coordinator still runs the whole statement,
 * conjunct included, over the copies; a pushed conjunct only drops rows the statement would drop
 * anyway. That holds when the table is on no null-supplying side of an outer join in its block,
 * and the conjunct reads only that table's columns and gives the same value on every
 * backend (no subquery, user or system variable, time, random or session function, no function the
 * list below does not know as deterministic). Unqualified names are attributed at run time against
 * the live columns ({@link Conjunct#unqualified}), where MySQL attributes them. A conjunct that is an
 * OR of terms on several tables gives each table the OR of its own parts ({@code factored}); a
 * table read more than once (a self-join, a subquery reading it again) has one copy for all its
 * references, narrowed by the OR of what each reference takes, and only when every one takes something.
 *
 * <p>Hazard: errs only towards copying more: anything not understood copies the rows or columns.
 * One class over ~300 lines because its parts (names, stars, blocks, conjunct checks) read one
 * parse in one pass and share its token lookups.
 */
public record CopyScope(Set<String> names, Set<String> wholeTables, boolean allWhole, Map<String, Table> tables) {
    public CopyScope {
        names = Set.copyOf(names);
        wholeTables = Set.copyOf(wholeTables);
        tables = Map.copyOf(tables);
    }

    /** Nothing known: every column, every row. */
    public static final CopyScope NONE = new CopyScope(Set.of(), Set.of(), true, Map.of());

    /**
     * A table that may take conjuncts: {@code exposed} is the name the statement calls it (its alias,
     * else its name), under which a scan must read it for the conjuncts' qualifiers to resolve;
     * {@code rivals} the other tables of its query block's FROM (logical names, lower case) whose columns
     * an unqualified name might be.
     */
    public record Table(String exposed, List<Conjunct> conjuncts, List<String> rivals, List<Key> keys) {
        public Table {
            conjuncts = List.copyOf(conjuncts);
            rivals = List.copyOf(rivals);
            keys = List.copyOf(keys);
        }

        public Table(String exposed, List<Conjunct> conjuncts, List<String> rivals) {
            this(exposed, conjuncts, rivals, List.of());
        }
    }

    /**
     * A join key: every row of the table the statement can use has {@code column} equal to
     * {@code sourceColumn} of some row of table {@code source}'s copy (a conjunct {@code column =
     * sourceColumn} of its block that no row of it escapes: WHERE, an inner join's ON, its own outer
     * join's ON, an {@code IN (SELECT sourceColumn FROM source ...)} or {@code EXISTS (SELECT ... FROM
     * source WHERE sourceColumn = column ...)}). So its scans may keep only rows whose {@code column}
     * is among the keys of {@code source}'s copy. An unqualified name is attributed at run time: it must
     * be its table's column and none of its rivals' (logical names, lower case).
     */
    public record Key(String column, boolean qualified, List<String> rivals, String source, String sourceColumn,
                      boolean sourceQualified, List<String> sourceRivals) {
        public Key {
            rivals = List.copyOf(rivals);
            sourceRivals = List.copyOf(sourceRivals);
        }
    }

    /**
     * A conjunct's span [start, end) of the statement's text (balanced, without the AND around it), and
     * that text (with its {@code ?}s: for plans' explain);
     * the unqualified column names it reads (lower case), each of which must be the table's column
     * and no rival's for it to be pushed; what it says about the sharding key (for pruning nodes); and
     * its branches {@code any}: for a derived condition ({@link #anyOf}, {@code start} -1) what it is, for
     * an OR of the text what it comes down to when the OR as a whole cannot be attributed to the table
     * (an unqualified name of another table in it: TPC-H Q19's) — each part kept where its own names are
     * the table's, a branch left with none dropping it whole (CopyScans).
     */
    public record Conjunct(int start, int end, String text, Set<String> unqualified, KeyCondition key, List<List<Conjunct>> any,
                           NodeKeys node) {
        public Conjunct {
            unqualified = Set.copyOf(unqualified);
            List<List<Conjunct>> branches = new ArrayList<>(any.size());
            for (List<Conjunct> branch : any) {
                branches.add(List.copyOf(branch));
            }
            any = List.copyOf(branches);
        }

        public Conjunct(int start, int end, String text, Set<String> unqualified, KeyCondition key, List<List<Conjunct>> any) {
            this(start, end, text, unqualified, key, any, null);
        }

        /** A key set each node answers for its own rows ({@link NodeKeys}); derived, rendered per node. */
        public static Conjunct of(NodeKeys node, Set<String> unqualified, String text) {
            return new Conjunct(-1, -1, text, unqualified, KeyCondition.ANY, List.of(), node);
        }

        public Conjunct(int start, int end, String text, Set<String> unqualified, KeyCondition key) {
            this(start, end, text, unqualified, key, List.of());
        }

        /** Whether this is a derived condition, rendered part by part, rather than a span of the text. */
        public boolean derived() {
            return start < 0;
        }

        /**
         * A derived condition: the OR of {@code branches}, each the AND of its conjuncts, rendered part by
         * part from the statement's text. Made where every row the statement can use satisfies some
         * branch (OR factoring of a WHERE's {@code OR}; the references of a table read more than once).
         */
        public static Conjunct anyOf(List<List<Conjunct>> branches) {
            StringBuilder text = new StringBuilder();
            Set<String> unqualified = new HashSet<>();
            for (List<Conjunct> branch : branches) {
                text.append(text.isEmpty() ? "(" : " OR (");
                for (int i = 0; i < branch.size(); i++) {
                    Conjunct c = branch.get(i);
                    // each part in parentheses: a part may be an OR whose span leaves its own out
                    text.append(i == 0 ? "(" : " AND (").append(c.text()).append(')');
                    unqualified.addAll(c.unqualified());
                }
                text.append(')');
            }
            return new Conjunct(-1, -1, text.toString(), unqualified, KeyCondition.ANY, branches);
        }
    }

    /**
     * A conjunct each node answers for its own rows: the scanned table's sharding key {@code column} IN
     * the one-column query {@code pieces} (or NULL), rendered per node with each table they read
     * ({@link Piece#table} and the spans' table names) at that node's index. Made where every row the
     * statement can use of the table has its key among what that query returns over the whole table
     * group, and the query reads only tables bound with the scanned one, selecting and correlating on
     * their sharding keys: then the rows a key's answer depends on all live on that key's node, so each
     * node answers for its own keys exactly what the whole group would (TPC-H Q18's grouped
     * {@code IN (SELECT l_orderkey ... GROUP BY l_orderkey HAVING ...)}, Q21's {@code EXISTS} /
     * {@code NOT EXISTS} correlated on {@code l_orderkey}). {@code columns}: per table (logical, lower
     * case; physical once {@code nodes} is set) the unqualified names that must be its columns, as MySQL
     * then reads them there (else the subquery would be correlated); {@code nodes}: per table its
     * physical tables by node index, set by the plan once it has checked the tables are bound.
     */
    public record NodeKeys(String column, List<Piece> pieces, Map<String, Set<String>> columns, Map<String, List<String>> nodes) {
        public NodeKeys {
            pieces = List.copyOf(pieces);
            Map<String, Set<String>> copy = new java.util.TreeMap<>();
            columns.forEach((t, names) -> copy.put(t, Set.copyOf(names)));
            columns = Collections.unmodifiableMap(copy);
            nodes = Map.copyOf(nodes);
        }

        /** The tables the pieces read (logical, lower case). */
        public Set<String> tables() {
            Set<String> out = new java.util.TreeSet<>(columns.keySet());
            for (Piece p : pieces) {
                if (p.table() != null) {
                    out.add(p.table());
                }
            }
            return out;
        }
    }

    /** A part of a {@link NodeKeys} query: literal {@code text}, else the node's {@code table}, else the statement's span [start, end). */
    public record Piece(String text, String table, int start, int end) {
        static Piece literal(String text) {
            return new Piece(text, null, -1, -1);
        }

        static Piece node(String table) {
            return new Piece(null, table, -1, -1);
        }

        static Piece span(int start, int end) {
            return new Piece(null, null, start, end);
        }
    }

    /** Whether every column of table {@code lower} must be copied ({@code *}, NATURAL, USING, an unreadable part). */
    public boolean whole(String lower) {
        return allWhole || wholeTables.contains(lower);
    }

    /**
     * Functions that give the same value for the same arguments on every backend. Not here: time and
     * random functions, session-dependent ones (DATE_FORMAT and MONTHNAME follow lc_time_names),
     * user-defined functions (they may differ or be missing on another backend).
     */
    private static final Set<String> DETERMINISTIC = Set.of("abs", "acos", "asin", "atan", "atan2", "ceil", "ceiling",
            "cos", "cot", "degrees", "exp", "floor", "ln", "log", "log10", "log2", "mod", "pow", "power", "radians", "round",
            "sign", "sin", "sqrt", "tan", "truncate", "crc32", "conv", "bin", "hex", "unhex", "oct", "ascii", "char_length",
            "character_length", "length", "octet_length", "bit_length", "concat", "concat_ws", "elt", "field", "find_in_set",
            "instr", "lcase", "left", "locate", "lower", "lpad", "ltrim", "position", "repeat", "replace", "reverse", "right",
            "rpad", "rtrim", "space", "strcmp", "substr", "substring", "substring_index", "trim", "ucase", "upper", "md5",
            "sha1", "sha2", "coalesce", "ifnull", "isnull", "nullif", "if", "greatest", "least", "cast", "convert", "date",
            "year", "month", "day", "dayofmonth", "dayofweek", "dayofyear", "weekday", "quarter", "hour", "minute", "second",
            "microsecond", "extract", "date_add", "date_sub", "adddate", "subdate", "datediff", "to_days", "from_days",
            "last_day", "time", "time_to_sec", "sec_to_time", "timestamp", "timestampdiff", "timestampadd", "period_add",
            "period_diff");
    /** Words before "(" that are syntax, not calls. */
    private static final Set<String> SYNTAX = Set.of("and", "or", "not", "xor", "in", "is", "like", "between", "when",
            "then", "else", "case", "escape", "regexp", "rlike", "div", "mod", "row", "binary", "interval", "null",
            "char", "varchar", "decimal", "numeric", "double", "float", "datetime", "nchar", "json");
    /** Words that are calls without parentheses: their value is the backend's clock or session. */
    private static final Set<String> NILADIC = Set.of("current_date", "current_time", "current_timestamp", "localtime",
            "localtimestamp", "current_user", "current_role", "utc_date", "utc_time", "utc_timestamp");

    /** The scope of a SELECT's copies; {@link #NONE} when its text cannot be read again. */
    public static CopyScope of(Select select, ShardingRule rule) {
        return of(select.template(), rule);
    }

    /**
     * The scope of any statement's copies, read from its template's text: an UPDATE or DELETE's own
     * target is in no query block's FROM, so a subquery's reference to it counts as its only one
     * (its copy serves the subqueries alone: the outer references name the node being written).
     */
    public static CopyScope of(SqlTemplate template, ShardingRule rule) {
        String sql = template.text();
        ParsedText parsed;
        try {
            parsed = ParsedText.parse(sql, DigestScanner.scan(sql));
        } catch (Exception e) {
            return NONE; // it parsed when analyzed; copying everything is right whatever happened
        }
        return new Reader(parsed, rule).read();
    }

    private static final class Reader {
        private final ParsedText parsed;
        private final ShardingRule rule;
        private final Set<String> names = new HashSet<>();
        private final Set<String> whole = new HashSet<>();
        private final Map<String, Integer> occurrences = new HashMap<>();
        private final Set<SqlNode> existsQueries = Collections.newSetFromMap(new IdentityHashMap<>());
        private final List<SqlSelect> blocks = new ArrayList<>();
        /** Each query block's enclosing block (the one whose columns its correlated names read), absent for the outermost. */
        private final Map<SqlSelect, SqlSelect> parents = new IdentityHashMap<>();
        private final java.util.ArrayDeque<SqlSelect> open = new java.util.ArrayDeque<>();
        /** Subqueries whose every node answers them for its own keys ({@link #grouped}), with that key set. */
        private final Map<SqlSelect, NodeKeys> grouped = new IdentityHashMap<>();
        /** EXISTS subqueries correlated on the key of an outer table that took a {@link NodeKeys}: that key set. */
        private final Map<SqlSelect, NodeKeys> correlatedKeys = new IdentityHashMap<>();
        private boolean allWhole;

        Reader(ParsedText parsed, ShardingRule rule) {
            this.parsed = parsed;
            this.rule = rule;
        }

        CopyScope read() {
            SqlNode root = parsed.node;
            root.accept(new SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlIdentifier id) {
                    if (!masked(id) && !id.isStar()) {
                        names.add(lower(id.names.get(id.names.size() - 1)));
                    }
                    return null;
                }

                @Override
                public Void visit(SqlCall call) {
                    if (call.getKind() == SqlKind.EXISTS && call.operandCount() == 1) {
                        existsQueries.add(unwrap(call.operand(0)));
                    }
                    if (call instanceof SqlSelect s) {
                        // every FROM of the statement is some SqlSelect's: each table reference counted
                        // (a CTE's name counts too, which only keeps more rows)
                        List<TableRef> direct = new ArrayList<>();
                        directTables(s.getFrom(), direct);
                        for (TableRef t : direct) {
                            occurrences.merge(lower(t.name()), 1, Integer::sum);
                        }
                        stars(s);
                        blocks.add(s);
                        if (!open.isEmpty()) {
                            parents.put(s, open.peek());
                        }
                        open.push(s);
                        try {
                            return super.visit(call);
                        } finally {
                            open.pop();
                        }
                    }
                    if (call instanceof SqlJoin j && (j.isNatural() || j.getCondition() instanceof SqlNodeList)) {
                        allWhole = true; // NATURAL and USING join on columns the text never names
                    }
                    return super.visit(call);
                }
            });
            for (int i = 0; i + 1 < parsed.tokens.size(); i++) {
                Token t = parsed.tokens.get(i);
                if ((t.is("use") || t.is("force") || t.is("ignore")) && (parsed.tokens.get(i + 1).is("index")
                        || parsed.tokens.get(i + 1).is("key"))) {
                    allWhole = true; // an index hint names an index a narrowed copy may not have
                }
            }
            Map<String, List<Table>> references = new HashMap<>();
            for (SqlSelect block : blocks) {
                NodeKeys keys = grouped(block);
                if (keys != null) {
                    grouped.put(block, keys);
                }
            }
            for (SqlSelect block : blocks) {
                pushable(block, references);
            }
            Map<String, Table> tables = new HashMap<>();
            references.forEach((name, refs) -> {
                // every reference of the statement seen, each narrowed: the copy serves them all
                if (refs.size() == occurrences.getOrDefault(name, 0) && !refs.contains(null)) {
                    Table t = refs.size() == 1 ? refs.getFirst() : union(name, refs);
                    if (t != null) {
                        tables.put(name, t);
                    }
                }
            });
            return new CopyScope(names, whole, allWhole, tables);
        }

        /** A select list's {@code *} or {@code t.*} needs every column of what it covers (not under EXISTS, which reads no column). */
        private void stars(SqlSelect s) {
            if (existsQueries.contains(s)) {
                return;
            }
            for (SqlNode item : s.getSelectList()) {
                if (item instanceof SqlIdentifier id && id.isStar()) {
                    if (id.names.size() == 1) {
                        // over a derived table, a * reads what its own select list names
                        List<TableRef> direct = new ArrayList<>();
                        directTables(s.getFrom(), direct);
                        for (TableRef t : direct) {
                            whole.add(lower(t.name()));
                        }
                    } else {
                        String qualifier = id.names.get(id.names.size() - 2);
                        List<TableRef> direct = new ArrayList<>();
                        directTables(s.getFrom(), direct);
                        for (TableRef t : direct) {
                            if (t.exposedName().equalsIgnoreCase(qualifier)) {
                                whole.add(lower(t.name()));
                            }
                        }
                    }
                }
            }
        }

        /**
         * The tables a FROM names directly (not inside derived tables); false when it holds a derived
         * table, whose own select list says what it reads (a {@code *} over one then still reads only that).
         */
        private static boolean directTables(SqlNode from, List<TableRef> out) {
            return switch (from) {
                case null -> true;
                case SqlIdentifier id -> {
                    out.add(new TableRef(id.names.get(id.names.size() - 1), null, null));
                    yield true;
                }
                case SqlJoin j -> directTables(j.getLeft(), out) & directTables(j.getRight(), out);
                case SqlCall call when call.getKind() == SqlKind.AS -> {
                    if (call.operand(0) instanceof SqlIdentifier id) {
                        out.add(new TableRef(id.names.get(id.names.size() - 1), null, ((SqlIdentifier) call.operand(1)).getSimple()));
                        yield true;
                    }
                    yield true; // a derived table: its own items are read as written
                }
                default -> true;
            };
        }

        private static SqlNode unwrap(SqlNode n) {
            return n instanceof SqlOrderBy ob ? ob.query : n;
        }

        /**
         * The conjuncts each table of one query block (the outermost query, a derived table, a CTE's or
         * a subquery's SELECT) may take: the block's WHERE is applied to its FROM's rows before anything
         * else of it, so for a table read nowhere else, rows its conjuncts drop are used nowhere. An
         * unqualified name there is MySQL's innermost match: the table's own column when it has one.
         */
        private void pushable(SqlSelect top, Map<String, List<Table>> out) {
            List<TableRef> refs = new ArrayList<>();
            List<TableRef> nullSupplying = new ArrayList<>();
            List<SqlNode> conditions = new ArrayList<>();
            Map<TableRef, SqlNode> ownOn = new IdentityHashMap<>();
            boolean plain = from(top.getFrom(), refs, nullSupplying, conditions, true, ownOn);
            if (top.getWhere() != null) {
                conditions.add(top.getWhere());
            }
            List<SqlNode> conjuncts = new ArrayList<>();
            for (SqlNode c : conditions) {
                conjuncts(c, conjuncts);
            }
            for (TableRef ref : refs) {
                String name = lower(ref.name());
                if (!sharded(ref)) {
                    continue;
                }
                // a null-supplying table takes only its own outer join's ON: its rows failing that ON are never matched
                List<SqlNode> candidates = new ArrayList<>();
                if (!nullSupplying.contains(ref)) {
                    candidates.addAll(conjuncts);
                }
                if (ownOn.containsKey(ref)) {
                    conjuncts(ownOn.get(ref), candidates);
                }
                List<Table> seen = out.computeIfAbsent(name, n -> new ArrayList<>());
                if (candidates.isEmpty() && !grouped.containsKey(top)) {
                    seen.add(null); // this reference uses every row
                    continue;
                }
                List<String> rivals = new ArrayList<>();
                for (TableRef other : refs) {
                    if (other != ref) {
                        // another schema's table keeps its schema: no catalog of the coordinator's schema lists it
                        boolean foreign = other.schema() != null && !other.schema().equalsIgnoreCase(rule.schema());
                        rivals.add(lower(foreign ? other.schema() + "." + other.name() : other.name()));
                    }
                }
                List<Conjunct> mine = new ArrayList<>();
                List<Key> keys = new ArrayList<>();
                for (SqlNode c : candidates) {
                    Conjunct conjunct = pushed(c, ref, plain);
                    if (conjunct != null) {
                        mine.add(conjunct);
                    }
                    keys(c, ref, refs, rivals, plain, keys);
                    correlated(c, ref, refs, rivals, plain, parents.get(top), keys);
                }
                nodeKeys(top, ref, refs, nullSupplying.contains(ref) ? List.of() : conjuncts, mine, plain);
                seen.add(!mine.isEmpty() || !keys.isEmpty() ? new Table(ref.exposedName(), mine, rivals, keys) : null);
            }
        }

        /** Aggregates a subquery a node answers for its own keys may compute (GROUP_CONCAT's length is a session's). */
        private static final Set<String> AGGREGATES = Set.of("sum", "count", "avg", "min", "max");
        /** Words at a subquery's own level that make its text more than one SELECT block (a set operation, an ORDER BY / LIMIT around it ...). */
        private static final Set<String> NOT_ONE_BLOCK = Set.of("union", "intersect", "except", "order", "limit", "offset", "fetch",
                "into", "for", "lock", "window");

        /**
         * The {@link NodeKeys} {@code ref} takes ({@code conjuncts}: its block's top-level ones, none when it is
         * null-supplying), added to {@code mine}. As the one table of a {@link #grouped} subquery, that
         * subquery's own key set: its rows outside those keys' groups are used nowhere, whatever the
         * subquery is used for, and the rows of a key are all kept (its group is answered again whole). From
         * a conjunct {@code k IN (grouped subquery)} on its own key, or {@code k = c} beside {@code c IN
         * (...)} with {@code c} the key of a table of its group: the rows it uses have a key in that set.
         * As the outer table of top-level {@code EXISTS} / {@code NOT EXISTS} correlated on its key with a
         * table of its group ({@link #correlatedOn}): the keys of its rows that pass them and its own
         * qualified conjuncts, each node answering them for its own rows; the subqueries' tables take the
         * same set (their rows of other keys match no row it uses). A NULL key always passes (rendered
         * {@code OR k IS NULL}): only the statement decides what such a row does. The binding of the
         * tables is checked by the plan ({@code Federation}); here only names.
         */
        private void nodeKeys(SqlSelect top, TableRef ref, List<TableRef> refs, List<SqlNode> conjuncts, List<Conjunct> mine, boolean plain) {
            if (!(rule.table(ref.name()) instanceof TableRule.Sharded t)) {
                return;
            }
            String key = t.keyColumn();
            List<Conjunct> own = new ArrayList<>(mine);
            NodeKeys self = grouped.get(top);
            if (self != null) {
                addNode(mine, self, Set.of());
            }
            NodeKeys outer = correlatedKeys.get(top);
            if (outer != null) {
                addNode(mine, outer, Set.of());
            }
            List<Piece> pieces = new ArrayList<>();
            Map<String, Set<String>> columns = new HashMap<>();
            List<SqlSelect> subs = new ArrayList<>();
            for (SqlNode c : conjuncts) {
                if (c instanceof SqlCall call && call.getKind() == SqlKind.IN && call.operand(1) instanceof SqlSelect sub && grouped.containsKey(sub)) {
                    SqlIdentifier a = column(call.operand(0));
                    NodeKeys set = grouped.get(sub);
                    if (a == null || !boundKey(a, refs, plain, ref)) {
                        continue;
                    }
                    NodeKeys mineSet = new NodeKeys(key, set.pieces(), set.columns(), Map.of());
                    if (names(a, ref, plain) && last(a).equalsIgnoreCase(key)) {
                        addNode(mine, mineSet, a.names.size() == 1 ? Set.of(lower(last(a))) : Set.of());
                    }
                    for (SqlNode e : conjuncts) {
                        if (!(e instanceof SqlCall eq) || eq.getKind() != SqlKind.EQUALS) {
                            continue;
                        }
                        for (int side = 0; side < 2; side++) {
                            SqlIdentifier p = column(eq.operand(side));
                            SqlIdentifier q = column(eq.operand(1 - side));
                            if (p != null && q != null && names(p, ref, plain) && last(p).equalsIgnoreCase(key) && spelled(q, a)) {
                                addNode(mine, mineSet, p.names.size() == 1 ? Set.of(lower(last(p))) : Set.of());
                            }
                        }
                    }
                }
                boolean not = c instanceof SqlCall n && n.getKind() == SqlKind.NOT && n.operand(0) instanceof SqlCall;
                SqlNode e = not ? ((SqlCall) c).operand(0) : c;
                if (e instanceof SqlCall ex && ex.getKind() == SqlKind.EXISTS && ex.operand(0) instanceof SqlSelect sub) {
                    TableRef u = single(sub);
                    int[] inside = inside(sub);
                    Set<String> inner = u == null || inside == null ? null : correlatedOn(sub, u, ref, key, inside);
                    if (inner != null) {
                        pieces.add(Piece.literal((pieces.isEmpty() ? "" : " AND ") + (not ? "NOT EXISTS (" : "EXISTS (")));
                        pieces.add(Piece.span(inside[0], inside[1]));
                        pieces.add(Piece.literal(")"));
                        columns.computeIfAbsent(lower(u.name()), x -> new HashSet<>()).addAll(inner);
                        subs.add(sub);
                    }
                }
            }
            if (subs.isEmpty()) {
                return;
            }
            String exposed = quote(ref.exposedName());
            List<Piece> query = new ArrayList<>();
            query.add(Piece.literal("SELECT " + exposed + "." + quote(key) + " FROM "));
            query.add(Piece.node(lower(ref.name())));
            query.add(Piece.literal(" AS " + exposed + " WHERE "));
            query.addAll(pieces);
            for (Conjunct c : own) {
                if (!c.derived() && c.unqualified().isEmpty()) {
                    query.add(Piece.literal(" AND ("));
                    query.add(Piece.span(c.start(), c.end()));
                    query.add(Piece.literal(")"));
                }
            }
            NodeKeys set = new NodeKeys(key, query, columns, Map.of());
            addNode(mine, set, Set.of());
            for (SqlSelect sub : subs) {
                correlatedKeys.put(sub, set);
            }
        }

        private void addNode(List<Conjunct> mine, NodeKeys set, Set<String> unqualified) {
            StringBuilder text = new StringBuilder(quote(set.column())).append(" IN (");
            for (Piece p : set.pieces()) {
                text.append(p.text() != null ? p.text() : p.table() != null ? "/* node of */ " + p.table() : parsed.sql.substring(p.start(), p.end()));
            }
            Conjunct c = Conjunct.of(set, unqualified, text.append(") /* per node */").toString());
            if (!mine.contains(c)) {
                mine.add(c);
            }
        }

        /** {@code a} names the sharding key of a sharded table of the block other than by a schema (bound with {@code ref}: checked by the plan). */
        private boolean boundKey(SqlIdentifier a, List<TableRef> refs, boolean plain, TableRef ref) {
            for (TableRef r : refs) {
                if (sharded(r) && rule.table(r.name()) instanceof TableRule.Sharded s && s.isBoundTo((TableRule.Sharded) rule.table(ref.name()))
                        && names(a, r, plain) && last(a).equalsIgnoreCase(s.keyColumn())) {
                    return true;
                }
            }
            return false;
        }

        private static boolean spelled(SqlIdentifier a, SqlIdentifier b) {
            if (a.names.size() != b.names.size()) {
                return false;
            }
            for (int i = 0; i < a.names.size(); i++) {
                if (!a.names.get(i).equalsIgnoreCase(b.names.get(i))) {
                    return false;
                }
            }
            return true;
        }

        /**
         * The key set of a subquery each node answers for its own rows, or null: one sharded table,
         * selecting its sharding key alone, grouped by that key (among others) or not grouped at all, no
         * ORDER BY or LIMIT, nothing but that table's columns (unqualified names checked against its
         * catalog when run: else they would be an outer query's), no nested subquery, the same value on
         * every backend. A group then lives whole on its key's node, so a node's answer is the whole
         * answer's keys of that node.
         */
        private NodeKeys grouped(SqlSelect sub) {
            TableRef u = parents.containsKey(sub) ? single(sub) : null;
            if (u == null || sub.getSelectList().size() != 1 || sub.getFetch() != null || sub.getOffset() != null
                    || sub.getOrderList() != null && !sub.getOrderList().isEmpty() || !(rule.table(u.name()) instanceof TableRule.Sharded t)) {
                return null;
            }
            SqlIdentifier b = column(sub.getSelectList().get(0));
            if (b == null || !names(b, u, true) || !last(b).equalsIgnoreCase(t.keyColumn())) {
                return null;
            }
            if (sub.getWhere() == null && sub.getHaving() == null) {
                return null; // every key passes: a scan would only pay for the subquery
            }
            if (sub.getGroup() == null) {
                if (sub.getHaving() != null) {
                    return null;
                }
            } else {
                boolean byKey = false;
                for (SqlNode g : sub.getGroup()) {
                    SqlIdentifier id = column(g);
                    byKey |= id != null && names(id, u, true) && last(id).equalsIgnoreCase(t.keyColumn());
                }
                if (!byKey) {
                    return null;
                }
            }
            int[] inside = inside(sub);
            Set<String> inner = inside == null ? null : own(sub, u, null, inside);
            if (inner == null) {
                return null;
            }
            return new NodeKeys(t.keyColumn(), List.of(Piece.span(inside[0], inside[1])), Map.of(lower(u.name()), inner), Map.of());
        }

        /**
         * The unqualified names of an EXISTS subquery over {@code u} correlated with outer table {@code ref}
         * by a top-level {@code u.key = ref.key} (both sharding keys), or null when it is not one a node
         * answers for its rows: only {@code u}'s and (qualified) {@code ref}'s columns, no nested subquery,
         * the same value on every backend.
         */
        private Set<String> correlatedOn(SqlSelect sub, TableRef u, TableRef ref, String key, int[] inside) {
            if (!(rule.table(u.name()) instanceof TableRule.Sharded t) || sub.getWhere() == null
                    || u.exposedName().equalsIgnoreCase(ref.exposedName())) {
                return null;
            }
            List<SqlNode> inner = new ArrayList<>();
            conjuncts(sub.getWhere(), inner);
            boolean on = false;
            for (SqlNode n : inner) {
                if (n instanceof SqlCall eq && eq.getKind() == SqlKind.EQUALS) {
                    for (int side = 0; side < 2; side++) {
                        SqlIdentifier x = column(eq.operand(side));
                        SqlIdentifier y = column(eq.operand(1 - side));
                        on |= x != null && y != null && names(x, u, true) && last(x).equalsIgnoreCase(t.keyColumn()) && y.names.size() == 2
                                && y.names.get(0).equalsIgnoreCase(ref.exposedName()) && last(y).equalsIgnoreCase(key);
                    }
                }
            }
            return on ? own(sub, u, ref, inside) : null;
        }

        /**
         * The unqualified names of {@code sub} (to be {@code u}'s columns), or null when it names another
         * table's column (qualified by anything but {@code u} or {@code outer}), a variable, holds a nested
         * subquery, or computes what may differ between backends.
         */
        private Set<String> own(SqlSelect sub, TableRef u, TableRef outer, int[] inside) {
            Set<String> out = new HashSet<>();
            boolean[] refused = {false};
            SqlBasicVisitor<Void> visitor = new SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlIdentifier id) {
                    if (isVariable(id)) {
                        refused[0] = true;
                    } else if (masked(id) || id.isStar()) {
                        return null;
                    } else if (id.names.size() == 2) {
                        String q = id.names.get(0);
                        refused[0] |= !q.equalsIgnoreCase(u.exposedName()) && (outer == null || !q.equalsIgnoreCase(outer.exposedName()));
                    } else if (id.names.size() == 1) {
                        out.add(lower(id.getSimple()));
                    } else {
                        refused[0] = true;
                    }
                    return null;
                }

                @Override
                public Void visit(SqlCall call) {
                    if (call != sub && (call instanceof SqlSelect || call.getKind().belongsTo(SqlKind.QUERY) || call.getKind() == SqlKind.OVER)) {
                        refused[0] = true;
                        return null;
                    }
                    return super.visit(call);
                }
            };
            // not its FROM: the one table there (single) is a name, not a column
            for (SqlNode part : new SqlNode[] {sub.getSelectList(), sub.getWhere(), sub.getGroup(), sub.getHaving()}) {
                if (part != null) {
                    part.accept(visitor);
                }
            }
            return refused[0] || !oneBlock(inside) ? null : out;
        }

        /**
         * The text inside the parentheses around subquery {@code sub} (from its SELECT to before the
         * matching ")"), or null when it has none or they hold more than its one SELECT block.
         */
        private int[] inside(SqlSelect sub) {
            int start = ExpressionSpans.of(parsed, sub).start();
            List<Token> tokens = parsed.tokens;
            for (int i = 1; i < tokens.size(); i++) {
                if (tokens.get(i).start() < start) {
                    continue;
                }
                // Calcite may place a subquery at what precedes its SELECT (EXISTS, its parenthesis)
                while (i + 1 < tokens.size() && (tokens.get(i).kind() == Kind.OPEN || tokens.get(i).is("exists") || tokens.get(i).is("not"))) {
                    i++;
                }
                Token open = tokens.get(i - 1);
                if (!tokens.get(i).is("select") || open.kind() != Kind.OPEN) {
                    return null;
                }
                for (int j = i + 1; j < tokens.size(); j++) {
                    if (tokens.get(j).kind() == Kind.CLOSE && tokens.get(j).depth() == open.depth()) {
                        return j == i + 1 ? null : new int[] {tokens.get(i).start(), tokens.get(j - 1).end()};
                    }
                }
                return null;
            }
            return null;
        }

        /** Only one SELECT block at its own level, and the same value on every backend (aggregates allowed), in [start, end). */
        private boolean oneBlock(int[] span) {
            List<Token> tokens = parsed.tokens;
            int level = -1;
            int selects = 0;
            for (int i = 0; i < tokens.size(); i++) {
                Token t = tokens.get(i);
                if (t.start() < span[0] || t.end() > span[1]) {
                    continue;
                }
                if (level < 0) {
                    level = t.depth();
                }
                if (t.kind() == Kind.VARIABLE) {
                    return false;
                }
                if (t.kind() == Kind.WORD) {
                    String w = t.lower();
                    if (NILADIC.contains(w) || t.depth() == level && NOT_ONE_BLOCK.contains(w) || w.equals("select") && ++selects > 1) {
                        return false;
                    }
                    boolean call = i + 1 < tokens.size() && tokens.get(i + 1).kind() == Kind.OPEN;
                    if (call && !SYNTAX.contains(w) && !DETERMINISTIC.contains(w) && !AGGREGATES.contains(w)) {
                        return false;
                    }
                }
            }
            return selects == 1;
        }

        private static String quote(String name) {
            return '`' + name.replace("`", "``") + '`';
        }

        /**
         * What {@code c} gives {@code ref}: its span when it reads only {@code ref} (as far as the text
         * says), else its OR factoring; a span with unqualified names that is an OR carries its factoring
         * too, for when the live columns attribute some of those names elsewhere.
         */
        private Conjunct pushed(SqlNode c, TableRef ref, boolean plain) {
            Conjunct whole = conjunct(c, ref, plain);
            if (whole != null && whole.unqualified().isEmpty()) {
                return whole;
            }
            Conjunct factored = factored(c, ref, plain);
            if (whole == null || factored == null) {
                return whole == null ? factored : whole;
            }
            return new Conjunct(whole.start(), whole.end(), whole.text(), whole.unqualified(), whole.key(), factored.any());
        }

        /**
         * OR factoring: from {@code a1 AND b1 OR a2 AND b2 ...} (each disjunct split at its ANDs), the
         * condition {@code (a1) OR (a2) ...} of the parts {@code ref} may take alone (a part that is an
         * OR itself factored in turn), or null when some disjunct has none. Exact whatever is NULL: a row
         * makes the OR true only through a disjunct all of whose parts are true, its own parts among them,
         * so a row the derived condition does not make true (false or NULL) never passes the OR.
         */
        private Conjunct factored(SqlNode c, TableRef ref, boolean plain) {
            if (!(c instanceof SqlCall call) || call.getKind() != SqlKind.OR || pipes(c)) {
                return null;
            }
            List<SqlNode> disjuncts = new ArrayList<>();
            disjuncts(call, disjuncts);
            List<List<Conjunct>> branches = new ArrayList<>(disjuncts.size());
            for (SqlNode d : disjuncts) {
                List<SqlNode> parts = new ArrayList<>();
                conjuncts(d, parts);
                List<Conjunct> branch = new ArrayList<>();
                for (SqlNode part : parts) {
                    Conjunct p = pushed(part, ref, plain);
                    if (p != null) {
                        branch.add(p);
                    }
                }
                if (branch.isEmpty()) {
                    return null; // a disjunct that says nothing of ref: any of its rows may pass
                }
                branches.add(branch);
            }
            return Conjunct.anyOf(branches);
        }

        /**
         * Whether {@code node}'s text has a {@code ||}, read as OR here but as concatenation by a
         * backend whose sql_mode has PIPES_AS_CONCAT: then its parts are not what that backend's OR joins.
         */
        private boolean pipes(SqlNode node) {
            SelectShape.Span span = ExpressionSpans.of(parsed, node);
            for (Token t : parsed.tokens) {
                if (t.start() >= span.start() && t.end() <= span.end() && t.kind() == Kind.OPERATOR && t.text().equals("||")) {
                    return true;
                }
            }
            return false;
        }

        private static void disjuncts(SqlNode node, List<SqlNode> out) {
            if (node instanceof SqlCall call && call.getKind() == SqlKind.OR) {
                for (SqlNode operand : call.getOperandList()) {
                    disjuncts(operand, out);
                }
            } else {
                out.add(node);
            }
        }

        /**
         * One condition for a table the statement reads more than once (a self-join, a subquery reading
         * it again: TPC-H Q17, Q22), whose one copy serves every reference: the OR over the references of
         * each one's conjuncts (all of them narrowed, else none), and the join keys every reference has
         * (a row some reference uses has that reference's keys). Only when every reference has the same
         * exposed name, under which the scan reads the table so each conjunct's qualifiers resolve; null
         * when nothing is left.
         */
        private static Table union(String name, List<Table> refs) {
            String exposed = refs.getFirst().exposed();
            boolean narrowed = true;
            List<String> rivals = new ArrayList<>();
            List<List<Conjunct>> branches = new ArrayList<>();
            for (Table t : refs) {
                if (!t.exposed().equals(exposed)) {
                    return nodeUnion(refs);
                }
                narrowed &= !t.conjuncts().isEmpty();
                branches.add(t.conjuncts()); // equal texts may still differ: their ?s take different values
                for (String r : t.rivals()) {
                    if (!rivals.contains(r)) {
                        rivals.add(r);
                    }
                }
            }
            List<List<Conjunct>> distinct = new ArrayList<>();
            for (List<Conjunct> b : branches) {
                if (!distinct.contains(b)) {
                    distinct.add(b);
                }
            }
            List<Conjunct> conjuncts = !narrowed ? List.of() : distinct.size() == 1 ? distinct.getFirst() : List.of(Conjunct.anyOf(distinct));
            List<Key> keys = new ArrayList<>();
            for (Key k : refs.getFirst().keys()) {
                Key merged = k.source().equals(name) ? null : k; // a key from the table itself: its copy is not read first
                for (int i = 1; i < refs.size() && merged != null; i++) {
                    merged = common(merged, refs.get(i).keys());
                }
                if (merged != null && !keys.contains(merged)) {
                    keys.add(merged);
                }
            }
            return conjuncts.isEmpty() && keys.isEmpty() ? null : new Table(exposed, conjuncts, rivals, keys);
        }

        /**
         * {@link #union} of references under different names (TPC-H Q21's {@code lineitem l1}, {@code l2},
         * {@code l3}): only their {@link NodeKeys}, which read no name of the statement's but the key, so
         * one scan under any of the names renders them; null unless every reference has one.
         */
        private static Table nodeUnion(List<Table> refs) {
            List<List<Conjunct>> branches = new ArrayList<>();
            for (Table t : refs) {
                List<Conjunct> nodes = new ArrayList<>();
                for (Conjunct c : t.conjuncts()) {
                    if (c.node() != null && c.unqualified().isEmpty()) {
                        nodes.add(c);
                    }
                }
                if (nodes.isEmpty()) {
                    return null;
                }
                if (!branches.contains(nodes)) {
                    branches.add(nodes);
                }
            }
            Conjunct only = branches.size() == 1 && branches.getFirst().size() == 1 ? branches.getFirst().getFirst() : Conjunct.anyOf(branches);
            return new Table(refs.getFirst().exposed(), List.of(only), List.of(), List.of());
        }

        /**
         * {@code k} as both it and a key of {@code others} on the same columns hold: an unqualified name
         * must then be checked against the rivals of every reference that leaves it unqualified.
         */
        private static Key common(Key k, List<Key> others) {
            for (Key o : others) {
                if (o.column().equals(k.column()) && o.source().equals(k.source()) && o.sourceColumn().equals(k.sourceColumn())) {
                    return new Key(k.column(), k.qualified() && o.qualified(), union(k.qualified() ? List.of() : k.rivals(),
                            o.qualified() ? List.of() : o.rivals()), k.source(), k.sourceColumn(), k.sourceQualified() && o.sourceQualified(),
                            union(k.sourceQualified() ? List.of() : k.sourceRivals(), o.sourceQualified() ? List.of() : o.sourceRivals()));
                }
            }
            return null;
        }

        private static List<String> union(List<String> a, List<String> b) {
            List<String> out = new ArrayList<>(a);
            for (String s : b) {
                if (!out.contains(s)) {
                    out.add(s);
                }
            }
            return out;
        }

        private boolean sharded(TableRef ref) {
            return (ref.schema() == null || ref.schema().equalsIgnoreCase(rule.schema())) && rule.table(ref.name()) instanceof TableRule.Sharded;
        }

        /**
         * The join keys conjunct {@code c} of {@code ref}'s block gives it: {@code a = b} with {@code a}
         * possibly its column and {@code b} possibly another sharded table's of the block (each pair a
         * candidate; attribution at run time keeps the right one), {@code a IN (SELECT b FROM s ...)},
         * {@code EXISTS (SELECT ... FROM s WHERE b = a ...)}. Never under OR or NOT: only a top-level
         * conjunct drops every row it does not match.
         */
        private void keys(SqlNode c, TableRef ref, List<TableRef> refs, List<String> rivals, boolean plain, List<Key> out) {
            if (!(c instanceof SqlCall call)) {
                return;
            }
            switch (call.getKind()) {
                case EQUALS -> {
                    for (int side = 0; side < 2; side++) {
                        SqlIdentifier a = column(call.operand(side));
                        SqlIdentifier b = column(call.operand(1 - side));
                        if (a == null || b == null || !names(a, ref, plain)) {
                            continue;
                        }
                        for (TableRef source : refs) {
                            if (source != ref && sharded(source) && names(b, source, plain)) {
                                List<String> sourceRivals = new ArrayList<>();
                                for (TableRef other : refs) {
                                    if (other != source) {
                                        sourceRivals.add(lower(other.name()));
                                    }
                                }
                                out.add(new Key(lower(last(a)), a.names.size() == 2, rivals, lower(source.name()), lower(last(b)),
                                        b.names.size() == 2, sourceRivals));
                            }
                        }
                    }
                }
                case IN -> {
                    SqlIdentifier a = column(call.operand(0));
                    if (a == null || !names(a, ref, plain) || !(call.operand(1) instanceof SqlSelect sub)) {
                        return;
                    }
                    TableRef source = single(sub);
                    if (source == null || sub.getSelectList().size() != 1) {
                        return;
                    }
                    SqlIdentifier b = column(sub.getSelectList().get(0));
                    if (b != null && names(b, source, true)) {
                        out.add(new Key(lower(last(a)), a.names.size() == 2, rivals, lower(source.name()), lower(last(b)),
                                b.names.size() == 2, List.of()));
                    }
                }
                case EXISTS -> {
                    if (!(unwrap(call.operand(0)) instanceof SqlSelect sub) || single(sub) == null || sub.getWhere() == null) {
                        return;
                    }
                    TableRef source = single(sub);
                    List<SqlNode> inner = new ArrayList<>();
                    conjuncts(sub.getWhere(), inner);
                    for (SqlNode n : inner) {
                        if (!(n instanceof SqlCall eq) || eq.getKind() != SqlKind.EQUALS) {
                            continue;
                        }
                        for (int side = 0; side < 2; side++) {
                            SqlIdentifier a = column(eq.operand(side));
                            SqlIdentifier b = column(eq.operand(1 - side));
                            // the outer column: qualified by the outer name (not shadowed by the inner one), or
                            // unqualified and then no column of the inner table (MySQL resolves innermost first)
                            boolean outer = a != null && (a.names.size() == 2 ? !a.names.get(0).equalsIgnoreCase(source.exposedName())
                                    && names(a, ref, plain) : plain);
                            if (outer && b != null && names(b, source, true)) {
                                List<String> outerRivals = new ArrayList<>(rivals);
                                if (a.names.size() == 1) {
                                    outerRivals.add(lower(source.name()));
                                }
                                out.add(new Key(lower(last(a)), a.names.size() == 2, outerRivals, lower(source.name()), lower(last(b)),
                                        b.names.size() == 2, List.of()));
                            }
                        }
                    }
                }
                default -> { }
            }
        }

        /**
         * The join key a correlated conjunct {@code a = outer.b} of a subquery's block gives its table:
         * whatever the subquery is used for (EXISTS, NOT EXISTS, IN, a scalar, under OR), its value for
         * an outer row depends only on its rows whose {@code a} equals that row's {@code b}, as its WHERE
         * drops the others before anything else; so rows whose {@code a} no row of the outer table's copy
         * has are used nowhere. Only the immediately enclosing block's tables, and only when it has no
         * derived table (its unqualified names must be attributable).
         */
        private void correlated(SqlNode c, TableRef ref, List<TableRef> refs, List<String> rivals, boolean plain, SqlSelect parent,
                                List<Key> out) {
            if (parent == null || !(c instanceof SqlCall call) || call.getKind() != SqlKind.EQUALS) {
                return;
            }
            List<TableRef> outer = new ArrayList<>();
            boolean outerPlain = from(parent.getFrom(), outer, new ArrayList<>(), new ArrayList<>(), true, new IdentityHashMap<>());
            for (int side = 0; side < 2; side++) {
                SqlIdentifier a = column(call.operand(side));
                SqlIdentifier b = column(call.operand(1 - side));
                if (a == null || b == null || !names(a, ref, plain)) {
                    continue;
                }
                boolean shadowed = false;
                for (TableRef inner : refs) {
                    shadowed |= b.names.size() == 2 && b.names.get(0).equalsIgnoreCase(inner.exposedName());
                }
                if (shadowed) {
                    continue;
                }
                for (TableRef source : outer) {
                    if (!sharded(source) || !(b.names.size() == 2 ? b.names.get(0).equalsIgnoreCase(source.exposedName()) : outerPlain && plain)) {
                        continue;
                    }
                    // an unqualified outer name: no table of the subquery's block may have it, nor another of the outer block
                    List<String> sourceRivals = new ArrayList<>();
                    for (TableRef inner : refs) {
                        sourceRivals.add(lower(inner.name()));
                    }
                    for (TableRef other : outer) {
                        if (other != source) {
                            sourceRivals.add(lower(other.name()));
                        }
                    }
                    out.add(new Key(lower(last(a)), a.names.size() == 2, rivals, lower(source.name()), lower(last(b)), b.names.size() == 2,
                            sourceRivals));
                }
            }
        }

        /** The one sharded table a subquery reads, when its FROM is exactly that (no join, no derived table). */
        private TableRef single(SqlSelect sub) {
            SqlNode from = sub.getFrom();
            TableRef t = switch (from) {
                case SqlIdentifier id -> ref(id, null);
                case SqlCall as when as.getKind() == SqlKind.AS && as.operand(0) instanceof SqlIdentifier id
                        && as.operandCount() == 2 -> ref(id, ((SqlIdentifier) as.operand(1)).getSimple());
                case null, default -> null;
            };
            return t != null && sharded(t) ? t : null;
        }

        /** A plain column name (one or two parts, no star, not a variable or masked word). */
        private SqlIdentifier column(SqlNode n) {
            return n instanceof SqlIdentifier id && !id.isStar() && id.names.size() <= 2 && !masked(id) ? id : null;
        }

        /** Whether {@code id} can name a column of {@code ref}: qualified by its exposed name, or unqualified in a block with no derived table. */
        private static boolean names(SqlIdentifier id, TableRef ref, boolean plain) {
            return id.names.size() == 2 ? id.names.get(0).equalsIgnoreCase(ref.exposedName()) : plain;
        }

        private static String last(SqlIdentifier id) {
            return id.names.get(id.names.size() - 1);
        }

        /**
         * A block's FROM tables, the null-supplying ones among them, and the ON conditions of
         * inner joins that no outer join encloses; false when it also holds a derived table (whose
         * columns no catalog lists, so an unqualified name cannot be attributed).
         */
        private static boolean from(SqlNode node, List<TableRef> refs, List<TableRef> nullSupplying, List<SqlNode> conditions, boolean inner,
                                    Map<TableRef, SqlNode> ownOn) {
            switch (node) {
                case null -> {
                    return true;
                }
                case SqlIdentifier id -> {
                    refs.add(ref(id, null));
                    return true;
                }
                case SqlJoin join -> {
                    JoinType type = join.getJoinType();
                    boolean innerJoin = type == JoinType.INNER || type == JoinType.COMMA || type == JoinType.CROSS;
                    int leftStart = refs.size();
                    boolean plain = from(join.getLeft(), refs, nullSupplying, conditions, inner, ownOn);
                    int rightStart = refs.size();
                    plain &= from(join.getRight(), refs, nullSupplying, conditions, inner && innerJoin, ownOn);
                    if (type == JoinType.LEFT || type == JoinType.FULL) {
                        nullSupplying.addAll(refs.subList(rightStart, refs.size()));
                    }
                    if (type == JoinType.RIGHT || type == JoinType.FULL) {
                        nullSupplying.addAll(refs.subList(leftStart, rightStart));
                    }
                    // the one table on the null-supplying side of a LEFT (RIGHT) join: its rows failing
                    // the ON match nothing, so the ON's conjuncts filter its copy exactly
                    boolean on = join.getCondition() != null && !(join.getCondition() instanceof SqlNodeList);
                    if (on && type == JoinType.LEFT && refs.size() == rightStart + 1 && plainTable(join.getRight())) {
                        ownOn.put(refs.get(rightStart), join.getCondition());
                    }
                    if (on && type == JoinType.RIGHT && rightStart == leftStart + 1 && plainTable(join.getLeft())) {
                        ownOn.put(refs.get(leftStart), join.getCondition());
                    }
                    if (inner && innerJoin && join.getCondition() != null && !(join.getCondition() instanceof SqlNodeList)) {
                        conditions.add(join.getCondition());
                    }
                    return plain;
                }
                case SqlCall call when call.getKind() == SqlKind.AS && call.operand(0) instanceof SqlIdentifier id -> {
                    refs.add(ref(id, ((SqlIdentifier) call.operand(1)).getSimple()));
                    return true;
                }
                default -> {
                    return false;
                }
            }
        }

        private static boolean plainTable(SqlNode n) {
            return n instanceof SqlIdentifier || n instanceof SqlCall call && call.getKind() == SqlKind.AS && call.operand(0) instanceof SqlIdentifier;
        }

        private static TableRef ref(SqlIdentifier id, String alias) {
            return new TableRef(id.names.get(id.names.size() - 1), id.names.size() > 1 ? id.names.get(id.names.size() - 2) : null, alias);
        }

        private static void conjuncts(SqlNode node, List<SqlNode> out) {
            if (node instanceof SqlCall call && call.getKind() == SqlKind.AND) {
                for (SqlNode operand : call.getOperandList()) {
                    conjuncts(operand, out);
                }
            } else if (node != null) {
                out.add(node);
            }
        }

        /** The conjunct as one {@code ref} may take, or null when it reads anything else or is not the same everywhere. */
        private Conjunct conjunct(SqlNode node, TableRef ref, boolean plain) {
            Set<String> unqualified = new HashSet<>();
            boolean[] refused = {false};
            int[] columns = {0};
            int[] maskedEnd = {-1};
            node.accept(new SqlBasicVisitor<Void>() {
                @Override
                public Void visit(SqlIdentifier id) {
                    if (isVariable(id)) {
                        refused[0] = true;
                    } else if (masked(id)) {
                        // INTERVAL n unit, read by Calcite as one name whose position ends where it starts
                        int end = intervalEnd(parsed.start(id));
                        refused[0] |= end < 0;
                        maskedEnd[0] = Math.max(maskedEnd[0], end);
                        return null;
                    } else if (id.isStar() || id.names.size() > 2) {
                        refused[0] = true;
                    } else if (id.names.size() == 2) {
                        if (!id.names.get(0).equalsIgnoreCase(ref.exposedName())) {
                            refused[0] = true;
                        }
                        columns[0]++;
                    } else {
                        unqualified.add(lower(id.getSimple()));
                        columns[0]++;
                    }
                    return null;
                }

                @Override
                public Void visit(SqlCall call) {
                    if (call instanceof SqlSelect || call.getKind().belongsTo(SqlKind.QUERY) || call.getKind() == SqlKind.EXISTS
                            || call.getKind() == SqlKind.OVER || call.getKind() == SqlKind.ORDER_BY || call.getKind() == SqlKind.WITH) {
                        refused[0] = true;
                        return null;
                    }
                    return super.visit(call);
                }
            });
            if (refused[0] || columns[0] == 0 || !unqualified.isEmpty() && !plain) {
                return null;
            }
            SelectShape.Span span = ExpressionSpans.of(parsed, node);
            int[] balanced = balance(span.start(), Math.max(span.end(), maskedEnd[0]));
            if (balanced == null || !deterministic(balanced[0], balanced[1])) {
                return null;
            }
            ConditionExtractor keys = new ConditionExtractor(parsed, rule, List.of(ref));
            KeyCondition key = keys.extract(List.of(node)).getOrDefault(ref, KeyCondition.ANY);
            return new Conjunct(balanced[0], balanced[1], parsed.sql.substring(balanced[0], balanced[1]), unqualified, key);
        }

        /**
         * The span widened over parentheses Calcite's positions leave out ({@code (a) = 1} starts at
         * {@code a}), or null when it cannot be made balanced.
         */
        private int[] balance(int start, int end) {
            List<Token> tokens = parsed.tokens;
            int first = -1;
            int last = -1;
            for (int i = 0; i < tokens.size(); i++) {
                Token t = tokens.get(i);
                if (t.kind() == Kind.COMMENT) {
                    continue;
                }
                if (t.start() >= start && t.end() <= end) {
                    if (first < 0) {
                        first = i;
                    }
                    last = i;
                }
            }
            if (first < 0) {
                return null;
            }
            int depth = 0;
            int lowest = 0;
            for (int i = first; i <= last; i++) {
                Kind k = tokens.get(i).kind();
                depth += k == Kind.OPEN ? 1 : k == Kind.CLOSE ? -1 : 0;
                lowest = Math.min(lowest, depth);
            }
            int opens = -lowest; // closes with no open inside: take that many "(" before
            int closes = depth - lowest; // opens left unclosed: take that many ")" after
            while (opens > 0 && first > 0 && tokens.get(first - 1).kind() == Kind.OPEN) {
                first--;
                opens--;
            }
            while (closes > 0 && last + 1 < tokens.size() && tokens.get(last + 1).kind() == Kind.CLOSE) {
                last++;
                closes--;
            }
            return opens == 0 && closes == 0 ? new int[] {tokens.get(first).start(), tokens.get(last).end()} : null;
        }

        /** No variable, no clock or session word, no call but the known deterministic ones, in [start, end). */
        private boolean deterministic(int start, int end) {
            List<Token> tokens = parsed.tokens;
            for (int i = 0; i < tokens.size(); i++) {
                Token t = tokens.get(i);
                if (t.start() < start || t.end() > end) {
                    continue;
                }
                if (t.kind() == Kind.VARIABLE) {
                    return false;
                }
                if (t.kind() == Kind.WORD) {
                    String w = t.lower();
                    if (NILADIC.contains(w) || w.equals("select")) {
                        return false;
                    }
                    boolean call = i + 1 < tokens.size() && tokens.get(i + 1).kind() == Kind.OPEN;
                    if (call && !SYNTAX.contains(w) && !DETERMINISTIC.contains(w)) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** A name masking put where the text has none (INTERVAL n unit, a variable). */
        private boolean masked(SqlIdentifier id) {
            Token t = tokenAt(parsed.start(id));
            return t == null || t.kind() == Kind.VARIABLE || t.is("interval");
        }

        private boolean isVariable(SqlIdentifier id) {
            Token t = tokenAt(parsed.start(id));
            return t == null || t.kind() == Kind.VARIABLE;
        }

        /** The end of {@code INTERVAL n unit} starting at {@code offset} (masking covers those three tokens). */
        private int intervalEnd(int offset) {
            List<Token> tokens = parsed.tokens;
            for (int i = 0; i + 2 < tokens.size(); i++) {
                if (tokens.get(i).start() == offset) {
                    return tokens.get(i + 2).end();
                }
            }
            return -1;
        }

        private Token tokenAt(int offset) {
            for (Token t : parsed.tokens) {
                if (t.start() == offset) {
                    return t;
                }
            }
            return null;
        }
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
