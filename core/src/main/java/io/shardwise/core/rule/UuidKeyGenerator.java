package io.shardwise.core.rule;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * UUID strings (36 characters). Version 4 (random) by default; version 7 (RFC 9562: time-ordered,
 * 48-bit Unix milliseconds then random bits) keeps InnoDB primary-key inserts in order.
 */
public final class UuidKeyGenerator implements KeyGenerator {
    private final int version;
    private final LongSupplier clock;
    private final SecureRandom random = new SecureRandom();

    public UuidKeyGenerator(int version, LongSupplier clock) {
        if (version != 4 && version != 7) {
            throw new IllegalArgumentException("uuid version " + version);
        }
        this.version = version;
        this.clock = clock;
    }

    @Override
    public Object next() {
        if (version == 4) {
            return UUID.randomUUID().toString();
        }
        long millis = clock.getAsLong();
        long high = (millis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | (random.nextInt() & 0x0FFF);
        long low = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(high, low).toString();
    }
}
