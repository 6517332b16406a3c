package io.shardwise.core.config;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean" for misspelt keys and names: the closest candidate within a small edit distance. */
public final class Suggestions {
    private Suggestions() {}

    /** The closest candidate, or null when none is close enough to be a plausible typo. */
    public static String closest(String word, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String lower = word.toLowerCase(Locale.ROOT);
        for (String candidate : candidates) {
            int d = distance(lower, candidate.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = candidate;
            }
        }
        int allowed = Math.max(2, (word.length() + 2) / 3);
        return best != null && bestDistance <= allowed ? best : byPrefix(lower, candidates);
    }

    /** A key with a suffix added ({@code max_size} for {@code max}) is too far for the edit distance. */
    private static String byPrefix(String lower, Collection<String> candidates) {
        String best = null;
        for (String candidate : candidates) {
            String c = candidate.toLowerCase(Locale.ROOT);
            if (c.length() >= 3 && lower.startsWith(c) && (best == null || c.length() > best.length())) {
                best = candidate;
            }
        }
        return best;
    }

    /** " Did you mean 'x'?" or an empty string. */
    public static String didYouMean(String word, Collection<String> candidates) {
        String c = closest(word, candidates);
        return c == null ? "" : " Did you mean '" + c + "'?";
    }

    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
