package io.shardwise.core.route;

/**
 * The values of one execution for a statement's {@code ?} numbers: literals of a text statement
 * (value for routing, original text for the SQL sent on) and parameters of a prepared statement
 * (value for routing and for binding; no text, so the SQL keeps a {@code ?}).
 */
public interface Bindings {
    Bindings NONE = new Bindings() {
        @Override
        public int size() {
            return 0;
        }

        @Override
        public Object value(int ordinal) {
            throw new IndexOutOfBoundsException(ordinal);
        }

        @Override
        public String text(int ordinal) {
            throw new IndexOutOfBoundsException(ordinal);
        }
    };

    int size();

    /** The value for routing: null, Long, BigInteger, BigDecimal, Double, String, byte[], java.time values. */
    Object value(int ordinal);

    /** The literal's text to put back in the SQL, or null for a prepared-statement parameter. */
    String text(int ordinal);

    /**
     * Whether the value is inline in the statement's text ({@link #text} is not null), without
     * building that text: a render that copies the user's text unchanged asks only this.
     */
    default boolean inline(int ordinal) {
        return text(ordinal) != null;
    }

    /**
     * Whether any value is a prepared-statement parameter: then these are a prepared statement's
     * values, and its text (inline literals included) is the same at every execution.
     */
    default boolean hasParameters() {
        for (int i = 0; i < size(); i++) {
            if (!inline(i)) {
                return true;
            }
        }
        return false;
    }
}
