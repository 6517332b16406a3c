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

    /** The hash of {@code Long.toString(value)}'s UTF-8 bytes, without building the string. */
    static int hash32Decimal(long value) {
        byte[] digits = new byte[20]; // small and local: the JIT keeps it off the heap
        int at = digits.length;
        long v = value;
        boolean negative = v < 0;
        do {
            int d = (int) (v % 10);
            digits[--at] = (byte) ('0' + (negative ? -d : d));
            v /= 10;
        } while (v != 0);
        if (negative) {
            digits[--at] = '-';
        }
        return hash32(digits, at, digits.length - at);
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
