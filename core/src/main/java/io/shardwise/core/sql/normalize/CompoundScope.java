package io.shardwise.core.sql.normalize;

/**
 * Follows one statement's tokens to tell whether a {@code ;} ends it or lies inside a compound
 * statement: the body of {@code CREATE PROCEDURE|FUNCTION|TRIGGER|EVENT} (and {@code ALTER EVENT ... DO}),
 * or MariaDB's compound statements outside stored programs ({@code BEGIN NOT ATOMIC ... END},
 * {@code IF ... END IF}, {@code WHILE}, {@code LOOP}, {@code REPEAT}, {@code CASE}, labels). MySQL's
 * parser reads a body as one {@code sp_proc_stmt}, so only a {@code ;} after its last {@code END}
 * ends the statement; {@link QueryStatements} asks {@link #inBody} at each {@code ;}.
 *
 * <p>How: a depth counter over block openers and their closers. {@code BEGIN}, {@code CASE},
 * {@code IF}, {@code WHILE}, {@code LOOP} and {@code REPEAT} open; {@code END}, optionally followed by
 * {@code IF|CASE|WHILE|LOOP|REPEAT}, closes one. The hazards are the words that are also functions or
 * transaction statements, so these open only where a statement starts inside a body (after {@code ;},
 * {@code BEGIN}, {@code THEN}, {@code ELSE}, {@code DO}, {@code LOOP}, {@code REPEAT}, a label's
 * {@code :}, a handler's condition list, or at the body's start): {@code IF(a, b, c)} (a
 * parenthesized group with a top-level comma) and {@code REPEAT('x', 3)} are functions, {@code BEGIN}
 * alone or {@code BEGIN WORK} at the top is a transaction. A {@code CASE} expression and a {@code CASE}
 * statement both end with {@code END}, so {@code CASE} opens wherever it stands. A header (parameters,
 * {@code RETURNS} type, characteristics, {@code FOR EACH ROW}, an event's schedule) opens nothing: the
 * body starts at its first statement word, opener or label.
 *
 * <p>Cheap: consulted only for texts holding a {@code ;}, and compares words only while a statement
 * may still be a stored program. Executable comments stay opaque, as in the lexer: a dump's
 * {@code /*!50003 CREATE PROCEDURE ... END *}{@code /} holds its whole body.
 */
final class CompoundScope {
    private enum Phase {
        /** Before the statement's first token. */
        FIRST,
        /** After top-level {@code BEGIN}: {@code NOT ATOMIC} makes it a block, anything else a transaction. */
        TOP_BEGIN,
        /** After CREATE/ALTER, before the object word. */
        CREATE_HEAD,
        /** A procedure or function before its parameter list closes. */
        PARAMETERS,
        /** A trigger before {@code FOR EACH ROW}. */
        TRIGGER_HEAD,
        /** An event before {@code DO}. */
        EVENT_HEAD,
        /** After a header: skipping {@code RETURNS} type and characteristics until the body's first word. */
        BODY_START,
        /** Inside a body or compound statement: the depth counter runs. */
        COMPOUND,
        /** Nothing of this statement can hold a {@code ;}: the next one ends it. */
        PLAIN
    }

    /** Words that start a statement: in {@link Phase#BODY_START} the first of these (or an opener) starts the body. */
    private static final java.util.Set<String> STATEMENT_WORDS = java.util.Set.of("select", "insert", "update", "delete",
            "replace", "return", "set", "call", "do", "with", "values", "table", "create", "drop", "alter", "truncate",
            "rename", "start", "commit", "rollback", "savepoint", "release", "signal", "resignal", "leave", "iterate", "open",
            "fetch", "close", "declare", "load", "grant", "revoke", "flush", "kill", "prepare", "execute", "deallocate",
            "lock", "unlock", "show", "handler", "get", "purge", "analyze", "optimize", "repair", "check", "checksum", "xa",
            "use", "reset", "explain", "describe", "desc", "help", "install", "uninstall", "shutdown", "cache", "binlog");
    /** Objects of CREATE that have no body. */
    private static final java.util.Set<String> PLAIN_OBJECTS = java.util.Set.of("table", "temporary", "view", "index",
            "unique", "fulltext", "spatial", "database", "schema", "user", "role", "server", "tablespace", "logfile",
            "sequence", "resource", "package", "synonym", "policy");

