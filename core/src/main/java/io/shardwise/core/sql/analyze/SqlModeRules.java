package io.shardwise.core.sql.analyze;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.util.List;
import java.util.Set;

/**
 * What the sql_mode flags that change the meaning of a statement's tokens ({@link LexicalMode#semantic})
 * leave Shardwise able to answer exactly, checked once per plan (cache miss) for the statements it
 * reads (session commands run as MySQL's own). Where the analyzer's reading could differ from the
 * backend's, the statement is refused with 1235 naming the mode, never answered from a misreading:
 * <ul>
 *   <li>PIPES_AS_CONCAT: {@code ||} is read as concatenation ({@link CalciteMasking}); Calcite binds it
 *       as tightly as {@code *}, MySQL tighter, so {@code a * b || c} (a multiplicative operator just left of
 *       the operand before {@code ||}) is refused. The federated tier runs the user's text on MySQL in the
 *       session's sql_mode, so it answers {@code ||} as MySQL does.</li>
 *   <li>HIGH_NOT_PRECEDENCE: a prefix {@code NOT} whose operand is followed by an operator binding
 *       tighter than the usual NOT ({@code NOT a BETWEEN 1 AND 2}, {@code NOT k = 1}) means another thing;
 *       refused. {@code NOT (x)}, {@code NOT EXISTS (...)} and {@code NOT a AND b} read alike in both.</li>
 *   <li>ORACLE and EMPTY_STRING_IS_NULL (MariaDB): another grammar, another meaning of {@code ''};
 *       every statement Shardwise reads is refused.</li>
 *   <li>IGNORE_SPACE: {@code COUNT (*)} is a call, as Calcite reads it anyway: nothing to refuse.</li>
 * </ul>
 */
final class SqlModeRules {
    /** After a prefix NOT's operand: what binds tighter than NOT in the default mode (so the reading changes). */
    private static final Set<String> ABOVE_NOT_WORDS = Set.of("is", "between", "in", "like", "regexp", "rlike", "not",
            "sounds", "member", "collate", "div", "mod", "escape");
    /** Before a NOT: where an operand is expected, so the NOT is a prefix one (not {@code a NOT IN}, {@code IS NOT}). */
    private static final Set<String> OPERAND_EXPECTED = Set.of("where", "and", "or", "xor", "not", "having", "on", "when",
            "then", "else", "select", "distinct", "all", "by", "case", "like", "between", "return", "if", "elseif", "until");

    private SqlModeRules() {}

