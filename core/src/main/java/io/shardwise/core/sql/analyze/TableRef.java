package io.shardwise.core.sql.analyze;

import java.util.Objects;

/**
 * A table as a statement names it: the name (without schema), the schema qualifier as written (or
 * null), and the alias (or null). Identity matters: two references to one table are two TableRefs.
 *
 * <p>{@code at} is where the reference's name starts in the statement's text (its table slot's start), or -1
 * where the analyzer did not read it from a parse (a reference it made up, an INSERT's target): the one way to
 * tell apart references that agree in name and alias, as a self-join's copy needs ({@code FederatedWrite}). It
 * takes no part in equality, which stays the reference as written.
 */
public record TableRef(String name, String schema, String alias, int at) {
    public TableRef(String name, String schema, String alias) {
        this(name, schema, alias, -1);
    }

    /** The name other parts of the statement use for it: the alias, else the name. */
    public String exposedName() {
        return alias != null ? alias : name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableRef t && Objects.equals(name, t.name) && Objects.equals(schema, t.schema)
                && Objects.equals(alias, t.alias);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, schema, alias);
    }

    @Override
    public String toString() {
        return (schema == null ? "" : schema + ".") + name + (alias == null ? "" : " " + alias);
    }
}
