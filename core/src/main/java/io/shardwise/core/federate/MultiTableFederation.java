package io.shardwise.core.federate;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.MultiTable;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.analyze.Update;

/**
 * The third tier's decision for an UPDATE or DELETE: a one-table write's is {@link FederatedWrite#plan}'s; a
 * multi-table write ({@code UPDATE a JOIN b … SET a.x = …}, {@code DELETE a FROM a JOIN b …}) whose rows do not
 * meet on one node becomes the same plan, its one target written node by node and every other table of its
 * FROM and subqueries read from a copy (or in place: broadcast tables, single tables of the site), exactly as a
 * subquery's tables are. MySQL joins the target's rows of each node with whole tables there, so each target row
 * is matched, changed and counted once.
 *
 * <p>Declined (the router's 1235 stands): several targets (each would need the others' rows changed on the
 * same copies: the session's {@code MultiTargetWrites} splits those), targets only the backend resolves (an
 * unqualified SET column, resolved there too). A target joined with itself reads its other references from a copy
 * taken before the write: MySQL and MariaDB read a self-join's rows as they were before the statement, in every
 * join order (a multi-table UPDATE of a table it also reads changes it through a temporary table, after the
 * join), so the copy holds what they read; the copy's name replaces the other references' name slots, found by
 * where each reference stands in the text, wherever the target stands in its FROM.
 */
public final class MultiTableFederation {
    private MultiTableFederation() {}

    public static Federation.Decision plan(Statement statement, ShardingRule rule) {
        return plan(statement, rule, false);
    }

    /**
     * The plan of a key move's in-place step of a multi-table UPDATE ({@link FederatedWrite#planInPlace}): it may assign the
     * target's sharding column, as the rows it changes are moved afterwards by what they then hold.
     */
    public static Federation.Decision planInPlace(Statement statement, ShardingRule rule) {
        return plan(statement, rule, true);
    }

    private static Federation.Decision plan(Statement statement, ShardingRule rule, boolean moves) {
        MultiTable multi = switch (statement) {
            case Update u -> u.multi();
            case Delete d -> d.multi();
            default -> null;
        };
        if (multi == null) {
            return moves ? FederatedWrite.planInPlace(statement, rule) : FederatedWrite.plan(statement, rule);
        }
        if (!multi.targetsKnown()) {
            return new Federation.Declined("a multi-table write whose targets only the backend resolves (an unqualified SET column)");
        }
        if (multi.targets().size() != 1) {
            return new Federation.Declined("a multi-table write to several tables");
        }
        // FederatedWrite reads every table after the first (the target) as a copy; its "subquery" flag is the join here
        Statement asNested = switch (statement) {
            case Update u -> new Update(u.template(), u.tables(), u.conditions(), u.assigned(), u.limited(), true, null, multi);
            case Delete d -> new Delete(d.template(), d.tables(), d.conditions(), d.limited(), true, null, multi);
            default -> statement;
        };
        Federation.Decision decision = moves ? FederatedWrite.planInPlace(asNested, rule) : FederatedWrite.plan(asNested, rule);
        if (!(decision instanceof FederatedWrite w)) {
            return decision;
        }
        // only subqueries force this tier on a write the router sends to one node; the FROM's tables are the router's to co-locate
        boolean readsShards = false;
        for (TableRef t : statement.tables()) {
            readsShards |= !contains(multi, t) && rule.logicalTables().served(t.name()) instanceof TableRule.Sharded;
        }
        return new FederatedWrite(w.target(), w.targetRule(), w.condition(), w.limited(), w.sites(), w.selfReads(), readsShards);
    }

    private static boolean contains(MultiTable multi, TableRef t) {
        for (TableRef top : multi.top()) {
            if (top == t) {
                return true;
            }
        }
        return false;
    }
}
