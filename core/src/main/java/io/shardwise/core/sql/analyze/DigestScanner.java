package io.shardwise.core.sql.analyze;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a normalized statement into coarse tokens for the analyzer's own rules (classification,
 * clause boundaries, masking, DDL): words, quoted identifiers, strings, numbers, {@code ?},
 * variables, comments and single operators, each with its paren depth. Runs on the cache-miss path
 * only; the hot path never scans twice.
 */
final class DigestScanner {
    enum Kind { WORD, QUOTED_ID, STRING, NUMBER, PARAM, VARIABLE, COMMENT, OPERATOR, OPEN, CLOSE, COMMA, SEMICOLON }

    /** A token; {@code depth} is the paren depth it stands at (an OPEN is at its outer depth). */
    record Token(Kind kind, int start, int end, int depth, String text) {
        /** Lower-case text of a word, for keyword tests. */
        String lower() {
            return text.toLowerCase(Locale.ROOT);
        }

        boolean is(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }
    }

    private DigestScanner() {}

    static List<Token> scan(String sql) {
        List<Token> tokens = new ArrayList<>();
        int depth = 0;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int start = i;
            Kind kind;
            if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 ? n : close + 2;
                kind = Kind.COMMENT;
            } else if (c == '-' && i + 2 < n && sql.charAt(i + 1) == '-' && Character.isWhitespace(sql.charAt(i + 2))
                    || c == '#') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
                continue;
            } else if (c == '`' || c == '\'' || c == '"') {
                i = quoted(sql, i, c);
                kind = c == '`' ? Kind.QUOTED_ID : Kind.STRING;
            } else if (c == '?') {
                i++;
                kind = Kind.PARAM;
            } else if (c == '@') {
                i++;
                while (i < n && (isWordChar(sql.charAt(i)) || sql.charAt(i) == '@' || sql.charAt(i) == '.' || sql.charAt(i) == '`')) {
                    i = sql.charAt(i) == '`' ? quoted(sql, i, '`') : i + 1;
                }
                kind = Kind.VARIABLE;
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
                while (i < n && (isWordChar(sql.charAt(i)) || sql.charAt(i) == '.'
                        || ((sql.charAt(i) == '+' || sql.charAt(i) == '-') && (sql.charAt(i - 1) == 'e' || sql.charAt(i - 1) == 'E')))) {
                    i++;
                }
                kind = Kind.NUMBER;
            } else if (isWordChar(c)) {
                while (i < n && isWordChar(sql.charAt(i))) {
                    i++;
                }
                kind = Kind.WORD;
            } else if (c == '(') {
                tokens.add(new Token(Kind.OPEN, i, i + 1, depth, "("));
                depth++;
                i++;
                continue;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
                tokens.add(new Token(Kind.CLOSE, i, i + 1, depth, ")"));
                i++;
                continue;
            } else if (c == ',') {
                i++;
                kind = Kind.COMMA;
            } else if (c == ';') {
                i++;
                kind = Kind.SEMICOLON;
            } else {
                i = operatorEnd(sql, i);
                kind = Kind.OPERATOR;
            }
            tokens.add(new Token(kind, start, i, depth, sql.substring(start, i)));
        }
        return tokens;
    }

    private static int quoted(String sql, int i, char quote) {
        int n = sql.length();
        int j = i + 1;
        while (j < n) {
            char c = sql.charAt(j);
            if (c == '\\' && quote != '`') {
                j += 2;
            } else if (c == quote) {
                if (j + 1 < n && sql.charAt(j + 1) == quote) {
                    j += 2;
                } else {
                    return j + 1;
                }
            } else {
                j++;
            }
        }
        return n;
    }

    private static final String[] OPERATORS = {"<=>", "->>", "<=", ">=", "<>", "!=", ":=", "||", "&&", "<<", ">>", "->"};

    private static int operatorEnd(String sql, int i) {
        for (String op : OPERATORS) {
            if (sql.startsWith(op, i)) {
                return i + op.length();
            }
        }
        return i + 1;
    }

    static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c > 127;
    }

    /** An identifier token's name: backticks removed and doubled backticks undone. */
    static String identifier(Token t) {
        if (t.kind() == Kind.QUOTED_ID) {
            return t.text().substring(1, t.text().length() - 1).replace("``", "`");
        }
        return t.text();
    }
}
