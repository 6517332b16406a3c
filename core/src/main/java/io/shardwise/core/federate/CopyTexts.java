package io.shardwise.core.federate;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;

/**
 * The SQL the coordinator runs to make and fill a {@link FederatedPlan.Copy}. Names are quoted with
 * backticks (a table may be named by a keyword); every statement touches only the temporary table,
 * so a failed statement leaves nothing a later one can read by mistake ({@link #drop} runs first).
 */
public final class CopyTexts {
    private CopyTexts() {}

    /** Removes a copy a failed earlier statement left on this connection. */
    public static String drop(FederatedPlan.Copy c) {
        return "DROP TEMPORARY TABLE IF EXISTS " + quote(c.temp());
    }

    /** LIKE keeps each column's type, length, collation and the indexes the coordinator's joins use. */
    public static String create(FederatedPlan.Copy c) {
        return "CREATE TEMPORARY TABLE " + quote(c.temp()) + " LIKE " + quote(c.like());
    }

    /** A node's definition, for a copy with no node on the coordinator ({@link FederatedPlan.Copy#definition}). */
    public static String showCreate(DataNode node) {
        return "SHOW CREATE TABLE " + quote(node.table());
    }

    /**
     * The copy made from {@code definition}, the text {@link #showCreate} returned for its node: the same
     * columns, types, collations, keys and table options as {@code LIKE} would give, under the copy's
     * name as a temporary table. Foreign keys are left out, as {@code LIKE} leaves them (they would name
     * tables of the node's backend), and so is partitioning (a temporary table cannot be partitioned).
     *
     * @throws ShardwiseException 1235 when the node is not a base table (a view, a sequence)
     */
    public static String createFrom(FederatedPlan.Copy c, String definition) {
        String head = "CREATE TABLE ";
        if (!definition.startsWith(head)) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a federated copy of " + c.definition() + ", which is not a base table");
        }
        int at = head.length();
        int nameEnd;
        if (definition.charAt(at) == '`') {
            nameEnd = at + 1;
            while (nameEnd < definition.length()) {
                if (definition.charAt(nameEnd) == '`') {
                    if (nameEnd + 1 < definition.length() && definition.charAt(nameEnd + 1) == '`') {
                        nameEnd += 2;
                        continue;
                    }
                    break;
                }
                nameEnd++;
            }
            nameEnd++;
        } else {
            nameEnd = at;
            while (nameEnd < definition.length() && !Character.isWhitespace(definition.charAt(nameEnd)) && definition.charAt(nameEnd) != '(') {
                nameEnd++;
            }
        }
        String body = PARTITIONING.matcher(definition.substring(nameEnd)).replaceFirst("");
        StringBuilder sb = new StringBuilder(definition.length() + 16).append("CREATE TEMPORARY TABLE ").append(quote(c.temp()));
        String[] lines = body.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (FOREIGN_KEY.matcher(line).find()) {
                continue;
            }
            if (i + 1 < lines.length && closes(lines, i + 1) && line.endsWith(",")) {
                line = line.substring(0, line.length() - 1); // the last column or key now: no comma after it
            }
            sb.append(i == 0 ? "" : "\n").append(line);
        }
        return sb.toString();
    }

    /** Whether the definition's lines from {@code from} on are foreign keys, then the closing parenthesis. */
    private static boolean closes(String[] lines, int from) {
        for (int i = from; i < lines.length; i++) {
            if (!FOREIGN_KEY.matcher(lines[i]).find()) {
                return lines[i].startsWith(")");
            }
        }
        return false;
    }

    private static final java.util.regex.Pattern FOREIGN_KEY =
            java.util.regex.Pattern.compile("^\\s*(CONSTRAINT\\s+(`[^`]*`|\\S+)\\s+)?FOREIGN KEY\\b");
    private static final java.util.regex.Pattern PARTITIONING =
            java.util.regex.Pattern.compile("\\n\\s*(/\\*!\\d+\\s*)?PARTITION BY[\\s\\S]*$");

    /** A node on the coordinator itself: copied there, no row through Shardwise. */
    public static String copyLocal(FederatedPlan.Copy c, String node) {
        return "INSERT INTO " + quote(c.temp()) + " SELECT * FROM " + quote(node);
    }

    /** A remote node's scan. */
    public static String scan(String node) {
        return "SELECT * FROM " + quote(node);
    }

    /** The head of the INSERT batches that fill a copy with shipped rows (their VALUES as {@code InsertBatches} writes them). */
    public static String insertHead(FederatedPlan.Copy c) {
        return "INSERT INTO " + quote(c.temp());
    }

    /**
     * The copy's table: LIKE its node when it keeps every column; else only the kept columns, each
     * defined as the catalog defines it (type, character set, collation, nullability), with the
     * node's indexes over them (an index is cut before its first column left out, and then no longer
     * unique). Not {@code LIKE} and then {@code ALTER TABLE ... DROP COLUMN}: ALTER TABLE commits the
     * session's transaction, even on a temporary table. {@link CopyScans} says why not a CREATE ... SELECT.
     */
    public static String create(CopyScans.Bound b) {
        if (b.columns() == null) {
            return create(b.copy());
        }
        java.util.Set<String> kept = new java.util.HashSet<>();
        for (String c : b.columns()) {
            kept.add(c.toLowerCase(java.util.Locale.ROOT));
        }
        StringBuilder sb = new StringBuilder("CREATE TEMPORARY TABLE ").append(quote(b.copy().temp())).append(" (");
        String sep = "";
        for (CopyScans.Column c : b.definition().columns()) {
            if (!kept.contains(c.name().toLowerCase(java.util.Locale.ROOT))) {
                continue;
            }
            sb.append(sep).append(quote(c.name())).append(' ').append(c.type());
            if (c.charset() != null) {
                sb.append(" CHARACTER SET ").append(c.charset());
            }
            if (c.collation() != null) {
                sb.append(" COLLATE ").append(c.collation());
            }
            sb.append(c.nullable() ? " NULL" : " NOT NULL");
            if (c.autoIncrement() && leadsKeptIndex(b.definition(), c.name(), kept)) {
                sb.append(" AUTO_INCREMENT"); // as LIKE keeps it: a result column read from the copy carries the flag
            }
            sep = ", ";
        }
        for (CopyScans.Index i : b.definition().indexes()) {
            int n = 0;
            while (n < i.columns().size() && kept.contains(i.columns().get(n).toLowerCase(java.util.Locale.ROOT))) {
                n++;
            }
            if (n == 0) {
                continue;
            }
            boolean whole = n == i.columns().size();
            // named as on the node: an index hint of the statement names it
            sb.append(sep).append(whole && i.name().equals("PRIMARY") ? "PRIMARY KEY (" : (whole && i.unique() ? "UNIQUE KEY " : "KEY ")
                    + quote(i.name()) + " (");
            for (int k = 0; k < n; k++) {
                sb.append(k == 0 ? "" : ", ").append(quote(i.columns().get(k)));
                if (i.prefixes().get(k) != null) {
                    sb.append('(').append(i.prefixes().get(k)).append(')');
                }
            }
            sb.append(')');
        }
        return sb.append(')').toString();
    }

    /** Whether {@code column} is the first column of an index the copy keeps (MySQL's condition for AUTO_INCREMENT). */
    private static boolean leadsKeptIndex(CopyScans.Columns definition, String column, java.util.Set<String> kept) {
        for (CopyScans.Index i : definition.indexes()) {
            String first = i.columns().getFirst();
            if (first.equalsIgnoreCase(column) && kept.contains(first.toLowerCase(java.util.Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A node on the coordinator itself, copied there: the kept columns of the rows {@code where} (the
     * pushed conjuncts as rendered, or null) keeps.
     */
    public static String copyLocal(CopyScans.Bound b, String node, String where) {
        return "INSERT INTO " + quote(b.copy().temp()) + columnList(b) + " " + read(b, node, where);
    }

    /** A remote node's scan: what it ships. */
    public static String scan(CopyScans.Bound b, String node, String where) {
        return read(b, node, where);
    }

    /** The head of the INSERT batches of shipped rows, naming the kept columns. */
    public static String insertHead(CopyScans.Bound b) {
        return "INSERT INTO " + quote(b.copy().temp()) + columnList(b);
    }

    private static String read(CopyScans.Bound b, String node, String where) {
        StringBuilder sb = new StringBuilder("SELECT ");
        if (b.columns() == null) {
            sb.append('*');
        } else {
            columns(sb, b.columns());
        }
        sb.append(" FROM ").append(quote(node));
        if (where != null) {
            // read under the statement's own name for the table: the conjuncts' qualifiers are the user's
            sb.append(" AS ").append(quote(b.copy().push().exposed())).append(" WHERE ").append(where);
        }
        return sb.toString();
    }

    private static String columnList(CopyScans.Bound b) {
        if (b.columns() == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(" (");
        columns(sb, b.columns());
        return sb.append(')').toString();
    }

    private static void columns(StringBuilder sb, java.util.List<String> columns) {
        for (int i = 0; i < columns.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(quote(columns.get(i)));
        }
    }

    /**
     * Whether the copy may have an AUTO_INCREMENT column (its node's catalog says so, or is unknown):
     * only then does its INSERT need {@link #keepingZeros}.
     */
    public static boolean mayAutoIncrement(CopyScans.Bound b) {
        if (b.own() == null) {
            return true; // defined by SHOW CREATE TABLE, or the catalog unread
        }
        for (CopyScans.Column c : b.own().columns()) {
            if (c.autoIncrement()) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code insert} (a copy's INSERT: {@link #copyLocal}, {@link #insertHead}) run under the session's
     * sql_mode plus NO_AUTO_VALUE_ON_ZERO for that one statement. A copy keeps its node's AUTO_INCREMENT
     * (LIKE, {@link #create(CopyScans.Bound)}), so without it a node's row whose key is 0 (legal under
     * that mode, which mysqldump files set) would be renumbered in the copy and the statement answer
     * another id than one database. Per statement, not SET: nothing of the pooled connection's session
     * state changes, even when the INSERT fails. MariaDB: {@code SET STATEMENT ... FOR}, which reads
     * the connection's own mode; MySQL 8: the SET_VAR hint, whose value must be a literal, so
     * {@code sqlMode} (the session's mode as the engine knows it, or null: left as it is). Not instead a
     * copy without AUTO_INCREMENT: result columns read from the copy carry the flag, as one database's do.
     */
    public static String keepingZeros(String insert, boolean mariaDb, String sqlMode) {
        if (mariaDb) {
            return "SET STATEMENT sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO') FOR " + insert;
        }
        if (sqlMode == null || sqlMode.indexOf('\'') >= 0) {
            return insert;
        }
        String mode = sqlMode.isEmpty() ? "NO_AUTO_VALUE_ON_ZERO" : sqlMode + ",NO_AUTO_VALUE_ON_ZERO";
        return "INSERT /*+ SET_VAR(sql_mode = '" + mode + "') */" + insert.substring("INSERT".length());
    }

    public static String quote(String name) {
        return '`' + name.replace("`", "``") + '`';
    }
}
