package io.shardwise.core.merge;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * The text a computed column's value is sent as, by the column definition MySQL gave the expression
 * (the units computed it too): DECIMAL at the column's scale, rounded half up; DOUBLE as MySQL prints
 * doubles; integers whole, beyond their range an error (1690) as MySQL raises it; a string or
 * temporal result (COALESCE, IF over such operands) is the chosen operand's own text.
 */
final class ComputedText {
    private static final int NEWDECIMAL = 246;
    private static final int OLD_DECIMAL = 0;
    private static final BigDecimal BIGINT_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal BIGINT_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal UNSIGNED_MAX = new BigDecimal(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE));

    private ComputedText() {}

    static byte[] of(Object v, Column type) {
        return switch (ValueOrder.of(type)) {
            case FLOATING -> NumberText.floating(ExprEvaluator.toDouble(v), type.decimals());
            case NUMBER -> {
                BigDecimal exact = v instanceof BigDecimal d ? d : new BigDecimal(ExprEvaluator.toDouble(v));
                if (type.mysqlType() == NEWDECIMAL || type.mysqlType() == OLD_DECIMAL) {
                    yield NumberText.decimal(exact, type.decimals());
                }
                BigDecimal integer = exact.setScale(0, RoundingMode.HALF_UP);
                boolean unsigned = type.isUnsigned();
                if (integer.compareTo(unsigned ? BigDecimal.ZERO : BIGINT_MIN) < 0
                        || integer.compareTo(unsigned ? UNSIGNED_MAX : BIGINT_MAX) > 0) {
                    throw new ShardwiseException(ErrorCode.BIGINT_OUT_OF_RANGE, type.name());
                }
                yield NumberText.ascii(integer.toPlainString());
            }
            // a string or temporal result is one of its operands as it came (COALESCE, IF): its own text
            case DATETIME, TIME, BYTES -> {
                if (v instanceof ExprEvaluator.Text t) {
                    yield t.bytes();
                }
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "an expression over aggregates mixing numbers into a "
                        + "string result across shards: " + type.name());
            }
            case BITS -> throw new ShardwiseException(ErrorCode.UNSUPPORTED,
                    "an expression over aggregates of this type across shards: " + type.name());
        };
    }
}
