package io.shardwise.core.sql.normalize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random statements from a small grammar, each rendered twice with different whitespace, comments,
 * keyword case and literal values, and random character soup. Seeded: a failure names its seed.
 */
class NormalizerFuzzTest {
    private static final int STATEMENTS = 3_000;
    private static final String[] TABLES = {"sbtest1", "t", "`Order`", "db.t2", "Small"};
    private static final String[] COLUMNS = {"id", "k", "c", "pad", "t.id", "`se;lect`", "名前"};
    private static final String[] SEPARATORS = {" ", "  ", "\n", "\t", " /* c */ ", "/**/", " -- x\n", " # y\n", "\r\n "};

    @Test
    void renderingsThatDifferOnlyInSpacingCommentsCaseAndValuesShareDigestAndLiteralCount() {
        for (int seed = 0; seed < STATEMENTS; seed++) {
            Random random = new Random(seed);
            List<Piece> statement = new Grammar(random).statement();
            String first = render(statement, new Random(seed * 31L + 1));
            String second = render(statement, new Random(seed * 31L + 2));
            try {
                NormalizedSql a = Normalizer.normalize(first);
                NormalizedSql b = Normalizer.normalize(second);
                assertEquals(a.digest(), b.digest());
                assertEquals(a.digestHash(), b.digestHash());
                assertEquals(markers(a.digest()), a.literals().size());
                assertEquals(a.literals().stream().map(Literal::kind).toList(), b.literals().stream().map(Literal::kind).toList());
                a.literals().forEach(Literal::value);
                NormalizedSql again = Normalizer.normalize(a.digest());
                assertEquals(a.digest(), again.digest(), "digest is not a fixed point");
                assertTrue(again.literals().stream().allMatch(Literal::isParameter));
            } catch (AssertionError | RuntimeException e) {
                fail("seed " + seed + ":\n" + first + "\n" + second, e);
            }
        }
    }

