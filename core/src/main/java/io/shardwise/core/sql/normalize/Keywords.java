package io.shardwise.core.sql.normalize;

/**
 * MySQL 8.4 keywords and built-in function names, looked up case-insensitively straight from a
 * region of the statement (no substring, no lower-casing copy): the lexer calls {@link #lookup}
 * for every word. Ids are indexes into one table, stable for the life of the JVM.
 *
 * <p>Reserved words cannot be unquoted identifiers (except after a {@code .}); non-reserved words
 * and function names can, which is why the normalizer keeps the case of a non-reserved word where
 * it names a table or alias (see {@link Normalizer}). This class is long because it is data.
 */
public final class Keywords {
    /** Reserved in MySQL 8.4 ("Keywords and Reserved Words", the (R) entries). */
    private static final String RESERVED = """
            accessible add all alter analyze and as asc asensitive before between bigint binary blob
            both by call cascade case change char character check collate column condition constraint
            continue convert create cross cube cume_dist current_date current_time current_timestamp
            current_user cursor database databases day_hour day_microsecond day_minute day_second dec
            decimal declare default delayed delete dense_rank desc describe deterministic distinct
            distinctrow div double drop dual each else elseif empty enclosed escaped except exists exit
            explain false fetch first_value float float4 float8 for force foreign from fulltext function
            generated get grant group grouping groups having high_priority hour_microsecond hour_minute
            hour_second if ignore in index infile inner inout insensitive insert int int1 int2 int3 int4
            int8 integer intersect interval into io_after_gtids io_before_gtids is iterate join json_table
            key keys kill lag last_value lateral lead leading leave left like limit linear lines load
            localtime localtimestamp lock long longblob longtext loop low_priority manual master_bind
            master_ssl_verify_server_cert match maxvalue mediumblob mediumint mediumtext middleint
            minute_microsecond minute_second mod modifies natural not no_write_to_binlog nth_value ntile
            null numeric of on optimize optimizer_costs option optionally or order out outer outfile over
            parallel partition percent_rank precision primary procedure purge qualify range rank read reads
            read_write real recursive references regexp release rename repeat replace require resignal
            restrict return revoke right rlike row rows row_number schema schemas second_microsecond select
            sensitive separator set show signal smallint spatial specific sql sqlexception sqlstate
            sqlwarning sql_big_result sql_calc_found_rows sql_small_result ssl starting stored straight_join
            system table tablesample terminated then tinyblob tinyint tinytext to trailing trigger true undo
            union unique unlock unsigned update usage use using utc_date utc_time utc_timestamp values
            varbinary varchar varcharacter varying virtual when where while window with write xor
            year_month zerofill
            """;

    /** Reserved words that are also called as functions: no space before their {@code (}. */
    private static final String RESERVED_FUNCTIONS = """
            char convert cume_dist current_date current_time current_timestamp current_user database
            dense_rank first_value grouping if insert json_table lag last_value lead left localtime
            localtimestamp match mod nth_value ntile percent_rank rank repeat replace right row row_number
            schema utc_date utc_time utc_timestamp
            """;

    /** Reserved words that are values: a minus after them is binary ({@code NULL - 5}). */
    private static final String RESERVED_VALUES = """
            null true false current_date current_time current_timestamp current_user localtime
            localtimestamp utc_date utc_time utc_timestamp maxvalue default
            """;

    /** Non-reserved keywords of DML, DDL, SET, SHOW and transaction statements. */
    private static final String NON_RESERVED = """
            action after against aggregate algorithm always any ascii at auto_increment avg
            avg_row_length begin binlog bit bool boolean btree cache cascaded chain changed channel charset
            checksum close code collation columns column_format comment commit committed compact compressed
            compression concurrent connection consistent contains context cpu current data date datetime
            day deallocate definer delay_key_write directory disable discard disk do duplicate dynamic
            enable encryption end engine engines enum errors escape event events every exchange exclude
            execute expansion expire extended fields file first fixed flush following format found full
            general geometry global grants handler hash help host hosts hour identified import indexes
            inplace insert_method instant invisible invoker isolation json key_block_size language last
            level list local locked locks logs master max_rows medium memory merge microsecond migrate
            min_rows minute mode modify month name names national nchar never new next no nodegroup none
            nowait nulls offset old only open optimizer options ordinality others owner pack_keys page
            parser partial partitioning partitions password persist persist_only plugins point preceding
            prepare preserve prev privileges process processlist profile profiles quarter query quick
            rebuild recover redundant relay reload remove reorganize repair repeatable replica replicas
            replication reset restart resume returns reuse role rollback rollup routine row_format
            savepoint schedule second security serial serializable server session share shared shutdown
            signed simple skip slave snapshot some sounds source sql_buffer_result sql_no_cache start starts
            stats_auto_recalc stats_persistent status stop storage string subpartition subpartitions super
            suspend tables tablespace temporary temptable text than ties time timestamp timestampadd
            timestampdiff transaction triggers truncate type types unbounded uncommitted undefined unknown
            until upgrade user validation value variables view visible wait warnings week without work
            wrapper xa xml year zone
            """;

