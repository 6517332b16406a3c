package io.shardwise.core.sql.analyze;

/**
 * A place in a statement's text that changes per execution or per node: the rewriter copies the
 * text between slots and renders each slot. Offsets are into {@link SqlTemplate#text()}, end
 * exclusive; slots never overlap.
 */
public sealed interface Slot extends Comparable<Slot> {
    int start();

    int end();

    @Override
    default int compareTo(Slot other) {
        return Integer.compare(start(), other.start());
    }

    /** A {@code ?}: the literal's text (text statements) or a {@code ?} bound to the parameter. */
    record Param(int start, int end, int index) implements Slot {}

    /** A logical table name (with its schema qualifier, if any): the physical name on each node. */
    record Table(int start, int end, String table) implements Slot {}
}
