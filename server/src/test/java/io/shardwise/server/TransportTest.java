package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class TransportTest {
    @Test
    void linuxServesWithTheNativeEpollTransport() {
        String arch = System.getProperty("os.arch");
        assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
                && (arch.equals("amd64") || arch.equals("aarch64")), "the native transport ships for Linux x86_64 and aarch64");
        Transport t = Transport.best();
        assertEquals("epoll", t.name());
        assertEquals(EpollServerSocketChannel.class, t.serverChannel());
        assertEquals(EpollSocketChannel.class, t.clientChannel());
    }

    @Test
    void nioIsTheFallback() {
        Transport t = Transport.nio();
        assertEquals("nio", t.name());
        assertEquals(NioServerSocketChannel.class, t.serverChannel());
    }
}
