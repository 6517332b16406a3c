package io.shardwise.core.sql.analyze;

import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.List;

/** Explicit rules for statements about the session (Calcite parses none of them). */
final class SessionRules {
    private SessionRules() {}

    /** The session command a statement is, or null when it is not one. */
    static SessionCommand classify(String sql, List<Token> tokens) {
        Token first = tokens.get(0);
        Token second = tokens.size() > 1 ? tokens.get(1) : null;
        SessionCommand.Kind kind = switch (first.lower()) {
            case "begin" -> SessionCommand.Kind.BEGIN;
            case "start" -> second != null && second.is("transaction") ? SessionCommand.Kind.BEGIN : null;
            case "commit" -> SessionCommand.Kind.COMMIT;
            case "rollback" -> second != null && second.is("to") || tokens.size() > 2 && tokens.get(2).is("to")
                    ? SessionCommand.Kind.ROLLBACK_TO_SAVEPOINT : SessionCommand.Kind.ROLLBACK;
            case "savepoint" -> SessionCommand.Kind.SAVEPOINT;
            case "release" -> SessionCommand.Kind.RELEASE_SAVEPOINT;
            case "set" -> SessionCommand.Kind.SET;
            case "use" -> SessionCommand.Kind.USE;
            case "show" -> SessionCommand.Kind.SHOW;
            case "preview" -> SessionCommand.Kind.PREVIEW;
            case "explain" -> SessionCommand.Kind.EXPLAIN;
            case "describe", "desc" -> SessionCommand.Kind.DESCRIBE;
            case "kill" -> SessionCommand.Kind.KILL;
            case "lock" -> SessionCommand.Kind.LOCK_TABLES;
            case "unlock" -> SessionCommand.Kind.UNLOCK_TABLES;
            case "do" -> SessionCommand.Kind.DO;
            case "flush" -> SessionCommand.Kind.FLUSH;
            default -> null;
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

    private static String stripSemicolon(String s) {
        String t = s.strip();
        return t.endsWith(";") ? t.substring(0, t.length() - 1).strip() : t;
    }
}
