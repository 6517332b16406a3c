package io.shardwise.core.sql.analyze;

/**
 * The SELECT of an INSERT ... SELECT that names sharded or broadcast tables: {@code select} is its
 * own analyzed statement (answered as any SELECT: one node or merged across nodes), its {@code ?}
 * are the INSERT's from {@code firstParam} on, and it starts at {@code start} of the INSERT's digest;
 * {@code ignore}: INSERT IGNORE (duplicates are skipped, and counted in the OK packet's info);
 * {@code update}: where its ON DUPLICATE KEY UPDATE starts in the digest (after the SELECT), or -1.
 * The session inserts its rows as INSERT ... VALUES batches, each routed by the target's rule.
 */
public record InsertSource(Select select, int firstParam, int start, boolean ignore, int update) {}
