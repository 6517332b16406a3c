package io.shardwise.core.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.Engine;
import io.shardwise.core.EngineSession;
import io.shardwise.core.error.ShardwiseException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden route plans (STYLE 22, as Vitess' planbuilder test data): every file
 * {@code src/test/resources/plans/*.json} is an array of cases {@code {comment, sql, params, plan}},
 * and each statement must plan, over the sample configuration, exactly as the file says. The plan is
 * what PREVIEW shows — {@link RoutePlan#explain()}, one string per line: the route kind and merge,
 * then each unit. A statement that fails plans as {@code "ERROR errno (sqlstate): message"}, followed,
 * when the message gives a position, by the statement with a {@code ^} at that position.
 * {@code params} absent means a text statement (its literals are the values); present, a prepared
 * one with those parameter values.
 *
 * <p>On a mismatch the test writes the whole file as planned now to {@code target/plans-actual/} and
 * prints a diff command and the command that accepts it:
 * {@value #ACCEPT_COMMAND} rewrites the source files with the actual plans (review the diff first).
 */
class GoldenPlansTest {
    static final String ACCEPT_COMMAND = "./mvnw -pl core -am test -Dtest=GoldenPlansTest -Dsurefire.failIfNoSpecifiedTests=false -Dplans.accept=true";
    private static final Path SOURCE = Path.of("src", "test", "resources", "plans");
    private static final Path ACTUAL = Path.of("target", "plans-actual");
    private static final Pattern POSITION = Pattern.compile("at position (\\d+)");

    private static final Engine ENGINE = Engine.start(RouteFixture.RULE);

    @AfterAll
    static void close() {
        ENGINE.close();
    }

    @TestFactory
    Stream<DynamicContainer> everyGoldenPlanIsTheRoutersPlan() throws IOException, URISyntaxException {
        Path dir = Path.of(Objects.requireNonNull(GoldenPlansTest.class.getResource("/plans"), "plans/ on the test classpath").toURI());
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no golden plan files in " + dir);
        boolean accept = Boolean.getBoolean("plans.accept");
        List<DynamicContainer> containers = new ArrayList<>();
        for (Path file : files) {
            containers.add(checkFile(file, accept));
        }
        return containers.stream();
    }

    @SuppressWarnings("unchecked")
    private static DynamicContainer checkFile(Path file, boolean accept) throws IOException {
        String name = file.getFileName().toString();
        List<Object> cases = (List<Object>) Json.parse(Files.readString(file, StandardCharsets.UTF_8));
        List<Object> actual = new ArrayList<>();
        List<DynamicTest> tests = new ArrayList<>();
        for (Object o : cases) {
            Map<String, Object> c = (Map<String, Object>) o;
            String comment = (String) c.get("comment");
            String sql = (String) c.get("sql");
            List<Object> params = (List<Object>) c.get("params");
            // accepting makes the actual plan the expected one
            List<String> expected = accept ? null : (List<String>) c.get("plan");
            List<String> plan = plan(sql, params);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("comment", comment);
            out.put("sql", sql);
            if (params != null) {
                out.put("params", params);
            }
            out.put("plan", plan);
            actual.add(out);
            tests.add(DynamicTest.dynamicTest(comment == null ? sql : comment, () -> {
                assertTrue(comment != null && !comment.isBlank(), name + ": a case without a comment: " + sql);
                assertEquals(expected == null ? plan : expected, plan, () -> name + ": " + comment + "\n" + sql + "\n" + instructions(name));
            }));
        }
        String written = Json.write(actual);
        if (!written.equals(Files.readString(file, StandardCharsets.UTF_8))) {
            Files.createDirectories(ACTUAL);
            Files.writeString(ACTUAL.resolve(name), written, StandardCharsets.UTF_8);
            if (accept) {
                if (!Files.isDirectory(SOURCE)) {
                    throw new IllegalStateException("run the accept command from the core module or the project root: " + SOURCE.toAbsolutePath());
                }
                Files.writeString(SOURCE.resolve(name), written, StandardCharsets.UTF_8);
                System.out.println("golden plans: accepted " + SOURCE.resolve(name));
            } else {
                System.out.println("golden plans: " + name + " differs; " + instructions(name));
            }
        }
        return DynamicContainer.dynamicContainer(name, tests);
    }

    private static String instructions(String name) {
        return "actual plans in core/" + ACTUAL.resolve(name) + "; compare with `diff core/" + SOURCE.resolve(name) + " core/"
                + ACTUAL.resolve(name) + "` and accept intended changes with `" + ACCEPT_COMMAND + "`";
    }

    /** The plan PREVIEW would show, one line per element, or the error with its position marked. */
    static List<String> plan(String sql, List<Object> params) {
        try (EngineSession session = ENGINE.openSession()) {
            RoutePlan plan = session.preview(sql, params == null ? List.of() : params);
            List<String> lines = new ArrayList<>();
            for (String line : plan.explain().split("\n")) {
                lines.add(line.strip());
            }
            return lines;
        } catch (ShardwiseException e) {
            List<String> lines = new ArrayList<>();
            lines.add("ERROR " + e.errno() + " (" + e.sqlState() + "): " + e.getMessage());
            Matcher m = POSITION.matcher(e.getMessage());
            if (m.find()) {
                int at = Math.min(Integer.parseInt(m.group(1)), sql.length());
                lines.add(sql.substring(0, at) + "^" + sql.substring(at));
            }
            return lines;
        }
    }
}
