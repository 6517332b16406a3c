package io.shardwise.core.sql.analyze;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.ArrayList;
import java.util.List;

/**
 * DDL by explicit token rules (Calcite's core parser has no MySQL DDL): which tables a statement
 * names and where, so it can run on every physical table of each. Returns null for DDL that is not
 * about tables (CREATE DATABASE, CREATE VIEW ...), which the caller treats as a passthrough.
 */
final class DdlAnalyzer {
    private DdlAnalyzer() {}

    static Ddl analyze(String sql, List<Token> tokens, String schema) {
        int i = 0;
        String verb = tokens.get(0).lower();
        List<int[]> names = new ArrayList<>();
        String described;
        switch (verb) {
            case "create" -> {
                i = skip(tokens, 1, "temporary", "unique", "fulltext", "spatial", "or", "replace", "online", "offline");
                if (is(tokens, i, "table")) {
                    described = "create table";
                    i = skip(tokens, i + 1, "if", "not", "exists");
                    i = name(tokens, i, names);
                    if (is(tokens, i, "like")) {
                        name(tokens, i + 1, names);
                    } else if (is(tokens, i, "(") && i + 1 < tokens.size() && tokens.get(i + 1).is("like")) {
                        name(tokens, i + 2, names);
                    }
                } else if (is(tokens, i, "index")) {
                    described = "create index";
                    i = onTable(tokens, i, names);
                } else {
                    return null;
                }
            }
            case "drop" -> {
                i = skip(tokens, 1, "temporary");
                if (is(tokens, i, "table") || is(tokens, i, "tables")) {
                    described = "drop table";
                    i = skip(tokens, i + 1, "if", "exists");
                    while (i < tokens.size()) {
                        i = name(tokens, i, names);
                        if (i < tokens.size() && tokens.get(i).kind() == Kind.COMMA) {
                            i++;
                        } else {
                            break;
                        }
                    }
                } else if (is(tokens, i, "index")) {
                    described = "drop index";
                    onTable(tokens, i, names);
                } else {
                    return null;
                }
            }
            case "truncate" -> {
                described = "truncate table";
                name(tokens, skip(tokens, 1, "table"), names);
            }
            case "alter" -> {
                i = skip(tokens, 1, "online", "offline", "ignore");
                if (!is(tokens, i, "table")) {
                    return null;
                }
                described = "alter table";
                i = name(tokens, i + 1, names);
                for (int j = i; j < tokens.size(); j++) {
                    if (tokens.get(j).depth() == 0 && tokens.get(j).is("rename")) {
                        throw new ShardwiseException(ErrorCode.UNSUPPORTED, "ALTER TABLE ... RENAME of a table the"
                                + " configuration names; rename it in the configuration and on the backends");
                    }
                }
            }
            case "rename" -> {
                if (!is(tokens, 1, "table") && !is(tokens, 1, "tables")) {
                    return null; // RENAME USER: an account statement, run as written
                }
                described = "rename table";
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "RENAME TABLE; rename tables in the configuration and on the backends");
            }
            default -> {
                return null;
            }
        }
        if (names.isEmpty()) {
            return null;
        }
        List<TableRef> tables = new ArrayList<>();
        List<Slot> slots = new ArrayList<>();
        for (int[] span : names) {
            String qualified = sql.substring(span[0], span[1]);
            String name = unquote(qualified.substring(qualified.lastIndexOf('.') + 1));
            String qualifier = qualified.contains(".") && !qualified.startsWith("`") || qualified.indexOf("`.") > 0
                    ? unquote(qualified.substring(0, qualified.lastIndexOf('.'))) : null;
            TableRef ref = new TableRef(name, qualifier, null);
            tables.add(ref);
            if (qualifier == null || qualifier.equalsIgnoreCase(schema)) {
                slots.add(new Slot.Table(span[0], span[1], name));
            }
        }
        return new Ddl(new SqlTemplate(sql, slots), tables, described);
    }

    private static String unquote(String s) {
        return s.startsWith("`") ? s.substring(1, s.length() - 1).replace("``", "`") : s;
    }

    private static int onTable(List<Token> tokens, int i, List<int[]> names) {
        for (int j = i; j < tokens.size(); j++) {
            if (tokens.get(j).is("on") && tokens.get(j).depth() == 0) {
                return name(tokens, j + 1, names);
            }
        }
        return tokens.size();
    }

    /** Reads a possibly qualified name at i; records its span; returns the index after it. */
    private static int name(List<Token> tokens, int i, List<int[]> names) {
        if (i >= tokens.size()) {
            return i;
        }
        Token first = tokens.get(i);
        if (first.kind() != Kind.WORD && first.kind() != Kind.QUOTED_ID) {
            return i;
        }
        int end = first.end();
        int next = i + 1;
        if (next + 1 < tokens.size() && tokens.get(next).text().equals(".")
                && (tokens.get(next + 1).kind() == Kind.WORD || tokens.get(next + 1).kind() == Kind.QUOTED_ID)) {
            end = tokens.get(next + 1).end();
            next += 2;
        }
        names.add(new int[] {first.start(), end});
        return next;
    }

    private static int skip(List<Token> tokens, int i, String... words) {
        outer:
        while (i < tokens.size()) {
            for (String w : words) {
                if (tokens.get(i).is(w)) {
                    i++;
                    continue outer;
                }
            }
            return i;
        }
        return i;
    }

    private static boolean is(List<Token> tokens, int i, String word) {
        return i < tokens.size() && (tokens.get(i).is(word) || tokens.get(i).text().equals(word));
    }
}
