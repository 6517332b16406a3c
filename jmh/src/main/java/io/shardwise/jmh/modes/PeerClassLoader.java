package io.shardwise.jmh.modes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A peer's jars in a class loader of their own. Its parent is the platform loader, so the peer sees
 * the JDK (java.sql included: {@code DataSource} and {@code Connection} are the one type both sides
 * share) and nothing of the benchmark jar: not our Calcite, Guava, Caffeine, HikariCP or
 * Connector/J. The peer runs on exactly the library versions its own POM resolved
 * ({@code jmh/shardingsphere/pom.xml}), listed in that module's {@code target/classpath.txt}.
 *
 * <p>Hazard: code in the peer that finds services through the thread's context class loader
 * ({@code ServiceLoader.load(Class)}, as ShardingSphere's SPI registry does) must run on a thread
 * whose context loader is this one; {@link ModesBenchmark} sets it on every thread that calls the peer.
 */
final class PeerClassLoader {
    /** Where the build wrote the list (bench.properties, filtered by Maven); a system property overrides it. */
    static final String CLASSPATH_PROPERTY = "shardwise.bench.shardingsphere.classpath";

    private PeerClassLoader() {}

    static URLClassLoader shardingSphere() {
        Path file = classpathFile();
        List<URL> urls = new ArrayList<>();
        try {
            for (String entry : Files.readString(file).trim().split(java.io.File.pathSeparator)) {
                Path jar = Path.of(entry);
                if (!Files.isRegularFile(jar)) {
                    throw new IllegalStateException(jar + " (listed in " + file + ") is missing: rebuild with"
                            + " ./mvnw -pl jmh -am verify -Pbench");
                }
                urls.add(jar.toUri().toURL());
            }
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new URLClassLoader("shardingsphere-jdbc", urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    }

    /** The version of ShardingSphere-JDBC on that classpath, from its jar's name; "?" when not found. */
    static String shardingSphereVersion() {
        try {
            Matcher m = Pattern.compile("shardingsphere-jdbc-([0-9][^" + Pattern.quote(java.io.File.pathSeparator) + "/]*)\\.jar")
                    .matcher(Files.readString(classpathFile()));
            return m.find() ? m.group(1) : "?";
        } catch (IOException | IllegalStateException e) {
            return "?";
        }
    }

    static Path classpathFile() {
        String configured = System.getProperty(CLASSPATH_PROPERTY);
        if (configured == null) {
            Properties built = new Properties();
            try (InputStream in = PeerClassLoader.class.getResourceAsStream("/io/shardwise/jmh/bench.properties")) {
                if (in != null) {
                    built.load(in);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            configured = built.getProperty("shardingsphere.classpath");
        }
        if (configured == null || !Files.isRegularFile(Path.of(configured))) {
            throw new IllegalStateException("ShardingSphere-JDBC's classpath list " + configured + " is missing: build it with"
                    + " ./mvnw -pl jmh -am verify (module jmh/shardingsphere writes it), or point -D" + CLASSPATH_PROPERTY
                    + " at one");
        }
        return Path.of(configured);
    }
}
