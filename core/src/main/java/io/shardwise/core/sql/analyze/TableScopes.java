package io.shardwise.core.sql.analyze;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Which query blocks of a statement give a table name its meaning, read from the analyzer's Calcite
 * parse: a qualifier {@code t.c} means the {@code t} of the innermost enclosing SELECT whose FROM
 * exposes {@code t} (a table named so without an alias, or anything aliased so), and only where no
 * such SELECT encloses it the statement's own target. MySQL resolves qualifiers so; a federated
 * write needs it to tell a subquery's reference to its target table from the target itself when
 * both go by the same name.
 */
public final class TableScopes {
    private TableScopes() {}

    /**
     * The spans [start, end) of {@code template}'s text of every SELECT whose FROM exposes {@code name}
     * (case-insensitive); null when the text cannot be read again (it parsed when analyzed).
     */
    public static List<int[]> exposing(SqlTemplate template, String name) {
        String sql = template.text();
        ParsedText parsed;
        try {
            parsed = ParsedText.parse(sql, DigestScanner.scan(sql));
        } catch (Exception e) {
            return null;
        }
        List<int[]> out = new ArrayList<>();
        parsed.node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect s && exposes(s.getFrom(), name)) {
                    out.add(new int[] {parsed.start(s), parsed.end(s.getParserPosition())});
                }
                return super.visit(call);
            }
        });
        return out;
    }

    /** Whether {@code from} (not inside its derived tables, which are blocks of their own) exposes {@code name}. */
    private static boolean exposes(SqlNode from, String name) {
        return switch (from) {
            case null -> false;
            case SqlIdentifier id -> id.names.get(id.names.size() - 1).equalsIgnoreCase(name);
            case SqlJoin j -> exposes(j.getLeft(), name) || exposes(j.getRight(), name);
            case SqlCall call when call.getKind() == SqlKind.AS -> ((SqlIdentifier) call.operand(1)).getSimple().equalsIgnoreCase(name);
            default -> false;
        };
    }

    /** Whether offset {@code at} lies in one of {@code spans}. */
    public static boolean within(List<int[]> spans, int at) {
        for (int[] span : spans) {
            if (at >= span[0] && at < span[1]) {
                return true;
            }
        }
        return false;
    }
}
