package io.shardwise.jdbc;

import com.mysql.cj.exceptions.MysqlErrorNumbers;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.execute.Diagnostics;
import java.sql.SQLWarning;

/**
 * The last statement's diagnostics as the {@link SQLWarning} chain Connector/J builds from SHOW
 * WARNINGS ({@code NativeProtocol.convertShowWarningsToSQLWarnings}): message as the server wrote
 * it, SQLSTATE mapped from the code, the code as vendor code (plain SQLWarnings: Connector/J makes
 * DataTruncations only when it reads warnings for jdbcCompliantTruncation). The statement's own
 * error is not in the chain: the client got it as the exception.
 */
final class Warnings {
    private Warnings() {}

    /** The chain, or null when the statement raised no note or warning. */
    static SQLWarning chain(Diagnostics diagnostics) {
        if (diagnostics.warningCount() == 0) {
            return null; // as Connector/J: no SHOW WARNINGS when the count is 0
        }
        SQLWarning first = null;
        for (Condition c : diagnostics.conditions()) {
            if (c.level() == Condition.Level.ERROR) {
                continue;
            }
            SQLWarning w = new SQLWarning(c.message(), MysqlErrorNumbers.mysqlToSqlstate(c.code()), c.code());
            if (first == null) {
                first = w;
            } else {
                first.setNextWarning(w);
            }
        }
        return first;
    }
}
