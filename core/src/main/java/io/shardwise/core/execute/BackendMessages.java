package io.shardwise.core.execute;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.rule.ShardingRule;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Backend error messages as the same statement on one unsharded database would read: a backend's
 * physical database becomes the logical schema and a physical table ({@code orders_0}) its logical
 * table, so {@code Table 'shop_0.nope' doesn't exist} reads {@code Table 'shop.nope' doesn't exist}.
 * Clients and ORMs match on these texts, and physical names are no business of theirs.
 *
 * <p>Only whole identifiers are replaced, never parts of longer words. A database name is replaced
 * where it qualifies something ({@code 'db.t'}, {@code `db`.`t`}), and as a whole quoted name only
 * in errors about databases (1049 ...), since a column or value may share its spelling. In errors
 * that quote the user's data (1062's duplicate value, 1366's bad value ...) that data is left
 * alone. Immutable and thread-safe; built once per engine.
 */
public final class BackendMessages {
    /** Names nothing: messages pass through unchanged (executors built without a sharding rule). */
    public static final BackendMessages NONE = new BackendMessages(null, Map.of());

    /** Errors whose quoted name is a database: unknown, exists, can't drop, access denied to it. */
    private static final Set<Integer> DATABASE_ERRORS = errnos(ErrorCode.DATABASE_EXISTS, ErrorCode.DATABASE_DOES_NOT_EXIST,
            ErrorCode.DATABASE_ACCESS_DENIED, ErrorCode.UNKNOWN_DATABASE);
    /** Errors that quote a value of the user's before " for ...": 1062/1586 duplicates, bad or truncated values. */
    private static final Set<Integer> VALUE_ERRORS = errnos(ErrorCode.DUPLICATE_ENTRY,
            ErrorCode.DUPLICATE_ENTRY_WITH_KEY_NAME, ErrorCode.OUT_OF_RANGE, ErrorCode.DATA_TRUNCATED, ErrorCode.TRUNCATED_WRONG_VALUE,
            ErrorCode.INCORRECT_VALUE_FOR_FIELD, ErrorCode.ILLEGAL_VALUE_FOR_TYPE, ErrorCode.DATA_TOO_LONG);
    private static final String IDENTIFIER_CHAR = "[\\p{L}\\p{N}_$]";

    private static Set<Integer> errnos(ErrorCode... codes) {
        return Stream.of(codes).map(ErrorCode::errno).collect(Collectors.toUnmodifiableSet());
    }

    private final String logicalSchema;
    private final Map<String, Names> byBackend;

    private BackendMessages(String logicalSchema, Map<String, Names> byBackend) {
        this.logicalSchema = logicalSchema;
        this.byBackend = byBackend;
    }

    /**
     * The physical names of every backend of {@code rule}: its database (from its URL) and the tables
     * the logical catalog renames there ({@link io.shardwise.core.rule.LogicalTables#renamedOn}).
     */
    public static BackendMessages of(ShardingRule rule) {
        Map<String, Names> byBackend = new HashMap<>();
        for (BackendConfig b : rule.config().backends().values()) {
            Names names = Names.of(b.address().database(), rule.logicalTables().renamedOn(b.name()));
            if (names != null) {
                byBackend.put(b.name(), names);
            }
        }
        return new BackendMessages(rule.schema(), Map.copyOf(byBackend));
    }

    /** {@code message}, an error {@code errno} of {@code backend}, with logical names. */
    public String logical(String backend, int errno, String message) {
        Names names = byBackend.get(backend);
        if (names == null || message == null) {
            return message;
        }
        int from = 0;
        if (VALUE_ERRORS.contains(errno)) {
            int quote = message.indexOf('\'');
            int after = quote < 0 ? -1 : message.indexOf("' for ", quote + 1);
            if (after < 0) {
                return message; // the message quotes nothing but the user's value
            }
            from = after + 1;
        }
        return message.substring(0, from) + names.replace(message.substring(from), logicalSchema, DATABASE_ERRORS.contains(errno));
    }


    /** One backend's physical names, in one pattern that finds them as whole identifiers. */
    private record Names(String database, Map<String, String> tables, Pattern pattern) {
        static Names of(String database, Map<String, String> tables) {
            List<String> all = new ArrayList<>(tables.keySet());
            if (database != null) {
                all.add(database);
            }
            if (all.isEmpty()) {
                return null;
            }
            all.sort(Comparator.comparingInt(String::length).reversed()); // a longer name wins over its prefix
            StringBuilder alternatives = new StringBuilder();
            for (String name : all) {
                alternatives.append(alternatives.isEmpty() ? "" : "|").append(Pattern.quote(name));
            }
            Pattern p = Pattern.compile("(?<!" + IDENTIFIER_CHAR + ")(?:" + alternatives + ")(?!" + IDENTIFIER_CHAR + ")",
                    Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
            return new Names(database, Map.copyOf(tables), p);
        }

        String replace(String text, String logicalSchema, boolean databaseError) {
            Matcher m = pattern.matcher(text);
            StringBuilder out = null;
            int last = 0;
            while (m.find()) {
                String found = m.group();
                String logical;
                if (database != null && found.equalsIgnoreCase(database)) {
                    logical = qualifies(text, m.end()) || databaseError && quotedWhole(text, m.start(), m.end()) ? logicalSchema : null;
                } else {
                    logical = tables.get(found.toLowerCase(Locale.ROOT));
                }
                if (logical == null) {
                    continue;
                }
                if (out == null) {
                    out = new StringBuilder(text.length());
                }
                out.append(text, last, m.start()).append(logical);
                last = m.end();
            }
            return out == null ? text : out.append(text, last, text.length()).toString();
        }

        /** {@code db.} or {@code `db`.} */
        private static boolean qualifies(String text, int end) {
            return end < text.length() && (text.charAt(end) == '.'
                    || text.charAt(end) == '`' && end + 1 < text.length() && text.charAt(end + 1) == '.');
        }

        private static boolean quotedWhole(String text, int start, int end) {
            if (start == 0 || end >= text.length()) {
                return false;
            }
            char open = text.charAt(start - 1);
            return (open == '\'' || open == '`' || open == '"') && text.charAt(end) == open;
        }
    }
}
