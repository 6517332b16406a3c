package io.shardwise.jmh.modes;

import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample configuration as the benchmarks run it: environment references filled in for the
 * test server, and each backend's pool fixed at the benchmark's pool size (the other targets get
 * the same number of backend connections, so no target wins by holding more).
 */
final class SampleConfig {
    private static final Pattern ENV = Pattern.compile("\\$\\{env:([A-Za-z0-9_]+)(?::-([^}]*))?}");
    private static final String BACKEND_PASSWORD = "    password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"\n";

    private SampleConfig() {}

    static String yaml(SampleTarget target, int poolSize) {
        String yaml = SampleData.configYaml();
        String pooled = yaml.replace(BACKEND_PASSWORD,
                BACKEND_PASSWORD + "    pool: { max: " + poolSize + ", minIdle: " + poolSize + " }\n");
        if (pooled.split("pool: \\{ max: ", -1).length != 3) {
            throw new IllegalStateException("the sample configuration no longer has two backends with a password line;"
                    + " update SampleConfig to set their pools");
        }
        return substitute(pooled, target);
    }

    private static String substitute(String yaml, SampleTarget target) {
        Matcher m = ENV.matcher(yaml);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = switch (m.group(1)) {
                case "SHARDWISE_SAMPLE_HOST" -> target.host();
                case "SHARDWISE_SAMPLE_PORT" -> Integer.toString(target.port());
                case "SHARDWISE_SAMPLE_DB" -> target.databasePrefix();
                case "SHARDWISE_SAMPLE_USER" -> target.user();
                case "SHARDWISE_SAMPLE_PASSWORD" -> target.password();
                default -> m.group(2) == null ? "" : m.group(2);
            };
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }
}
