package io.shardwise.core.merge;

import io.shardwise.core.execute.ResultCursor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Reads a whole cursor as strings (null for NULL), one list per row. */
final class Drain {
    private Drain() {}

    static List<List<String>> rows(ResultCursor cursor) {
        List<List<String>> out = new ArrayList<>();
        int width = cursor.columns().size();
        while (cursor.next()) {
            String[] row = new String[width];
            for (int i = 0; i < width; i++) {
                byte[] v = cursor.get(i);
                row[i] = v == null ? null : new String(v, StandardCharsets.UTF_8);
            }
            out.add(Arrays.asList(row));
        }
        return out;
    }

    static List<String> row(String... cells) {
        return Arrays.asList(cells);
    }
}
