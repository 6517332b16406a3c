package io.shardwise.jmh.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxyReportTest {
    @TempDir
    Path work;

    private Path out() {
        return work.resolve("out");
    }

    private void settings(String... extra) throws IOException {
        Files.writeString(work.resolve("settings.properties"), "mode=test\nqueries=10000\nload.before=0.5\nversion.sysbench=1.0.20\n"
                + String.join("\n", extra) + "\n");
    }

    @Test
    void hscaleReportsSecondsAddedMillisecondsAndTheTargetsWithCharts() throws IOException {
        settings();
        Files.writeString(work.resolve("hscale.csv"), """
                concurrency,variant,seconds,status
                1,direct,1.000,ok
                1,relay,1.300,ok
                1,sw-norules,1.500,ok
                1,sw-partitioned,1.700,ok
                10,sw-partitioned,,failed
                10,direct,0.500,ok
                10,relay,0.600,ok
                """);
        ProxyReport.main(new String[] {"hscale", work.toString(), out().toString(), "jmh/proxy-bench hscale"});
        String md = Files.readString(out().resolve("proxy-hscale.md"));
        assertTrue(md.startsWith("# HSCALE"), md);
        // (1.7 - 1.0) s over 10,000 queries = 0.070 ms; over the relay (1.7 - 1.3) s = 0.040 ms; 1.3 / 1.7 = 76 %
        assertTrue(md.contains("| 1 | Shardwise, small partitioned | 1.700 | 5,882 | 0.070 | 0.040 | 76 % |"), md);
        assertTrue(md.contains("| 10 | Shardwise, small partitioned | **failed** |"), md);
        assertTrue(md.contains("| concurrency 1, partitioned throughput / relay's ≥ 0.85 | 0.76 | **missed** |"), md);
        assertTrue(md.contains("| concurrency 1, partitioned adds ≤ 0.05 ms per query over the relay | 0.040 ms | met |"), md);
        assertTrue(md.contains("| version | ") || md.contains("sysbench 1.0.20"), md);
        assertPng(out().resolve("proxy-hscale-qps.png"));
        assertPng(out().resolve("proxy-hscale-latency.png"));
    }

    @Test
    void kingshardGivesShareOfDirectAndRelayPerStepAndPoolSweep() throws IOException {
        settings();
        String header = "test,threads,pool,variant,tps,qps,avg_ms,p95_ms,errors,status\n";
        Files.writeString(work.resolve("kingshard.csv"), header + """
                oltp_point_select/disable,8,64,direct,1000,1000,1.0,2.0,0,ok
                oltp_point_select/disable,8,64,relay,800,800,1.2,2.5,0,ok
                oltp_point_select/disable,8,64,sw-sharded,720,720,1.5,3.0,3,ok
                oltp_point_select/auto,8,64,relay,800,800,1.2,2.5,0,ok
                oltp_point_select/auto,8,64,sw-sharded,,,,,,failed
                """);
        Files.writeString(work.resolve("pool.csv"), header + """
                oltp_point_select/disable,64,16,direct,900,900,1.0,2.0,0,ok
                oltp_point_select/disable,64,16,sw-sharded,450,450,1.0,2.0,0,ok
                """);
        ProxyReport.main(new String[] {"kingshard", work.toString(), out().toString(), "cmd"});
        String md = Files.readString(out().resolve("proxy-kingshard.md"));
        assertTrue(md.contains("| 8 | Shardwise, sbtest sharded | 720 | 1.50 | 3.00 | 72 % | 90 % | 3 |"), md);
        assertTrue(md.contains("| oltp_point_select/disable, 8 threads, sharded QPS / relay QPS ≥ 0.85 | 0.90 | met |"), md);
        assertTrue(md.contains("| oltp_point_select/auto, 8 threads, sharded QPS / relay QPS ≥ 0.85 | not measured | — |"), md);
        assertTrue(md.contains("| 16 | Shardwise, sbtest sharded | 450 |"), md);
        for (String png : List.of("proxy-kingshard-oltp_point_select-disable-qps.png", "proxy-kingshard-oltp_point_select-auto-latency.png",
                "proxy-kingshard-pool-qps.png")) {
            assertPng(out().resolve(png));
        }
    }

    @Test
    void concurrencyFindsEachVariantsPeakAndWhatIsLeftAtTheLastStep() throws IOException {
        settings();
        Files.writeString(work.resolve("concurrency.csv"), """
                test,threads,pool,variant,tps,qps,avg_ms,p95_ms,errors,status
                oltp_read_only/disable,2,64,direct,100,1600,1,2,0,ok
                oltp_read_only/disable,16,64,direct,300,4800,1,2,0,ok
                oltp_read_only/disable,128,64,direct,150,2400,1,2,0,ok
                """);
        ProxyReport.main(new String[] {"concurrency", work.toString(), out().toString(), "cmd"});
        String md = Files.readString(out().resolve("proxy-concurrency.md"));
        assertTrue(md.contains("| direct MariaDB | 300 | 16 | 150 | 128 | 50 % |"), md);
        assertPng(out().resolve("proxy-concurrency-tps.png"));
    }

    @Test
    void aRerunReplacesOnlyTheGeneratedPart() throws IOException {
        settings();
        Files.writeString(work.resolve("hscale.csv"), "concurrency,variant,seconds,status\n1,direct,1.0,ok\n");
        String[] args = {"hscale", work.toString(), out().toString(), "cmd"};
        ProxyReport.main(args);
        Path md = out().resolve("proxy-hscale.md");
        Files.writeString(md, Files.readString(md) + "\nA note written by hand.\n");
        ProxyReport.main(args);
        String text = Files.readString(md);
        assertTrue(text.endsWith("A note written by hand.\n"), text);
        assertEquals(1, text.split("generated:proxy-hscale:begin", -1).length - 1, text);
    }

    private static void assertPng(Path png) throws IOException {
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(Charts.WIDTH, image.getWidth(), png.toString());
    }
}
