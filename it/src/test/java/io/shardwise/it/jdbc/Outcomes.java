package io.shardwise.it.jdbc;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** What a JDBC call produced, as comparable text: the value and its class, or the error's SQLSTATE and vendor code. */
public final class Outcomes {
    private Outcomes() {}

    public interface Call {
        Object get() throws SQLException;
    }

    public static String of(Call call) {
        try {
            return value(call.get());
        } catch (SQLException e) {
            return "ERR " + e.getSQLState() + " " + e.getErrorCode() + " " + e.getClass().getSimpleName();
        } catch (RuntimeException e) {
            return "CRASH " + e;
        }
    }

    public static String value(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof byte[] b) {
            return "byte[] " + HexFormat.of().formatHex(b);
        }
        return v.getClass().getName() + " " + v;
    }

    /** Every row's getObject values with classes, in order. */
    public static List<String> rows(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i <= n; i++) {
                int col = i;
                sb.append(of(() -> rs.getObject(col))).append(" | ");
            }
            out.add(sb.toString());
        }
        return out;
    }

    /** Column descriptions, catalog left out (the logical schema and the oracle database differ by name). */
    public static List<String> metadata(ResultSetMetaData md) throws SQLException {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            out.add("label=" + md.getColumnLabel(i) + " name=" + md.getColumnName(i) + " table=" + md.getTableName(i)
                    + " type=" + md.getColumnType(i) + " typeName=" + md.getColumnTypeName(i) + " class=" + md.getColumnClassName(i)
                    + " precision=" + md.getPrecision(i) + " scale=" + md.getScale(i) + " nullable=" + md.isNullable(i)
                    + " signed=" + md.isSigned(i) + " displaySize=" + md.getColumnDisplaySize(i) + " autoIncrement="
                    + md.isAutoIncrement(i) + " caseSensitive=" + md.isCaseSensitive(i) + " readOnly=" + md.isReadOnly(i));
        }
        return out;
    }
}
