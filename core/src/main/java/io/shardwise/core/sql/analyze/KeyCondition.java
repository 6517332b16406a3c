package io.shardwise.core.sql.analyze;

import java.util.List;

/**
 * What a statement's WHERE (and join) conditions say about one table's sharding key; the router
 * turns it into a set of nodes. Conditions that say nothing about the key are {@link Any}.
 */
public sealed interface KeyCondition {
    /** Nothing narrows the key: every node. */
    record Any() implements KeyCondition {
        @Override
        public String toString() {
            return "any";
        }
    }

    /** key = value; {@code nullSafe} for {@code <=>}, which also matches NULL to NULL. */
    record Eq(ValueRef value, boolean nullSafe) implements KeyCondition {
        @Override
        public String toString() {
            return (nullSafe ? "<=> " : "= ") + value;
        }
    }

    record In(List<ValueRef> values) implements KeyCondition {
        public In {
            values = List.copyOf(values);
        }

        @Override
        public String toString() {
            return "in " + values;
        }
    }

    /** A range; a null bound is open on that side. */
    record Range(ValueRef lower, boolean lowerInclusive, ValueRef upper, boolean upperInclusive) implements KeyCondition {
        @Override
        public String toString() {
            return (lower == null ? "(-inf" : (lowerInclusive ? "[" : "(") + lower) + ", "
                    + (upper == null ? "+inf)" : upper + (upperInclusive ? "]" : ")"));
        }
    }

    /** key IS NULL: no node holds a NULL key (rows need a key to be placed). */
    record IsNull() implements KeyCondition {
        @Override
        public String toString() {
            return "is null";
        }
    }

    record And(List<KeyCondition> operands) implements KeyCondition {
        public And {
            operands = List.copyOf(operands);
        }

        @Override
        public String toString() {
            return "and" + operands;
        }
    }

    record Or(List<KeyCondition> operands) implements KeyCondition {
        public Or {
            operands = List.copyOf(operands);
        }

        @Override
        public String toString() {
            return "or" + operands;
        }
    }

    KeyCondition ANY = new Any();
}