    /** Built-in functions that are not keywords. */
    private static final String FUNCTIONS = """
            abs acos adddate addtime aes_decrypt aes_encrypt any_value asin atan atan2 benchmark bin
            bin_to_uuid bit_and bit_count bit_length bit_or bit_xor cast ceil ceiling char_length
            character_length coalesce coercibility concat concat_ws connection_id conv convert_tz cos cot
            count crc32 curdate curtime date_add date_format date_sub datediff dayname dayofmonth dayofweek
            dayofyear degrees elt exp export_set extract field find_in_set floor found_rows from_base64
            from_days from_unixtime get_format get_lock greatest group_concat hex ifnull inet_aton
            inet_ntoa inet6_aton inet6_ntoa instr is_free_lock is_used_lock isnull json_array
            json_arrayagg json_contains json_contains_path json_extract json_keys json_length json_object
            json_objectagg json_quote json_remove json_replace json_search json_set json_type json_unquote
            json_valid last_day last_insert_id lcase least length ln locate log log10 log2 lower lpad
            ltrim makedate maketime max md5 mid min monthname now nullif oct octet_length ord period_add
            period_diff pi position pow power quote radians rand regexp_instr regexp_like regexp_replace
            regexp_substr release_lock reverse round row_count rpad rtrim sec_to_time sha sha1 sha2 sign
            sin sleep space sqrt std stddev stddev_pop stddev_samp str_to_date strcmp subdate substr
            substring substring_index sum sysdate tan time_format time_to_sec timediff to_base64 to_days
            to_seconds trim ucase unhex unix_timestamp upper uuid uuid_short uuid_to_bin var_pop var_samp
            variance version weekday weekofyear weight_string yearweek
            """;

    static final int RESERVED_FLAG = 1;
    static final int FUNCTION_FLAG = 2;
    static final int VALUE_FLAG = 4;

    private static final int MASK = 4095;
    private static final String[] WORDS = new String[MASK + 1];
    private static final byte[] FLAGS = new byte[MASK + 1];
    /** Open addressing: slot → id + 1, 0 when empty. Ids are slot numbers of WORDS. */
    private static final int[] SLOTS = new int[MASK + 1];
    private static int count;

    static {
        add(RESERVED, RESERVED_FLAG);
        add(RESERVED_FUNCTIONS, FUNCTION_FLAG);
        add(RESERVED_VALUES, VALUE_FLAG);
        add(NON_RESERVED, 0);
        add(FUNCTIONS, 0);
    }

    static final int DATE = require("date");
    static final int TIME = require("time");
    static final int TIMESTAMP = require("timestamp");
    static final int INTERVAL = require("interval");
    static final int FROM = require("from");
    static final int JOIN = require("join");
    static final int STRAIGHT_JOIN = require("straight_join");
    static final int INTO = require("into");
    static final int UPDATE = require("update");
    static final int TABLE = require("table");
    static final int AS = require("as");

    private Keywords() {}

    /** The keyword id of {@code sql[start, end)} ignoring ASCII case, or -1. Allocation-free. */
    public static int lookup(CharSequence sql, int start, int end) {
        int h = 0;
        for (int i = start; i < end; i++) {
            char c = sql.charAt(i);
            if (c >= 0x80) {
                return -1;
            }
            h = 31 * h + lower(c);
        }
        int len = end - start;
        for (int slot = spread(h); ; slot = (slot + 1) & MASK) {
            int entry = SLOTS[slot];
            if (entry == 0) {
                return -1;
            }
            String word = WORDS[entry - 1];
            if (word.length() == len && regionEqualsLower(sql, start, word)) {
                return entry - 1;
            }
        }
    }

    /** The keyword's lower-case spelling, as digests print it. */
    public static String text(int id) {
        return WORDS[id];
    }

    public static boolean isReserved(int id) {
        return (FLAGS[id] & RESERVED_FLAG) != 0;
    }

    static int flags(int id) {
        return FLAGS[id];
    }

    static int size() {
        return count;
    }

    static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    private static boolean regionEqualsLower(CharSequence sql, int start, String word) {
        for (int i = 0; i < word.length(); i++) {
            if (lower(sql.charAt(start + i)) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int spread(int h) {
        h ^= h >>> 16;
        h *= 0x45d9f3b;
        h ^= h >>> 16;
        return h & MASK;
    }

    private static void add(String words, int flag) {
        for (String word : words.strip().split("\\s+")) {
            int id = lookup(word, 0, word.length());
            if (id < 0) {
                int h = 0;
                for (int i = 0; i < word.length(); i++) {
                    h = 31 * h + word.charAt(i);
                }
                int slot = spread(h);
                while (SLOTS[slot] != 0) {
                    slot = (slot + 1) & MASK;
                }
                id = slot;
                WORDS[id] = word;
                SLOTS[slot] = id + 1;
                count++;
            }
            FLAGS[id] |= (byte) flag;
        }
    }

    private static int require(String word) {
        int id = lookup(word, 0, word.length());
        if (id < 0) {
            throw new IllegalStateException("missing keyword " + word);
        }
        return id;
    }
}
