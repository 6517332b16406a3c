package io.shardwise.core.config;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.util.List;
import java.util.stream.Collectors;

/** A configuration that cannot be used, with every problem found in it. */
public final class InvalidConfigException extends ShardwiseException {
    private final transient List<ConfigProblem> problems;

    public InvalidConfigException(String source, List<ConfigProblem> problems) {
        super(ErrorCode.INVALID_CONFIG, source, render(problems));
        this.problems = List.copyOf(problems);
    }

    public List<ConfigProblem> problems() {
        return problems;
    }

    private static String render(List<ConfigProblem> problems) {
        return problems.stream().map(p -> "  - " + p).collect(Collectors.joining(System.lineSeparator()));
    }
}
