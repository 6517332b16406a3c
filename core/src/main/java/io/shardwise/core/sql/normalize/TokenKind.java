package io.shardwise.core.sql.normalize;

/** The kinds of token {@link SqlLexer} produces. Literal kinds name the {@link LiteralKind} they become. */
public enum TokenKind {
    IDENTIFIER(null),
    /** {@code `name`}, with {@code ``} standing for one backtick. */
    QUOTED_IDENTIFIER(null),
    /** A word of {@link Keywords}: reserved or not, or a built-in function name. */
    KEYWORD(null),
    INTEGER(LiteralKind.INTEGER),
    DECIMAL(LiteralKind.DECIMAL),
    DOUBLE(LiteralKind.DOUBLE),
    /** Includes a charset introducer or {@code N} prefix and every adjacent string literal. */
    STRING(LiteralKind.STRING),
    HEX(LiteralKind.HEX),
    BIT(LiteralKind.BIT),
    /** {@code DATE 'x'}: the keyword and the string are one token. */
    DATE(LiteralKind.DATE),
    TIME(LiteralKind.TIME),
    TIMESTAMP(LiteralKind.TIMESTAMP),
    /** {@code @v}, {@code @'v'}, {@code @`v`}. */
    USER_VARIABLE(null),
    /** {@code @@v}, {@code @@session.v}. */
    SYSTEM_VARIABLE(null),
    /** The client's {@code ?} marker. */
    PARAMETER(LiteralKind.PARAMETER),
    OPERATOR(null),
    LEFT_PAREN(null),
    RIGHT_PAREN(null),
    COMMA(null),
    DOT(null),
    SEMICOLON(null),
    /** {@code /*+ ... *}{@code /}: optimizer hints change plans, so they stay verbatim. */
    HINT(null),
    /** {@code /*! ... *}{@code /} (and MariaDB's {@code /*M! ... *}{@code /}): MySQL executes the content. */
    EXECUTABLE_COMMENT(null),
    EOF(null);

    private final LiteralKind literalKind;

    TokenKind(LiteralKind literalKind) {
        this.literalKind = literalKind;
    }

    /** The literal this token becomes in a digest, or null for tokens the digest keeps. */
    public LiteralKind literalKind() {
        return literalKind;
    }

    /** A value literal: a number, string, hex, bit or typed literal (not the {@code ?} marker). */
    public boolean isLiteral() {
        return literalKind != null && this != PARAMETER;
    }

    public boolean isNumber() {
        return this == INTEGER || this == DECIMAL || this == DOUBLE;
    }
}
