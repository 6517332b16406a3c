package io.shardwise.core.rule;

/**
 * Makes values for a key column that an INSERT leaves out. Thread-safe; values never repeat within
 * one generator (and, for snowflake, across processes with distinct worker ids).
 */
public interface KeyGenerator {
    /** The next key: a {@code Long} (snowflake) or a {@code String} (uuid). */
    Object next();
}
