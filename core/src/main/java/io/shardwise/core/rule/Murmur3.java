package io.shardwise.core.rule;

/**
 * MurmurHash3 x86 32-bit (Austin Appleby's public-domain reference), seed 0. Written out here
 * because the hash placement of rows must never change with a library upgrade; tests pin it
 * against known vectors and against Guava's implementation.
 */
final class Murmur3 {
    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private Murmur3() {}

    static int hash32(byte[] data, int offset, int length) {
        int h = 0;
        int blocks = offset + (length & ~3);
        for (int i = offset; i < blocks; i += 4) {
            int k = (data[i] & 0xff) | (data[i + 1] & 0xff) << 8 | (data[i + 2] & 0xff) << 16 | (data[i + 3] & 0xff) << 24;
            h ^= mixK(k);
            h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
        }
        int k = 0;
        switch (length & 3) {
            case 3:
                k ^= (data[blocks + 2] & 0xff) << 16;
                // fall through
            case 2:
                k ^= (data[blocks + 1] & 0xff) << 8;
                // fall through
            case 1:
                k ^= data[blocks] & 0xff;
                h ^= mixK(k);
                break;
            default:
                break;
        }
        h ^= length;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        long p = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = p;
            p *= 10;
        }
    }

    /**
     * The hash of {@code Long.toString(value)}'s UTF-8 bytes, without building the string or an array
     * (the JIT did not keep a local digit array off the heap: 40 bytes per hashed key): the characters
     * are taken from the most significant digit on and fed to the blocks as {@link #hash32} reads them.
     */
    static int hash32Decimal(long value) {
        boolean negative = value < 0;
        int digits = 1;
        for (long v = value / 10; v != 0; v /= 10) {
            digits++;
        }
        int length = digits + (negative ? 1 : 0);
        int h = 0;
        int k = 0;
        int filled = 0;
        for (int i = 0; i < length; i++) {
            int c;
            if (negative && i == 0) {
                c = '-';
            } else {
                int place = digits - 1 - (negative ? i - 1 : i);
                c = '0' + Math.abs((int) (value / POWERS_OF_TEN[place] % 10));
            }
            k |= c << (8 * filled);
            if (++filled == 4) {
                h ^= mixK(k);
                h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
                k = 0;
                filled = 0;
            }
        }
        if (filled > 0) {
            h ^= mixK(k);
        }
        h ^= length;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    static int hash32(byte[] data) {
        return hash32(data, 0, data.length);
    }

    private static int mixK(int k) {
        k *= C1;
        k = Integer.rotateLeft(k, 15);
        return k * C2;
    }
}
