package io.shardwise.core.merge;

import java.util.Arrays;

/**
 * The identities GROUP BY and DISTINCT have met, looked up by the current row's cells in place: a probe
 * hashes and compares the row's own bytes, so a row whose key is already known costs no allocation, and
 * only a new key is kept (as a row the caller owns). Entries are numbered 0, 1, ... in order of first
 * appearance, which is the order hashed groups leave in.
 *
 * <p>Key {@code i} of a row is NULL when its value column is NULL (NULL equals NULL, as GROUP BY and
 * DISTINCT treat it, even when the identity column is NULL too); otherwise it is the bytes of its identity
 * column (the WEIGHT_STRING column, or the value column itself), a NULL identity counting as empty. A kept
 * row is read at its own column numbers, which may differ from the probed rows' (a compact key row).
 *
 * <p>Hazard: a kept row must not change while the table is in use.
 */
final class KeyTable {
    private static final byte[] EMPTY = new byte[0];
    private static final int NULL_HASH = 0x9E3779B9;

    private final int[] rowValue;
    private final int[] rowIdentity;
    private final int[] keptValue;
    private final int[] keptIdentity;
    /** Open addressing, linear probing: entry number + 1, 0 when free. */
    private int[] slots;
    private int[] hashes;
    private byte[][][] kept;
    private int size;
    private int probeHash;

    KeyTable(int[] rowValue, int[] rowIdentity, int[] keptValue, int[] keptIdentity, int expected) {
        this.rowValue = rowValue;
        this.rowIdentity = rowIdentity;
        this.keptValue = keptValue;
        this.keptIdentity = keptIdentity;
        int capacity = Integer.highestOneBit(Math.max(8, expected) * 2 - 1) << 1; // load at most 1/2
        slots = new int[capacity];
        hashes = new int[Math.max(8, expected)];
        kept = new byte[hashes.length][][];
    }

    /** The entry whose key equals {@code row}'s, else -1; either way {@link #add} may follow for this row. */
    int find(Row row) {
        int h = hash(row);
        probeHash = h;
        int mask = slots.length - 1;
        for (int s = spread(h) & mask; ; s = (s + 1) & mask) {
            int e = slots[s] - 1;
            if (e < 0) {
                return -1;
            }
            if (hashes[e] == h && sameKey(kept[e], row)) {
                return e;
            }
        }
    }

    /**
     * Adds {@code key}, a row holding the key of the row {@link #find} last missed (at the kept column
     * numbers), and returns its entry number.
     */
    int add(byte[][] key) {
        if (size == kept.length) {
            kept = Arrays.copyOf(kept, size * 2);
            hashes = Arrays.copyOf(hashes, size * 2);
        }
        if ((size + 1) * 2 > slots.length) {
            rehash(slots.length * 2);
        }
        int e = size++;
        kept[e] = key;
        hashes[e] = probeHash;
        insert(e);
        return e;
    }

    int size() {
        return size;
    }

    /** The key cells of {@code row}, at the probed column numbers, as a compact row a DISTINCT keeps (key i at i). */
    byte[][] keyOf(Row row) {
        byte[][] key = new byte[rowValue.length][];
        for (int i = 0; i < key.length; i++) {
            key[i] = row.get(rowValue[i]) == null ? null : orEmpty(row.get(rowIdentity[i])).clone();
        }
        return key;
    }

    private int hash(Row row) {
        int h = 1;
        for (int i = 0; i < rowValue.length; i++) {
            h = 31 * h + (row.get(rowValue[i]) == null ? NULL_HASH : Arrays.hashCode(orEmpty(row.get(rowIdentity[i]))));
        }
        return h;
    }

    private boolean sameKey(byte[][] key, Row row) {
        for (int i = 0; i < rowValue.length; i++) {
            boolean keyNull = key[keptValue[i]] == null;
            boolean rowNull = row.get(rowValue[i]) == null;
            if (keyNull || rowNull) {
                if (keyNull != rowNull) {
                    return false;
                }
                continue;
            }
            if (!Arrays.equals(orEmpty(key[keptIdentity[i]]), orEmpty(row.get(rowIdentity[i])))) {
                return false;
            }
        }
        return true;
    }

    private void rehash(int capacity) {
        slots = new int[capacity];
        for (int e = 0; e < size; e++) {
            insert(e);
        }
    }

    private void insert(int e) {
        int mask = slots.length - 1;
        int s = spread(hashes[e]) & mask;
        while (slots[s] != 0) {
            s = (s + 1) & mask;
        }
        slots[s] = e + 1;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }

    private static byte[] orEmpty(byte[] v) {
        return v == null ? EMPTY : v;
    }
}
