package io.shardwise.core.federate;

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

    static String quote(String name) {
        return '`' + name.replace("`", "``") + '`';
    }
}
