package io.shardwise.core.sql.analyze;

/**
 * A value a statement compares a column with or inserts: the digest's {@code ?} number
 * {@code index} (a literal of a text statement or a parameter of a prepared one, bound per
 * execution), or a constant the digest spells out (NULL, TRUE, FALSE).
 */
public sealed interface ValueRef permits ValueRef.Param, ValueRef.Const {
    record Param(int index) implements ValueRef {
        public Param {
            if (index < 0) {
                throw new IllegalArgumentException("parameter index " + index);
            }
        }

        @Override
        public String toString() {
            return "?" + index;
        }
    }

    record Const(Object value) implements ValueRef {
        @Override
        public String toString() {
            return String.valueOf(value);
        }
    }
}