    @Test
    void characterSoupEitherNormalizesOrIsAParseError() {
        String alphabet = "ab_1 .,;()'\"`\\/*-+#@?!=<>:&|\nxXbBN0e";
        for (int seed = 0; seed < 20_000; seed++) {
            Random random = new Random(seed);
            StringBuilder sql = new StringBuilder();
            for (int i = random.nextInt(30); i > 0; i--) {
                sql.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            try {
                NormalizedSql n = Normalizer.normalize(sql.toString());
                n.literals().forEach(Literal::value);
                assertEquals(n.digest().length(), n.digestLength());
                assertEquals(NormalizedSql.hashOf(n.digest()), n.digestHash());
            } catch (ShardwiseException e) {
                assertEquals(ErrorCode.PARSE_ERROR, e.code(), sql::toString);
            } catch (RuntimeException e) {
                fail("seed " + seed + ": " + sql, e);
            }
        }
    }

    private static int markers(String digest) {
        return (int) SqlLexer.tokenize(digest).stream().filter(t -> t.kind() == TokenKind.PARAMETER).count();
    }

    /** A word (separated from neighbours), punctuation, or a literal rendered afresh each time. */
    private record Piece(String text, boolean keyword, int literal) {
        static Piece word(String w) {
            return new Piece(w, false, -1);
        }

        static Piece kw(String w) {
            return new Piece(w, true, -1);
        }

        static Piece lit(int kind) {
            return new Piece(null, false, kind);
        }
    }

    private static String render(List<Piece> pieces, Random random) {
        StringBuilder out = new StringBuilder(random.nextBoolean() ? "" : "/* lead */ ");
        for (Piece p : pieces) {
            out.append(SEPARATORS[random.nextInt(SEPARATORS.length)]);
            if (p.keyword()) {
                out.append(randomCase(p.text(), random));
            } else if (p.literal() >= 0) {
                out.append(literal(p.literal(), random));
            } else {
                out.append(p.text());
            }
        }
        return out.append(random.nextBoolean() ? ";" : "").toString();
    }

    private static String randomCase(String word, Random random) {
        StringBuilder out = new StringBuilder();
        for (char c : word.toCharArray()) {
            out.append(random.nextBoolean() ? Character.toUpperCase(c) : Character.toLowerCase(c));
        }
        return out.toString();
    }

    private static final int LITERAL_KINDS = 13;

    private static String literal(int kind, Random random) {
        int n = random.nextInt(100_000);
        return switch (kind) {
            case 0 -> Integer.toString(n);
            case 1 -> "-" + (random.nextBoolean() ? " " : "") + n;
            case 2 -> n + "." + random.nextInt(100);
            case 3 -> n + "e" + (random.nextBoolean() ? "-" : "") + random.nextInt(20);
            case 4 -> "'" + List.of("x", "it''s", "a\\'b", "semi;colon", "-- not a comment", "ü😀", "\\\\")
                    .get(random.nextInt(7)) + n + "'";
            case 5 -> "\"q" + n + "\\\"\"";
            case 6 -> "X'" + String.format("%04x", n % 65536) + "'";
            case 7 -> "0x" + Integer.toHexString(n + 1);
            case 8 -> "b'" + Integer.toBinaryString(n) + "'";
            case 9 -> "DATE '2024-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(10) + "'";
            case 10 -> "_utf8mb4'" + n + "'" + (random.nextBoolean() ? " 'more'" : "");
            case 11 -> "N'" + n + "'";
            default -> "?";
        };
    }

    private static final class Grammar {
        private final Random random;

        Grammar(Random random) {
            this.random = random;
        }

        List<Piece> statement() {
            List<Piece> out = new ArrayList<>();
            switch (random.nextInt(4)) {
                case 0 -> select(out);
                case 1 -> {
                    add(out, "UPDATE");
                    out.add(Piece.word(pick(TABLES)));
                    add(out, "SET");
                    out.add(Piece.word(pick(COLUMNS)));
                    out.add(Piece.word("="));
                    value(out);
                    where(out);
                }
                case 2 -> {
                    add(out, "INSERT", "INTO");
                    out.add(Piece.word(pick(TABLES)));
                    add(out, "VALUES");
                    for (int row = random.nextInt(3); row >= 0; row--) {
                        out.add(Piece.word("("));
                        for (int i = random.nextInt(4); i >= 0; i--) {
                            value(out);
                            if (i > 0) {
                                out.add(Piece.word(","));
                            }
                        }
                        out.add(Piece.word(")"));
                        if (row > 0) {
                            out.add(Piece.word(","));
                        }
                    }
                }
                default -> {
                    add(out, "DELETE", "FROM");
                    out.add(Piece.word(pick(TABLES)));
                    where(out);
                }
            }
            return out;
        }

        private void select(List<Piece> out) {
            add(out, "SELECT");
            if (random.nextBoolean()) {
                add(out, "DISTINCT");
            }
            switch (random.nextInt(3)) {
                case 0 -> out.add(Piece.word(pick(COLUMNS)));
                case 1 -> {
                    add(out, "COUNT");
                    out.add(Piece.word("("));
                    out.add(Piece.word("*"));
                    out.add(Piece.word(")"));
                }
                default -> {
                    out.add(Piece.word(pick(COLUMNS)));
                    out.add(Piece.word(random.nextBoolean() ? "+" : "-"));
                    value(out);
                }
            }
            add(out, "FROM");
            out.add(Piece.word(pick(TABLES)));
            where(out);
            if (random.nextBoolean()) {
                add(out, "ORDER", "BY");
                out.add(Piece.word(pick(COLUMNS)));
                add(out, random.nextBoolean() ? "ASC" : "DESC");
            }
            if (random.nextBoolean()) {
                add(out, "LIMIT");
                out.add(Piece.lit(0));
            }
        }

        private void where(List<Piece> out) {
            add(out, "WHERE");
            condition(out, 0);
        }

        private void condition(List<Piece> out, int depth) {
            switch (random.nextInt(depth > 2 ? 3 : 5)) {
                case 0 -> {
                    out.add(Piece.word(pick(COLUMNS)));
                    out.add(Piece.word(pick(new String[] {"=", "<", ">=", "<=>", "!="})));
                    value(out);
                }
                case 1 -> {
                    out.add(Piece.word(pick(COLUMNS)));
                    add(out, "IN");
                    out.add(Piece.word("("));
                    for (int i = random.nextInt(4); i >= 0; i--) {
                        value(out);
                        if (i > 0) {
                            out.add(Piece.word(","));
                        }
                    }
                    out.add(Piece.word(")"));
                }
                case 2 -> {
                    out.add(Piece.word(pick(COLUMNS)));
                    add(out, "BETWEEN");
                    value(out);
                    add(out, "AND");
                    value(out);
                }
                case 3 -> {
                    condition(out, depth + 1);
                    add(out, random.nextBoolean() ? "AND" : "OR");
                    condition(out, depth + 1);
                }
                default -> {
                    out.add(Piece.word("("));
                    condition(out, depth + 1);
                    out.add(Piece.word(")"));
                }
            }
        }

        private void value(List<Piece> out) {
            out.add(Piece.lit(random.nextInt(LITERAL_KINDS)));
        }

        private void add(List<Piece> out, String... keywords) {
            for (String k : keywords) {
                out.add(Piece.kw(k));
            }
        }

        private String pick(String[] options) {
            return options[random.nextInt(options.length)];
        }
    }
}
