package io.shardwise.core.sql.analyze;

import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.List;

/** Explicit rules for statements about the session (Calcite parses none of them). */
final class SessionRules {
    private SessionRules() {}

    /** Words after ANALYZE that make it MariaDB's ANALYZE of a statement, not ANALYZE TABLE. */
    private static final java.util.Set<String> ANALYZED = java.util.Set.of("select", "insert", "update", "delete", "replace", "with",
            "format", "(");

    /** {@code SET PASSWORD ...} or {@code SET DEFAULT ROLE ...}. */
    static boolean isAccountSet(List<Token> tokens) {
        return tokens.size() > 1 && tokens.get(0).is("set") && (tokens.get(1).is("password")
                || tokens.size() > 2 && tokens.get(1).is("default") && tokens.get(2).is("role"));
    }

    /** The session command a statement is, or null when it is not one. */
    static SessionCommand classify(String sql, List<Token> tokens) {
        Token first = tokens.get(0);
        Token second = tokens.size() > 1 ? tokens.get(1) : null;
        SessionCommand.Kind kind = switch (first.lower()) {
            // MariaDB's BEGIN NOT ATOMIC ... END is a compound statement, not a transaction
            case "begin" -> second != null && second.is("not") ? null : SessionCommand.Kind.BEGIN;
            case "start" -> second != null && second.is("transaction") ? SessionCommand.Kind.BEGIN : null;
            case "commit" -> SessionCommand.Kind.COMMIT;
            case "rollback" -> second != null && second.is("to") || tokens.size() > 2 && tokens.get(2).is("to")
                    ? SessionCommand.Kind.ROLLBACK_TO_SAVEPOINT : SessionCommand.Kind.ROLLBACK;
            case "savepoint" -> SessionCommand.Kind.SAVEPOINT;
            case "release" -> SessionCommand.Kind.RELEASE_SAVEPOINT;
            // SET PASSWORD and SET DEFAULT ROLE are account statements, not session settings (Analyzer.account)
            case "set" -> isAccountSet(tokens) ? null : SessionCommand.Kind.SET;
            case "use" -> SessionCommand.Kind.USE;
            case "show" -> second != null && (second.is("warnings") || second.is("errors") || second.is("count"))
                    ? SessionCommand.Kind.DIAGNOSTICS : SessionCommand.Kind.SHOW;
            case "select" -> isVariableSelect(tokens) ? SessionCommand.Kind.VARIABLES
                    : namesInformationSchema(tokens) ? SessionCommand.Kind.INFORMATION_SCHEMA : null;
            case "preview" -> SessionCommand.Kind.PREVIEW;
            case "explain" -> SessionCommand.Kind.EXPLAIN;
            // MariaDB's ANALYZE statement (EXPLAIN ANALYZE): refused as that, not run as a statement Shardwise cannot read
            case "analyze" -> second != null && ANALYZED.contains(second.lower()) ? SessionCommand.Kind.EXPLAIN : null;
            case "describe", "desc" -> SessionCommand.Kind.DESCRIBE;
            case "kill" -> SessionCommand.Kind.KILL;
            case "lock" -> SessionCommand.Kind.LOCK_TABLES;
            case "unlock" -> SessionCommand.Kind.UNLOCK_TABLES;
            case "do" -> SessionCommand.Kind.DO;
            case "flush" -> SessionCommand.Kind.FLUSH;
            default -> namesInformationSchema(tokens) ? SessionCommand.Kind.INFORMATION_SCHEMA : null;
        };
        if (kind == null) {
            return null;
        }
        String argument = second == null ? "" : sql.substring(second.start()).strip();
        if (kind == SessionCommand.Kind.PREVIEW || kind == SessionCommand.Kind.EXPLAIN) {
            argument = second == null ? "" : sql.substring(second.start());
        }
        return new SessionCommand(new SqlTemplate(sql, List.of()), kind, stripSemicolon(argument));
    }

    /**
     * {@code SELECT item [[AS] alias], ... [LIMIT n]} where each item is a {@code @@variable}, a {@code @user_variable} or a
     * call with no arguments ({@code DATABASE()}): the grammar the session's variables answer.
     */
    private static boolean isVariableSelect(List<Token> t) {
        int i = 1;
        while (true) {
            if (i < t.size() && t.get(i).kind() == Kind.VARIABLE) {
                i++;
            } else if (i + 2 < t.size() && t.get(i).kind() == Kind.WORD && t.get(i + 1).kind() == Kind.OPEN
                    && t.get(i + 2).kind() == Kind.CLOSE) {
                i += 3;
            } else {
                return false;
            }
            if (i < t.size() && t.get(i).is("as")) {
                i++;
            }
            if (i < t.size() && isAlias(t.get(i))) {
                i++;
            }
            if (i < t.size() && t.get(i).kind() == Kind.COMMA) {
                i++;
            } else {
                break;
            }
        }
        if (i + 1 < t.size() && t.get(i).is("limit") && (t.get(i + 1).kind() == Kind.NUMBER || t.get(i + 1).kind() == Kind.PARAM)) {
            i += 2;
        }
        return i == t.size() || i == t.size() - 1 && t.get(i).kind() == Kind.SEMICOLON;
    }

    /** An alias; a quoted alias ({@code AS 'x'}) is a parameter marker in the digest. */
    private static boolean isAlias(Token t) {
        return switch (t.kind()) {
            case QUOTED_ID, PARAM, STRING -> true;
            case WORD -> !t.is("limit") && !t.is("from");
            default -> false;
        };
    }

    /** Whether a qualified name {@code information_schema.x} stands anywhere in the statement. */
    private static boolean namesInformationSchema(List<Token> t) {
        for (int i = 0; i + 2 < t.size(); i++) {
            Token name = t.get(i);
            if ((name.kind() == Kind.WORD || name.kind() == Kind.QUOTED_ID)
                    && DigestScanner.identifier(name).equalsIgnoreCase("information_schema") && t.get(i + 1).text().equals(".")) {
                return true;
            }
        }
        return false;
    }

    private static String stripSemicolon(String s) {
        String t = s.strip();
        return t.endsWith(";") ? t.substring(0, t.length() - 1).strip() : t;
    }
}
