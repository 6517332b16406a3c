package io.shardwise.core.sql.analyze;

/**
 * A table as a statement names it: the name (without schema), the schema qualifier as written (or
 * null), and the alias (or null). Identity matters: two references to one table are two TableRefs.
 */
public record TableRef(String name, String schema, String alias) {
    /** The name other parts of the statement use for it: the alias, else the name. */
    public String exposedName() {
        return alias != null ? alias : name;
    }

    @Override
    public String toString() {
        return (schema == null ? "" : schema + ".") + name + (alias == null ? "" : " " + alias);
    }
}
