package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class EventLoopsTest {
    @Test
    void oneEventLoopPerCoreUnlessOverridden() {
        if (System.getProperty("io.netty.eventLoopThreads") == null) {
            assertEquals(Runtime.getRuntime().availableProcessors(), ShardwiseServer.eventLoops());
        }
    }
}
