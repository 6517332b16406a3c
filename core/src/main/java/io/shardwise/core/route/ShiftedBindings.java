package io.shardwise.core.route;

/**
 * A statement's values seen from a statement made of its tail: ordinal {@code i} here is ordinal
 * {@code i + shift} of {@code base} (the SELECT that chooses an UPDATE's rows binds the UPDATE's
 * {@code ?} of its WHERE, ORDER BY and LIMIT, not those of its SET).
 */
record ShiftedBindings(Bindings base, int shift) implements Bindings {
    @Override
    public int size() {
        return base.size() - shift;
    }

    @Override
    public Object value(int ordinal) {
        return base.value(ordinal + shift);
    }

    @Override
    public String text(int ordinal) {
        return base.text(ordinal + shift);
    }

    @Override
    public boolean inline(int ordinal) {
        return base.inline(ordinal + shift);
    }
}
