package io.shardwise.jmh.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileReportTest {
    @TempDir
    Path work;

    @Test
    void socketCallsAreIoOfWhoeverMadeThem() {
        assertEquals(ProfileReport.CLIENT_IO, ProfileReport.component(List.of("sun.nio.ch.SocketDispatcher.write0",
                "sun.nio.ch.IOUtil.write", "io.netty.channel.socket.nio.NioSocketChannel.doWrite", "java.lang.Thread.run")));
        assertEquals(ProfileReport.CLIENT_IO, ProfileReport.component(List.of("io.netty.channel.unix.FileDescriptor.writevAddresses",
                "io.netty.channel.unix.FileDescriptor.writevAddresses", "io.netty.channel.epoll.AbstractEpollChannel.doWriteMultiple",
                "io.netty.channel.AbstractChannel$AbstractUnsafe.flush0")));
        assertEquals(ProfileReport.CLIENT_IO, ProfileReport.component(List.of("io.netty.channel.epoll.Native.epollWait0",
                "io.netty.channel.epoll.Native.epollWait", "io.netty.channel.epoll.EpollIoHandler.run")));
        assertEquals(ProfileReport.BACKEND_IO, ProfileReport.component(List.of("sun.nio.ch.SocketDispatcher.write0",
                "java.net.Socket$SocketOutputStream.write", "com.mysql.cj.protocol.a.SimplePacketSender.send",
                "io.shardwise.core.execute.UnitRunner.run")));
    }

    @Test
    void aJdkLeafBelongsToTheCodeThatCalledIt() {
        assertEquals("Connector/J (statements, result decoding)", ProfileReport.component(List.of("java.util.HashMap.getNode",
                "com.mysql.cj.conf.DefaultPropertySet.getProperty", "io.shardwise.core.execute.UnitRunner.run")));
        assertEquals("Shardwise planning (normalize, plan cache, route, render)", ProfileReport.component(List.of(
                "java.lang.String.charAt", "io.shardwise.core.sql.normalize.Normalizer.normalize",
                "io.shardwise.server.session.CommandHandler.statement")));
        assertEquals("Shardwise server (commands, result encoding)", ProfileReport.component(List.of(
                "io.shardwise.server.protocol.TextRow.writeValue", "io.shardwise.server.session.CommandHandler.stream")));
    }

    @Test
    void jdkOnlyStacksAreSchedulingOrOther() {
        assertEquals(ProfileReport.SCHEDULING, ProfileReport.component(List.of("jdk.internal.misc.Unsafe.park",
                "java.util.concurrent.ForkJoinPool.awaitWork", "java.util.concurrent.ForkJoinPool.runWorker")));
        assertEquals(ProfileReport.JDK_OTHER, ProfileReport.component(List.of("jdk.jfr.internal.JVM.emitEvent")));
        assertEquals(ProfileReport.JDK_OTHER, ProfileReport.component(List.of()));
    }

    @Test
    void threadsGroupByRole() {
        assertEquals("Netty event loops (client I/O)", ProfileReport.threadGroup("multiThreadIoEventLoopGroup-3-1"));
        assertEquals("virtual-thread carriers (sessions, backend calls)", ProfileReport.threadGroup("ForkJoinPool-1-worker-4"));
        assertEquals("JIT compilers", ProfileReport.threadGroup("C2 CompilerThread0"));
    }

    /** A real recording of this JVM busy in a known method: the report finds the method and counts its samples. */
    @Test
    void readsARealRecordingIntoTheProfileReport() throws IOException {
        Path jfr = work.resolve("profile.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
            r.enable("jdk.ThreadCPULoad").withPeriod(Duration.ofMillis(100));
            r.enable("jdk.ThreadAllocationStatistics").withPeriod(Duration.ofMillis(100));
            r.enable("jdk.ObjectAllocationSample").with("throttle", "1000/s");
            r.start();
            long until = System.nanoTime() + 400_000_000L;
            double sink = 0;
            while (System.nanoTime() < until) {
                sink += busyWork(sink);
                garbage = new long[1024]; // allocation the report must count
            }
            assertTrue(sink != 0.5); // keeps the loop from being optimised away
            r.stop();
            r.dump(jfr);
        }
        ProfileReport.Profile profile = ProfileReport.read(jfr);
        assertEquals("jdk.ExecutionSample", profile.eventType());
        assertTrue(profile.samples() > 0, "no samples recorded");
        assertEquals(profile.samples(), profile.byComponent().values().stream().mapToLong(Long::longValue).sum());
        String busy = ProfileReportTest.class.getName() + ".busyWork";
        assertTrue(profile.byLeaf().containsKey(busy), profile.byLeaf().toString());
        assertTrue(profile.allocatedBytes() > 0, "no allocation counted");
        assertTrue(profile.allocationSites().keySet().stream().anyMatch(k -> k.contains("readsARealRecordingIntoTheProfileReport")),
                profile.allocationSites().toString());

        Files.writeString(work.resolve("settings.properties"), "mode=test\nload.before=0.5\n");
        Files.writeString(work.resolve("profile.csv"), """
                test,threads,pool,variant,tps,qps,avg_ms,p95_ms,errors,status
                oltp_point_select/disable,8,64,relay,20000,20000,0.40,0.70,0,ok
                oltp_point_select/disable,8,64,sw-sharded,15000,15000,0.53,0.90,0,ok
                """);
        Files.writeString(work.resolve("profile.queries"), "90000\n");
        Path out = work.resolve("out");
        ProxyReport.main(new String[] {"profile", work.toString(), out.toString(), "jmh/proxy-bench profile"});
        String md = Files.readString(out.resolve("proxy-profile.md"));
        assertTrue(md.startsWith("# Where the server's time goes"), md);
        assertTrue(md.contains("| Shardwise, sbtest sharded | oltp_point_select/disable | 8 | 15,000 | 0.53 |"), md);
        assertTrue(md.contains("### Where the server's CPU goes"), md);
        assertTrue(md.contains("`" + busy + "`"), md);
        assertTrue(md.contains("### What the server allocates") && md.contains("bytes per statement (") && md.contains("over 90,000 statements"), md);
    }

    /** Where the test's loop puts its garbage, so the allocation cannot be optimised away. */
    static volatile long[] garbage;

    private static double busyWork(double seed) {
        double x = seed;
        for (int i = 0; i < 10_000; i++) {
            x = Math.sin(x + i) * 0.5;
        }
        return x;
    }
}
