package io.shardwise.server;

import java.util.Arrays;
import java.util.Random;

/**
 * Seeded mutations of a packet's payload, as a fuzzer makes them: flipped bits, bytes set to the
 * values MySQL's encodings give meaning to (NUL, the length-encoded prefixes 0xFB..0xFE, 0xFF,
 * sign edges), cuts, growth and repeated slices. The framing stays right; the content does not.
 * One {@link Random} per hostile connection makes a failing case reproducible from its seed.
 */
final class PacketMutator {
    private static final byte[] INTERESTING = {0x00, 0x01, (byte) 0xFF, 0x7F, (byte) 0x80, (byte) 0xFB, (byte) 0xFC, (byte) 0xFD,
            (byte) 0xFE, '%', '\'', '?'};

    private PacketMutator() {}

    /** One to three mutations of {@code payload} (a new array). */
    static byte[] mutate(byte[] payload, Random rnd) {
        byte[] out = payload.clone();
        for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
            out = once(out, rnd);
        }
        return out;
    }

    private static byte[] once(byte[] p, Random rnd) {
        if (p.length == 0) {
            return randomBytes(1 + rnd.nextInt(16), rnd);
        }
        int at = rnd.nextInt(p.length);
        return switch (rnd.nextInt(7)) {
            case 0 -> {
                p[at] ^= (byte) (1 << rnd.nextInt(8));
                yield p;
            }
            case 1 -> {
                p[at] = INTERESTING[rnd.nextInt(INTERESTING.length)];
                yield p;
            }
            case 2 -> Arrays.copyOf(p, at); // cut short: fields announced but missing
            case 3 -> concat(p, randomBytes(1 + rnd.nextInt(64), rnd));
            case 4 -> { // a slice repeated in place
                int length = 1 + rnd.nextInt(Math.min(32, p.length - at));
                byte[] grown = new byte[p.length + length];
                System.arraycopy(p, 0, grown, 0, at + length);
                System.arraycopy(p, at, grown, at + length, p.length - at);
                yield grown;
            }
            case 5 -> { // a 4-byte little-endian field set to an edge (ids, counts, flags)
                int v = switch (rnd.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> -1;
                    case 2 -> Integer.MAX_VALUE;
                    default -> rnd.nextInt(8);
                };
                for (int i = 0; i < 4 && at + i < p.length; i++) {
                    p[at + i] = (byte) (v >> (8 * i));
                }
                yield p;
            }
            default -> {
                Arrays.fill(p, at, Math.min(p.length, at + 1 + rnd.nextInt(8)), (byte) 0);
                yield p;
            }
        };
    }

    static byte[] randomBytes(int n, Random rnd) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A wire packet: 3-byte little-endian length, sequence id, payload. */
    static byte[] frame(int sequenceId, byte[] payload) {
        byte[] header = {(byte) payload.length, (byte) (payload.length >> 8), (byte) (payload.length >> 16), (byte) sequenceId};
        return concat(header, payload);
    }

    static byte[] payload(byte[] wirePacket) {
        return Arrays.copyOfRange(wirePacket, 4, wirePacket.length);
    }
}
