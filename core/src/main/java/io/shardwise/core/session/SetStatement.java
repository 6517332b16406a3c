package io.shardwise.core.session;

import static io.shardwise.core.sql.normalize.StatementTokens.unquote;
import static io.shardwise.core.sql.normalize.StatementTokens.word;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.SessionState;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import io.shardwise.core.sql.normalize.TokenKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A SET statement read once, in the session's lexical mode: its assignments in order. The engine
 * applies them to the session's state (what backends get) and the session's variables record them
 * (what clients read back); both read these records, never the text. What Shardwise refuses (GLOBAL,
 * PERSIST) and what is malformed fails here, before anything changes.
 */
public record SetStatement(List<Assignment> assignments) {
    private static final java.util.regex.Pattern SYSTEM_VARIABLE_NAME = java.util.regex.Pattern.compile("[a-z_][a-z0-9_]*");
    public SetStatement {
        assignments = List.copyOf(assignments);
    }

    /** One assignment of a SET statement. */
    public sealed interface Assignment permits Names, Transaction, Variable, User {}

    /**
     * {@code @name = expression} (or {@code :=}): a user variable, which the session keeps.
     *
     * @param name without {@code @} or quotes, as written
     * @param expression the value as written
     */
    public record User(String name, String expression) implements Assignment {}

    /**
     * {@code NAMES charset [COLLATE collation]}, {@code CHARACTER SET charset}, {@code CHARSET charset}.
     *
     * @param names whether the NAMES form (which also sets the collation)
     * @param collation null unless named
     */
    public record Names(boolean names, String charset, String collation) implements Assignment {}

    /**
     * {@code [SESSION] TRANSACTION characteristic, ...}.
     *
     * @param session whether SESSION was written (the session's value changes; without it only the next transaction's)
     * @param isolation null unless an isolation level was named
     * @param readOnly null unless READ ONLY or READ WRITE was named
     */
    public record Transaction(boolean session, SessionState.Isolation isolation, Boolean readOnly) implements Assignment {}

    /**
     * {@code name = expression} for a session system variable.
     *
     * @param name lower case, without {@code @@} or a SESSION/LOCAL scope
     * @param expression the value as written
     * @param literal whether the value is one literal token (not a variable, function call or operation)
     */
    public record Variable(String name, String expression, boolean literal) implements Assignment {
        /** The value without its quotes. */
        public String plain() {
            return unquote(expression);
        }

        /** {@code = DEFAULT}: the variable's default value. */
        public boolean isDefault() {
            return literal && plain().equalsIgnoreCase("default");
        }
    }

    /**
     * @throws ShardwiseException 1064 for a malformed assignment, 1235 for GLOBAL/PERSIST, MySQL's error for an unknown isolation level
     */
    public static SetStatement parse(String sql, LexicalMode mode) {
        List<Token> tokens = StatementTokens.of(sql, mode);
        List<Assignment> out = new ArrayList<>();
        // tokens.get(0) is SET
        int i = 1;
        while (i < tokens.size()) {
            int end = i;
            int depth = 0;
            while (end < tokens.size()) {
                TokenKind k = tokens.get(end).kind();
                if (k == TokenKind.LEFT_PAREN) {
                    depth++;
                } else if (k == TokenKind.RIGHT_PAREN) {
                    depth--;
                } else if (k == TokenKind.COMMA && depth == 0 && !isTransactionList(sql, tokens, i)) {
                    break;
                }
                end++;
            }
            out.add(assignment(sql, tokens.subList(i, end)));
            i = end + 1;
        }
        return new SetStatement(out);
    }

    /** SET [SESSION] TRANSACTION x, y: its commas separate characteristics, not assignments. */
    private static boolean isTransactionList(String sql, List<Token> tokens, int from) {
        for (int j = from; j < Math.min(tokens.size(), from + 2); j++) {
            if (word(sql, tokens.get(j)).equals("transaction")) {
                return true;
            }
        }
        return false;
    }