    private final String text;
    private Phase phase = Phase.FIRST;
    private int depth;
    private int parens;
    /** Whether the next token starts a statement inside the body. */
    private boolean statementStart;
    /** The previous token was a block's {@code END}: an IF/CASE/WHILE/LOOP/REPEAT now names what it closes. */
    private boolean afterEnd;
    /** An {@code IF} at a statement start followed by {@code (}: undecided until its group closes. */
    private int pendingIfParens;
    private boolean pendingIfComma;
    /** A {@code REPEAT} at a statement start: a block unless {@code (} follows (the function). */
    private boolean pendingRepeat;
    /** The previous word was HANDLER (a FOR now starts its condition list). */
    private boolean afterHandler;
    /** Inside {@code HANDLER FOR cond, ...}: the handler's statement starts after the list. */
    private boolean handlerConditions;
    private boolean expectCondition;
    /** The previous word was CHARACTER: a SET now is {@code CHARACTER SET}, not a statement. */
    private boolean afterCharacter;
    /** The previous word was NOT at a top-level BEGIN: ATOMIC follows. */
    private boolean expectAtomic;

    CompoundScope(String text) {
        this.text = text;
    }

    /** A new statement starts. */
    void reset() {
        phase = Phase.FIRST;
        depth = 0;
        parens = 0;
        statementStart = false;
        afterEnd = false;
        pendingIfParens = 0;
        pendingRepeat = false;
        afterHandler = false;
        handlerConditions = false;
        afterCharacter = false;
        expectAtomic = false;
    }

    /** Whether a {@code ;} here lies inside a compound statement rather than ending the statement. */
    boolean inBody() {
        return phase == Phase.COMPOUND && depth > 0;
    }

    /** The token {@code [start, end)} of kind {@code kind} was read (never SEMICOLON at depth 0: that ended the statement). */
    void token(TokenKind kind, int start, int end) {
        if (kind == TokenKind.EXECUTABLE_COMMENT || kind == TokenKind.HINT) {
            return;
        }
        switch (phase) {
            case FIRST -> first(kind, start, end);
            case TOP_BEGIN -> {
                if (isWord(kind) && is("not", start, end)) {
                    phase = Phase.COMPOUND;
                    depth = 1;
                    expectAtomic = true;
                } else {
                    phase = Phase.PLAIN;
                }
            }
            case CREATE_HEAD -> createHead(kind, start, end);
            case PARAMETERS -> {
                if (kind == TokenKind.LEFT_PAREN) {
                    parens++;
                } else if (kind == TokenKind.RIGHT_PAREN && --parens == 0) {
                    phase = Phase.BODY_START;
                }
            }
            case TRIGGER_HEAD -> {
                if (isWord(kind) && is("row", start, end)) {
                    phase = Phase.BODY_START;
                }
            }
            case EVENT_HEAD -> {
                if (kind == TokenKind.LEFT_PAREN) {
                    parens++;
                } else if (kind == TokenKind.RIGHT_PAREN) {
                    parens--;
                } else if (parens == 0 && isWord(kind) && is("do", start, end)) {
                    phase = Phase.COMPOUND;
                    statementStart = true;
                }
            }
            case BODY_START -> bodyStart(kind, start, end);
            case COMPOUND -> compound(kind, start, end);
            case PLAIN -> { }
        }
    }

    private void first(TokenKind kind, int start, int end) {
        if (!isWord(kind)) {
            phase = Phase.PLAIN;
        } else if (is("create", start, end) || is("alter", start, end)) {
            phase = Phase.CREATE_HEAD;
        } else if (is("begin", start, end)) {
            phase = Phase.TOP_BEGIN;
        } else if (opensAtStatementStart(start, end) || followedByLabelColon(end)) {
            // MariaDB runs IF/CASE/WHILE/LOOP/REPEAT and labeled blocks outside stored programs
            phase = Phase.COMPOUND;
            statementStart = true;
            compound(kind, start, end);
        } else {
            phase = Phase.PLAIN;
        }
    }

    private void createHead(TokenKind kind, int start, int end) {
        if (!isWord(kind)) {
            return; // DEFINER = 'u'@'h', CURRENT_USER()
        }
        if (is("procedure", start, end) || is("function", start, end)) {
            phase = Phase.PARAMETERS;
        } else if (is("trigger", start, end)) {
            phase = Phase.TRIGGER_HEAD;
        } else if (is("event", start, end)) {
            phase = Phase.EVENT_HEAD;
        } else if (PLAIN_OBJECTS.contains(lower(start, end))) {
            phase = Phase.PLAIN;
        }
    }

    private void bodyStart(TokenKind kind, int start, int end) {
        if (kind == TokenKind.OPERATOR && is(":", start, end)) {
            phase = Phase.COMPOUND; // a label: the labeled block follows
            statementStart = true;
            return;
        }
        if (!isWord(kind)) {
            return; // RETURNS DECIMAL(10, 2), COMMENT 'text'
        }
        String word = lower(start, end);
        boolean characterSet = afterCharacter && word.equals("set");
        afterCharacter = word.equals("character");
        if (characterSet) {
            return;
        }
        if (opensAtStatementStart(start, end) || (STATEMENT_WORDS.contains(word) && !(word.equals("set") && nextIsLeftParen(end)))) {
            phase = Phase.COMPOUND;
            statementStart = true;
            compound(kind, start, end);
        }
    }