    static void check(List<Token> tokens, LexicalMode mode) {
        if (mode.has(LexicalMode.ORACLE)) {
            throw refused(LexicalMode.ORACLE, "statements read under MariaDB's Oracle grammar");
        }
        if (mode.has(LexicalMode.EMPTY_STRING_IS_NULL)) {
            throw refused(LexicalMode.EMPTY_STRING_IS_NULL, "statements where '' is NULL");
        }
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (mode.has(LexicalMode.PIPES_AS_CONCAT) && t.kind() == Kind.OPERATOR && t.text().equals("||")
                    && multiplicativeOnLeft(tokens, i)) {
                throw refused(LexicalMode.PIPES_AS_CONCAT, "|| right after a *, /, %, DIV, MOD or ^ operand"
                        + " (parenthesize the concatenation)");
            }
            if (mode.has(LexicalMode.HIGH_NOT_PRECEDENCE) && t.is("not") && isPrefix(tokens, i)
                    && changesMeaning(tokens, i + 1, mode)) {
                throw refused(LexicalMode.HIGH_NOT_PRECEDENCE, "NOT before an operand followed by a comparison or operator"
                        + " (write NOT (...) around the whole condition)");
            }
        }
    }

    private static ShardwiseException refused(int flag, String what) {
        return new ShardwiseException(ErrorCode.UNSUPPORTED, what + " under sql_mode " + LexicalMode.name(flag)
                + " through Shardwise");
    }

    private static boolean multiplicativeOnLeft(List<Token> tokens, int pipes) {
        int before = operandStart(tokens, pipes - 1) - 1;
        if (before < 0) {
            return false;
        }
        Token op = tokens.get(before);
        return op.kind() == Kind.OPERATOR && (op.text().equals("*") || op.text().equals("/") || op.text().equals("%")
                || op.text().equals("^")) || op.is("div") || op.is("mod");
    }

    /** The index of the first token of the operand ending at {@code end}: a group, a call, a qualified name or one token. */
    private static int operandStart(List<Token> tokens, int end) {
        int i = end;
        if (i < 0) {
            return 0;
        }
        if (tokens.get(i).kind() == Kind.CLOSE) {
            int depth = tokens.get(i).depth();
            while (i > 0 && !(tokens.get(i).kind() == Kind.OPEN && tokens.get(i).depth() == depth)) {
                i--;
            }
            if (i > 0 && tokens.get(i - 1).kind() == Kind.WORD) {
                i--; // a call's name
            }
        }
        while (i >= 2 && tokens.get(i - 1).kind() == Kind.OPERATOR && tokens.get(i - 1).text().equals(".")) {
            i -= 2; // t.a, s.t.a
        }
        return i;
    }

    private static boolean isPrefix(List<Token> tokens, int not) {
        if (not == 0) {
            return true;
        }
        Token prev = tokens.get(not - 1);
        return switch (prev.kind()) {
            case OPERATOR, OPEN, COMMA -> true;
            case WORD -> OPERAND_EXPECTED.contains(prev.lower());
            default -> false;
        };
    }

    /**
     * Whether the prefix NOT's operand starting at {@code start} is followed by an operator that binds
     * tighter than NOT in the default mode; an operand that is not a plain one is taken as changing it.
     */
    private static boolean changesMeaning(List<Token> tokens, int start, LexicalMode mode) {
        if (start >= tokens.size()) {
            return false;
        }
        int end = operandEnd(tokens, start);
        if (end < 0) {
            return true;
        }
        if (end + 1 >= tokens.size()) {
            return false;
        }
        Token next = tokens.get(end + 1);
        return switch (next.kind()) {
            case OPERATOR -> !next.text().equals("&&") && !(next.text().equals("||") && !mode.has(LexicalMode.PIPES_AS_CONCAT));
            case WORD -> ABOVE_NOT_WORDS.contains(next.lower());
            case CLOSE, COMMA, SEMICOLON -> false;
            default -> true;
        };
    }

    /** The last token of the operand at {@code start}, or -1 when it is not a plain operand. */
    private static int operandEnd(List<Token> tokens, int start) {
        Token t = tokens.get(start);
        int i = start;
        if (t.is("exists") && start + 1 < tokens.size() && tokens.get(start + 1).kind() == Kind.OPEN) {
            i = start + 1;
        } else if (t.kind() == Kind.WORD && start + 1 < tokens.size() && tokens.get(start + 1).kind() == Kind.OPEN) {
            i = start + 1; // a call
        } else if (t.kind() == Kind.WORD || t.kind() == Kind.QUOTED_ID) {
            while (i + 2 < tokens.size() && tokens.get(i + 1).kind() == Kind.OPERATOR && tokens.get(i + 1).text().equals(".")) {
                i += 2;
            }
            return isKeywordOperand(t) ? -1 : i;
        } else if (t.kind() == Kind.NUMBER || t.kind() == Kind.PARAM || t.kind() == Kind.STRING || t.kind() == Kind.VARIABLE) {
            return i;
        } else if (t.kind() != Kind.OPEN) {
            return -1; // NOT -x, NOT !x ...: taken as changing
        }
        int depth = tokens.get(i).depth();
        for (int j = i + 1; j < tokens.size(); j++) {
            if (tokens.get(j).kind() == Kind.CLOSE && tokens.get(j).depth() == depth) {
                return j;
            }
        }
        return -1;
    }

    /** Words that start a longer operand (CASE ... END, INTERVAL x unit, BINARY x, NOT ...): not skipped as one token. */
    private static boolean isKeywordOperand(Token t) {
        String w = t.lower();
        return w.equals("case") || w.equals("interval") || w.equals("binary") || w.equals("not") || w.equals("row");
    }
}
