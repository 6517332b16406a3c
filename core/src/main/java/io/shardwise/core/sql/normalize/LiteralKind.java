package io.shardwise.core.sql.normalize;

/**
 * What a {@code ?} of a digest stands for, and so which Java type {@link Literal#value()} decodes to.
 */
public enum LiteralKind {
    /** {@code 42}, {@code -5}: a {@code Long}, or a {@code BigInteger} beyond the long range. */
    INTEGER,
    /** {@code 1.5}, {@code .5}, {@code 1.}: a {@code BigDecimal} (MySQL's exact-value literal). */
    DECIMAL,
    /** {@code 1e3}, {@code 1.5E-3}: a {@code Double} (MySQL's approximate-value literal). */
    DOUBLE,
    /**
     * {@code 'x'}, {@code "x"}, {@code N'x'}, {@code _utf8mb4'x'}, adjacent {@code 'a' 'b'}: a
     * {@code String}; {@code byte[]} (UTF-8) after the {@code _binary} introducer.
     */
    STRING,
    /** {@code 0x1F}, {@code X'1F'}: a {@code byte[]}; a {@code String} after a text introducer. */
    HEX,
    /** {@code 0b101}, {@code b'101'}: a {@code byte[]} of ceil(bits / 8) bytes. */
    BIT,
    /** {@code DATE 'x'}: a {@code LocalDate}, or the {@code String} when it is not an ISO date. */
    DATE,
    /** {@code TIME 'x'}: a {@code LocalTime}, or the {@code String} (MySQL times may exceed 24 h). */
    TIME,
    /** {@code TIMESTAMP 'x'}: a {@code LocalDateTime}, or the {@code String}. */
    TIMESTAMP,
    /** The client's own {@code ?} marker: no value; {@link Literal#paramIndex()} numbers it. */
    PARAMETER
}