    private void compound(TokenKind kind, int start, int end) {
        if (expectAtomic) {
            expectAtomic = false; // BEGIN NOT ATOMIC
            statementStart = true;
            return;
        }
        if (pendingIfParens != 0) {
            ifGroup(kind);
            return;
        }
        if (pendingRepeat) {
            pendingRepeat = false;
            if (kind == TokenKind.LEFT_PAREN) {
                statementStart = false; // REPEAT('x', 3): the function
                return;
            }
            depth++;
            statementStart = true;
        }
        if (handlerConditions) {
            if (expectCondition) {
                // SQLSTATE [VALUE] 'x', NOT FOUND: one more token of the same condition follows
                expectCondition = isWord(kind) && (is("sqlstate", start, end) || is("value", start, end) || is("not", start, end));
                return;
            }
            if (kind == TokenKind.COMMA) {
                expectCondition = true;
                return;
            }
            handlerConditions = false;
            statementStart = true;
        }
        boolean atStart = statementStart;
        statementStart = false;
        if (afterEnd) {
            afterEnd = false;
            if (isWord(kind) && (is("if", start, end) || is("case", start, end) || is("while", start, end)
                    || is("loop", start, end) || is("repeat", start, end))) {
                return; // END IF: names what the END closed
            }
        }
        if (kind == TokenKind.SEMICOLON) {
            statementStart = true;
            return;
        }
        if (kind == TokenKind.OPERATOR && is(":", start, end)) {
            statementStart = true; // label: the labeled statement follows
            return;
        }
        if (!isWord(kind)) {
            return;
        }
        boolean wasHandler = afterHandler;
        afterHandler = is("handler", start, end);
        if (wasHandler && is("for", start, end)) {
            handlerConditions = true;
            expectCondition = true;
            return;
        }
        if (is("end", start, end)) {
            if (depth > 0) {
                depth--;
            }
            afterEnd = true;
        } else if (is("case", start, end) || is("while", start, end) || is("loop", start, end)) {
            depth++;
            statementStart = is("loop", start, end);
        } else if (atStart && is("begin", start, end)) {
            depth++;
            statementStart = true;
        } else if (atStart && is("if", start, end)) {
            if (nextIsLeftParen(end)) {
                pendingIfParens = -1; // decided when its group closes (ifGroup)
                pendingIfComma = false;
            } else {
                depth++;
            }
        } else if (atStart && is("repeat", start, end)) {
            pendingRepeat = true;
        } else if (is("then", start, end) || is("else", start, end) || is("do", start, end)) {
            statementStart = true;
        }
    }

    /** Tokens of the parenthesized group after a statement-start IF: a top-level comma makes it the IF() function. */
    private void ifGroup(TokenKind kind) {
        if (kind == TokenKind.LEFT_PAREN) {
            pendingIfParens = pendingIfParens < 0 ? 1 : pendingIfParens + 1;
        } else if (kind == TokenKind.RIGHT_PAREN) {
            pendingIfParens--;
        } else if (kind == TokenKind.COMMA && pendingIfParens == 1) {
            pendingIfComma = true;
        }
        if (pendingIfParens == 0 && !pendingIfComma) {
            depth++; // IF (cond) THEN: the statement
        }
    }

    private boolean opensAtStatementStart(int start, int end) {
        return is("if", start, end) || is("case", start, end) || is("while", start, end) || is("loop", start, end)
                || is("repeat", start, end) || is("begin", start, end);
    }

    /** {@code label:} — the next non-blank character after the word is a single {@code :} (not {@code :=}). */
    private boolean followedByLabelColon(int end) {
        int p = skipBlanks(end);
        return p < text.length() && text.charAt(p) == ':' && (p + 1 >= text.length() || text.charAt(p + 1) != '=');
    }

    private boolean nextIsLeftParen(int end) {
        int p = skipBlanks(end);
        return p < text.length() && text.charAt(p) == '(';
    }

    private int skipBlanks(int p) {
        while (p < text.length() && Character.isWhitespace(text.charAt(p))) {
            p++;
        }
        return p;
    }

    private static boolean isWord(TokenKind kind) {
        return kind == TokenKind.IDENTIFIER || kind == TokenKind.KEYWORD;
    }

    private boolean is(String word, int start, int end) {
        return end - start == word.length() && text.regionMatches(true, start, word, 0, word.length());
    }

    private String lower(int start, int end) {
        return text.substring(start, end).toLowerCase(java.util.Locale.ROOT);
    }
}