    private static Assignment assignment(String sql, List<Token> t) {
        if (t.isEmpty()) {
            throw new ShardwiseException(ErrorCode.PARSE_ERROR, "an empty assignment in SET");
        }
        String first = word(sql, t.get(0));
        if (first.equals("global") || first.equals("persist") || first.equals("persist_only")) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "SET " + first.toUpperCase(Locale.ROOT)
                    + " through Shardwise (set it on each backend server)");
        }
        int at = first.equals("session") || first.equals("local") ? 1 : 0;
        if (at >= t.size()) {
            throw new ShardwiseException(ErrorCode.PARSE_ERROR, "near '" + sql.substring(t.get(0).start()) + "'");
        }
        String head = word(sql, t.get(at));
        switch (head) {
            case "names", "character", "charset" -> {
                int v = head.equals("character") ? at + 2 : at + 1;
                if (v >= t.size()) {
                    throw new ShardwiseException(ErrorCode.PARSE_ERROR, "near '" + sql.substring(t.get(at).start()) + "'");
                }
                String collation = v + 2 < t.size() && word(sql, t.get(v + 1)).equals("collate") ? unquote(legible(sql, t.get(v + 2))) : null;
                return new Names(head.equals("names"), unquote(legible(sql, t.get(v))), collation);
            }
            case "transaction" -> {
                return transaction(sql, t.subList(at + 1, t.size()), at == 1);
            }
            default -> { }
        }
        Token nameToken = t.get(at);
        String name;
        boolean user = nameToken.kind() == TokenKind.USER_VARIABLE;
        if (user) {
            if (at == 1) {
                throw new ShardwiseException(ErrorCode.PARSE_ERROR, "near '" + sql.substring(nameToken.start()) + "'");
            }
            name = UserVariables.name(nameToken.text(sql));
        } else if (nameToken.kind() == TokenKind.SYSTEM_VARIABLE) {
            name = nameToken.text(sql).substring(2).toLowerCase(Locale.ROOT).replace("`", "");
            if (name.startsWith("global.") || name.startsWith("persist")) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "SET @@" + name + " through Shardwise (set it on each backend server)");
            }
            name = name.replaceFirst("^(session|local)\\.", "");
        } else {
            name = legible(sql, nameToken).toLowerCase(Locale.ROOT).replace("`", "");
        }
        if (!user && !SYSTEM_VARIABLE_NAME.matcher(name).matches()) {
            // every system variable is named in ASCII letters, digits and '_': no backend has this one
            throw new ShardwiseException(ErrorCode.UNKNOWN_SYSTEM_VARIABLE, name);
        }
        int eq = at + 1;
        if (eq + 1 >= t.size() || !(t.get(eq).text(sql).equals("=") || t.get(eq).text(sql).equals(":="))) {
            throw new ShardwiseException(ErrorCode.PARSE_ERROR, "near '" + sql.substring(t.get(at).start()) + "'");
        }
        String expression = sql.substring(t.get(eq + 1).start(), t.get(t.size() - 1).end()).strip();
        if (user) {
            return new User(name, expression);
        }
        TokenKind value = t.get(eq + 1).kind();
        boolean literal = t.size() == eq + 2 && value != TokenKind.SYSTEM_VARIABLE && value != TokenKind.USER_VARIABLE;
        boolean unscoped = nameToken.kind() == TokenKind.SYSTEM_VARIABLE && at == 0
                && !nameToken.text(sql).toLowerCase(Locale.ROOT).matches("@@`?(session|local)`?\\..*");
        if (unscoped && literal && !unquote(expression).equalsIgnoreCase("default")) {
            // MariaDB: @@transaction_isolation / @@transaction_read_only without a scope are the next
            // transaction's characteristics, like SET TRANSACTION (the plain name, without @@, is the session's)
            String plain = unquote(expression);
            switch (name) {
                case "transaction_isolation", "tx_isolation" -> {
                    return new Transaction(false, isolation(name, plain), null);
                }
                case "transaction_read_only", "tx_read_only" -> {
                    return new Transaction(false, null, truth(name, plain));
                }
                default -> { }
            }
        }
        if (name.equals("completion_type") && literal) {
            // kept by the session, never sent to a backend (SessionCommands): read here, so a bad value fails as MariaDB's
            return completionType(sql, t.get(eq + 1));
        }
        return new Variable(name, expression, literal);
    }

    /**
     * The text of a name token; a control character outside a string literal is a syntax error in
     * MySQL (its lexer takes it for no token), so it is 1064 near it here too, not a name.
     */
    private static String legible(String sql, Token token) {
        String text = token.text(sql);
        if (token.kind() != TokenKind.STRING) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c < 0x20 || c == 0x7f) {
                    throw new ShardwiseException(ErrorCode.PARSE_ERROR, "near '" + sql.substring(token.start() + i) + "'");
                }
            }
        }
        return text;
    }

    private static Transaction transaction(String sql, List<Token> t, boolean session) {
        StringBuilder words = new StringBuilder();
        for (Token token : t) {
            words.append(token.text(sql).toLowerCase(Locale.ROOT)).append(' ');
        }
        String text = words.toString().replace(" ,", ",");
        SessionState.Isolation isolation = null;
        Boolean readOnly = null;
        for (String part : text.split(",")) {
            String p = part.strip();
            if (p.startsWith("isolation level ")) {
                isolation = level(p.substring("isolation level ".length()).strip());
                if (isolation == null) {
                    throw new ShardwiseException(ErrorCode.PARSE_ERROR, "near '" + p.substring("isolation level ".length()).strip() + "'");
                }
            } else if (p.equals("read only")) {
                readOnly = true;
            } else if (p.equals("read write")) {
                readOnly = false;
            } else {
                throw new ShardwiseException(ErrorCode.PARSE_ERROR, "near 'TRANSACTION " + p + "'");
            }
        }
        return new Transaction(session, isolation, readOnly);
    }

    /** completion_type's values in MariaDB's order: 0 NO_CHAIN, 1 CHAIN, 2 RELEASE. */
    public static final List<String> COMPLETION_TYPES = List.of("NO_CHAIN", "CHAIN", "RELEASE");

    /**
     * {@code completion_type = literal} as MariaDB reads it, as a variable whose value is the name quoted
     * ({@code 'CHAIN'}): 0, 1, 2 or a name in any case, quoted or not; DEFAULT; RELEASE unquoted is a reserved
     * word (1064); a quoted number, another name or NULL is 1231; a decimal or float 1232.
     */
    private static Variable completionType(String sql, Token value) {
        String text = value.text(sql);
        return switch (value.kind()) {
            case INTEGER -> completionTypeNumber(text);
            case DECIMAL, DOUBLE -> throw new ShardwiseException(ErrorCode.WRONG_TYPE_FOR_VARIABLE, "completion_type");
            case STRING -> completionTypeName(unquote(text));
            case IDENTIFIER, QUOTED_IDENTIFIER, KEYWORD -> {
                String word = unquote(text);
                if (value.kind() != TokenKind.QUOTED_IDENTIFIER && word.equalsIgnoreCase("default")) {
                    yield new Variable("completion_type", word, true);
                }
                if (value.kind() != TokenKind.QUOTED_IDENTIFIER && word.equalsIgnoreCase("release")) {
                    throw new ShardwiseException(ErrorCode.PARSE_ERROR, "near '" + sql.substring(value.start()) + "'");
                }
                yield completionTypeName(word.equalsIgnoreCase("null") ? "NULL" : word);
            }
            default -> throw new ShardwiseException(ErrorCode.WRONG_VALUE_FOR_VARIABLE, "completion_type", text);
        };
    }

    /**
     * completion_type set to what an expression evaluated to ({@code SET completion_type = @x}, {@code 0 + 1}):
     * its text, a number or a name; null (SQL NULL) is 1231.
     */
    public static Variable completionType(String evaluated) {
        if (evaluated != null && !evaluated.isEmpty() && evaluated.chars().allMatch(Character::isDigit)) {
            return completionTypeNumber(evaluated);
        }
        return completionTypeName(evaluated == null ? "NULL" : evaluated);
    }

    private static Variable completionTypeNumber(String digits) {
        int index = digits.length() == 1 ? digits.charAt(0) - '0' : -1;
        if (index < 0 || index >= COMPLETION_TYPES.size()) {
            throw new ShardwiseException(ErrorCode.WRONG_VALUE_FOR_VARIABLE, "completion_type", digits);
        }
        return new Variable("completion_type", "'" + COMPLETION_TYPES.get(index) + "'", true);
    }

    private static Variable completionTypeName(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        if (!COMPLETION_TYPES.contains(upper)) {
            throw new ShardwiseException(ErrorCode.WRONG_VALUE_FOR_VARIABLE, "completion_type", name);
        }
        return new Variable("completion_type", "'" + upper + "'", true);
    }

    /**
     * A level as a variable's value spells it ({@code 'READ-COMMITTED'}, also {@code 'read committed'}).
     *
     * @param variable the variable as written, for MySQL's 1231 when the value names no level
     */
    public static SessionState.Isolation isolation(String variable, String text) {
        SessionState.Isolation level = level(text);
        if (level == null) {
            throw new ShardwiseException(ErrorCode.WRONG_VALUE_FOR_VARIABLE, variable, text);
        }
        return level;
    }

    /** A level in either spelling ({@code READ COMMITTED}, {@code READ-COMMITTED}); null when it names none. */
    private static SessionState.Isolation level(String text) {
        return switch (text.toLowerCase(Locale.ROOT).replace('-', ' ').strip()) {
            case "read uncommitted" -> SessionState.Isolation.READ_UNCOMMITTED;
            case "read committed" -> SessionState.Isolation.READ_COMMITTED;
            case "repeatable read" -> SessionState.Isolation.REPEATABLE_READ;
            case "serializable" -> SessionState.Isolation.SERIALIZABLE;
            default -> null;
        };
    }

    /** A boolean variable's value as MySQL reads it; anything else is its 1231 naming the variable. */
    public static boolean truth(String variable, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "1", "on", "true" -> true;
            case "0", "off", "false" -> false;
            default -> throw new ShardwiseException(ErrorCode.WRONG_VALUE_FOR_VARIABLE, variable, value);
        };
    }
}
