package io.shardwise.jmh.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {
    @Test
    void writeAppendsTheSectionOnceThenReplacesOnlyItsInside(@TempDir Path dir) throws Exception {
        Path doc = dir.resolve("b.md");
        Files.writeString(doc, "# Title\n\nbefore\n");
        Report.write(doc, "jmh", "first");
        Files.writeString(doc, Files.readString(doc) + "\nafter, by hand\n");

        Report.write(doc, "jmh", "second\n");

        assertEquals("# Title\n\nbefore\n\n<!-- generated:jmh:begin -->\nsecond\n<!-- generated:jmh:end -->\n\nafter, by hand\n",
                Files.readString(doc));
    }

    @Test
    void sectionsOfOtherGeneratorsAreLeftAlone(@TempDir Path dir) throws Exception {
        Path doc = dir.resolve("b.md");
        Report.write(doc, "sysbench", "s");
        Report.write(doc, "jmh", "j");
        Report.write(doc, "sysbench", "s2");

        assertEquals("\n<!-- generated:sysbench:begin -->\ns2\n<!-- generated:sysbench:end -->\n"
                + "\n<!-- generated:jmh:begin -->\nj\n<!-- generated:jmh:end -->\n", Files.readString(doc));
    }

    @Test
    void aLoneMarkerIsAnErrorRatherThanAGuess(@TempDir Path dir) throws Exception {
        Path doc = dir.resolve("b.md");
        Files.writeString(doc, "<!-- generated:jmh:begin -->\nno end\n");

        assertThrows(IllegalStateException.class, () -> Report.write(doc, "jmh", "x"));
    }

    @Test
    void tableRowsMustFitTheHeadersAndPipesAreEscaped() {
        assertThrows(IllegalArgumentException.class, () -> new Table("t", "", List.of("a", "b"), List.of(List.of("1"))));
        assertEquals("### t\n\n| a | b |\n|---|---:|\n| x\\|y | 2 |\n\n", // numbers right, text left
                new Table("t", "", List.of("a", "b"), List.of(List.of("x|y", "2"))).markdown());
    }
}
