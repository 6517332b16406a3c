package io.shardwise.core.session;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * SHOW [FULL] PROCESSLIST: this server's own client sessions (never the backends' connections, whose
 * users, hosts and statements are physical), those of the user asking only, as MySQL shows a user
 * without the PROCESS privilege. Columns and labels are MySQL's; without FULL, Info keeps its first
 * 100 characters.
 */
final class Processlist {
    private static final Pattern FULL = Pattern.compile("(?is)\\s*show\\s+full\\s.*");
    private static final int TRUNCATED = 100;
    private static final List<Column> COLUMNS = List.of(number("Id"), text("User", 128), text("Host", 64), text("db", 64),
            text("Command", 16), number("Time"), text("State", 64), text("Info", 400));

    private final SessionHost host;

    Processlist(SessionHost host) {
        this.host = host;
    }

    ResultCursor answer(String sql) {
        boolean full = FULL.matcher(sql).matches();
        List<byte[][]> rows = new ArrayList<>();
        for (SessionHost.Process p : host.processes()) {
            String info = p.info();
            if (info != null && !full && info.length() > TRUNCATED) {
                info = info.substring(0, TRUNCATED);
            }
            String command = p.command();
            rows.add(new byte[][] {bytes(Long.toString(p.id())), bytes(p.user()), bytes(p.host()), bytes(p.schema()), bytes(command),
                    bytes(Long.toString(p.seconds())), bytes(command.equals("Query") ? "executing" : ""), bytes(info)});
        }
        return new ValuesCursor(COLUMNS, rows);
    }

    private static Column number(String label) {
        return new Column("", "", "", label, label, Column.BINARY_COLLATION, 21, 8, Column.FLAG_NOT_NULL | Column.FLAG_BINARY, 0);
    }

    private static Column text(String label, int chars) {
        return new Column("", "", "", label, label, 45, 4 * chars, 253, 0, 0);
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }
}
