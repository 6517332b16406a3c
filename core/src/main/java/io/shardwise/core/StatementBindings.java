package io.shardwise.core;

import io.shardwise.core.route.Bindings;
import io.shardwise.core.sql.normalize.Literal;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.List;

/**
 * One execution's values behind a digest's {@code ?}s: the statement's literals (routed by value,
 * kept as the user's text) interleaved with prepared-statement parameters (bound as values).
 */
public final class StatementBindings implements Bindings {
    private final List<Literal> literals;
    private final List<Object> params;
    private final boolean hasParameters;

    public StatementBindings(NormalizedSql statement, List<Object> params) {
        this.literals = statement.literals();
        this.params = params;
        this.hasParameters = statement.parameterCount() > 0;
    }

    @Override
    public boolean hasParameters() {
        return hasParameters;
    }

    @Override
    public int size() {
        return literals.size();
    }

    @Override
    public Object value(int ordinal) {
        Literal l = literals.get(ordinal);
        return l.isParameter() ? param(l.paramIndex()) : l.value();
    }

    @Override
    public String text(int ordinal) {
        Literal l = literals.get(ordinal);
        return l.isParameter() ? null : l.text();
    }

    @Override
    public boolean inline(int ordinal) {
        return !literals.get(ordinal).isParameter();
    }

    private Object param(int index) {
        if (index >= params.size()) {
            throw new io.shardwise.core.error.ShardwiseException(io.shardwise.core.error.ErrorCode.BUG,
                    "statement has more ? markers than the " + params.size() + " parameters given");
        }
        return params.get(index);
    }
}
