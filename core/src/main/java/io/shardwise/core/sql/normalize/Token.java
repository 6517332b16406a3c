package io.shardwise.core.sql.normalize;

/** A token of {@link SqlLexer#tokenize}: its kind and its {@code [start, end)} span in the statement. */
public record Token(TokenKind kind, int start, int end) {
    public String text(String sql) {
        return sql.substring(start, end);
    }
}
