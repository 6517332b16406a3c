package io.shardwise.core.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No MySQL error number is written in main code outside {@link ErrorCode}: every module's sources
 * are scanned (comments ignored, since they may cite a code). A number counts as an error code when
 * it is followed by a SQLSTATE literal ({@code 1047, "08S01"}) or sits in a statement about errors
 * (an identifier containing "err", or an {@code ER_} constant). The scanner itself is tested on
 * fixtures below, so a regression in it cannot pass silently.
 */
class ErrorNumbersTest {
    private static final Path CATALOGUE = Path.of("io", "shardwise", "core", "error", "ErrorCode.java");
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])(\\d{4,5})(?![\\w.])");
    private static final Pattern WITH_SQL_STATE = Pattern.compile("(?<![\\w.])(\\d{4,5})\\s*,\\s*\"[0-9A-Z]{5}\"");
    private static final Pattern ABOUT_ERRORS = Pattern.compile("(?i)err|\\bER_");

    @Test
    void noModuleWritesAMysqlErrorNumberOutsideTheCatalogue() throws IOException {
        Path root = projectRoot();
        List<String> found = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> modules = Files.list(root)) {
            sources = modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory)
                    .flatMap(ErrorNumbersTest::javaFiles).filter(p -> !p.endsWith(CATALOGUE)).toList();
        }
        assertTrue(sources.size() > 100, "scanned only " + sources.size() + " files under " + root);
        for (Path source : sources) {
            for (String hit : errorNumbers(Files.readString(source))) {
                found.add(root.relativize(source) + ": " + hit);
            }
        }
        assertEquals(List.of(), found, "name these through io.shardwise.core.error.ErrorCode");
    }

    @Test
    void scannerFindsErrorNumbersInTheShapesCodeWritesThem() {
        assertEquals(List.of("1047"), errorNumbers("out.send(1047, \"08S01\", \"Unknown command\");"));
        assertEquals(List.of("1094"), errorNumbers("if (e.getErrorCode() != 1094) {"));
        assertEquals(List.of("1213"), errorNumbers("static final int ER_LOCK_DEADLOCK = 1213;"));
        assertEquals(List.of("1007", "1008"), errorNumbers("Set<Integer> DATABASE_ERRORS = Set.of(\n 1007,\n 1008);"));
    }

    @Test
    void scannerIgnoresCommentsStringsAndOtherNumbers() {
        assertEquals(List.of(), errorNumbers("""
                /** Fails with 1235, as MySQL does. */
                int rows = 1000; // error 1317 after a kill
                String s = "errno 1064";
                char c = '"'; int port = 3306;
                long epoch = LocalDate.of(2024, 1, 1).toEpochDay();
                """));
    }

    /** Error numbers in {@code source}, in order; an empty list when there are none. */
    static List<String> errorNumbers(String source) {
        String code = stripComments(source);
        List<String> out = new ArrayList<>();
        Matcher pair = WITH_SQL_STATE.matcher(code);
        while (pair.find()) {
            out.add(pair.group(1));
        }
        for (String statement : blankStrings(code).split("[;{}]")) {
            if (!ABOUT_ERRORS.matcher(statement).find()) {
                continue;
            }
            Matcher n = NUMBER.matcher(statement);
            while (n.find()) {
                int value = Integer.parseInt(n.group(1));
                if (value >= 1000 && value < 14000 && !out.contains(n.group(1))) {
                    out.add(n.group(1));
                }
            }
        }
        return out;
    }

    /** Comments become spaces; string, text block and char literals stay. */
    private static String stripComments(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (s.startsWith("//", i)) {
                int end = s.indexOf('\n', i);
                i = end < 0 ? s.length() : end;
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                i = end < 0 ? s.length() : end + 2;
                out.append(' ');
            } else if (c == '"' || c == '\'') {
                int end = literalEnd(s, i);
                out.append(s, i, end);
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** String and char literals' contents become blanks, so their words and digits are not code. */
    private static String blankStrings(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '"' || c == '\'') {
                int end = literalEnd(s, i);
                out.append(c).append(" ".repeat(end - i - 1));
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The index just past the literal that opens at {@code start} (a text block, string or char). */
    private static int literalEnd(String s, int start) {
        if (s.startsWith("\"\"\"", start)) {
            int end = s.indexOf("\"\"\"", start + 3);
            while (end > 0 && s.charAt(end - 1) == '\\') {
                end = s.indexOf("\"\"\"", end + 1);
            }
            return end < 0 ? s.length() : end + 3;
        }
        char quote = s.charAt(start);
        int i = start + 1;
        while (i < s.length() && s.charAt(i) != quote && s.charAt(i) != '\n') {
            i += s.charAt(i) == '\\' ? 2 : 1;
        }
        return Math.min(i + 1, s.length());
    }

    private static Stream<Path> javaFiles(Path dir) {
        try {
            return Files.walk(dir).filter(p -> p.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The checkout's root: the nearest directory up from the module that holds the Maven wrapper. */
    private static Path projectRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("mvnw")) && Files.isDirectory(p.resolve("core"))) {
                return p;
            }
        }
        throw new IllegalStateException("no project root above " + Path.of("").toAbsolutePath());
    }
}
