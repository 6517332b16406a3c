package io.shardwise.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.ConfigProblem;
import io.shardwise.core.config.InvalidConfigException;
import io.shardwise.core.rule.ShardingRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every complete configuration shown to users in docs/ and the README loads without a problem. */
class DocumentedConfigurationsIT {
    /** A YAML code block: where it is, and its text. */
    record Block(Path file, int line, String yaml) {}

    static List<Block> completeConfigurations() throws IOException {
        List<Block> blocks = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> docs = Files.walk(ProjectFiles.root().resolve("docs"))) {
            files = new ArrayList<>(docs.filter(p -> p.toString().endsWith(".md")).toList());
        }
        files.add(ProjectFiles.root().resolve("README.md"));
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).strip().equals("```yaml")) {
                    continue;
                }
                int start = i + 1;
                StringBuilder yaml = new StringBuilder();
                for (i = start; i < lines.size() && !lines.get(i).strip().startsWith("```"); i++) {
                    yaml.append(lines.get(i)).append('\n');
                }
                // fragments (a backends: or tables: excerpt) are not whole files
                if (yaml.toString().startsWith("schema:")) {
                    blocks.add(new Block(file, start, yaml.toString()));
                }
            }
        }
        return blocks;
    }

    @Test
    void everyCompleteExampleInTheDocsIsAValidConfiguration() throws IOException {
        List<Block> blocks = completeConfigurations();
        assertTrue(blocks.size() >= 2, "docs/configuration.md shows at least the complete and the minimal example: " + blocks);
        List<String> failures = new ArrayList<>();
        for (Block b : blocks) {
            try {
                // any ${env:NAME} the example needs gets a value, as a user would export one
                ShardingRule rule = ShardingRule.load(b.yaml(), b.file().getFileName() + ":" + b.line(), name -> "value-of-" + name);
                assertTrue(rule.config().backends().size() >= 1);
            } catch (InvalidConfigException e) {
                for (ConfigProblem p : e.problems()) {
                    failures.add(b.file().getFileName() + " block at line " + b.line() + ": " + p);
                }
            }
        }
        assertEquals(List.of(), failures);
    }
}
