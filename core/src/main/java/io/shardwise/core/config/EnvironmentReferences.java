package io.shardwise.core.config;

import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Expands {@code ${env:NAME}} and {@code ${env:NAME:-default}} in configuration strings, so secrets
 * stay out of the file. Other {@code ${...}} forms (node expressions such as {@code ds${0..1}}) are
 * left alone.
 */
final class EnvironmentReferences {
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");

    private final Function<String, String> environment;

    EnvironmentReferences(Function<String, String> environment) {
        this.environment = environment;
    }

    /** The expanded text, or null after reporting a missing variable. */
    String expand(String text, Location location, Problems problems) {
        return expand(text, location, problems, false);
    }

    /** @param secret the text is a password: a problem names its place, never its text */
    String expand(String text, Location location, Problems problems, boolean secret) {
        if (text.indexOf("${env:") < 0) {
            return text;
        }
        Matcher m = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        boolean ok = true;
        while (m.find()) {
            String value = environment.apply(m.group(1));
            if (value == null) {
                value = m.group(2);
            }
            if (value == null) {
                problems.add(location, "environment variable " + m.group(1) + " is not set (referenced as "
                        + m.group() + "); set it, or give a default: ${env:" + m.group(1) + ":-value}");
                ok = false;
                value = "";
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        // judged on the text as written: an expanded value may itself contain "${env:"
        if (REFERENCE.matcher(text).replaceAll("").contains("${env:")) {
            problems.add(location, "malformed environment reference in " + (secret ? "the value (not shown: a secret)" : "'" + text + "'")
                    + "; expected ${env:NAME} or ${env:NAME:-default}, NAME of letters, digits and _");
            return null;
        }
        return ok ? out.toString() : null;
    }
}
