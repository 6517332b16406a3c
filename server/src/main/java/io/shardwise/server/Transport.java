package io.shardwise.server;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * The Netty transport the server's event loops use: Linux's native epoll where its library loads
 * (fewer system calls and no selector garbage per wake-up on the hot path), Java NIO elsewhere.
 * Event loops, the listening channel and any outgoing channel on those loops must all come from
 * the same transport, so they are chosen here together.
 */
public record Transport(String name, IoHandlerFactory ioHandler, Class<? extends ServerSocketChannel> serverChannel,
                        Class<? extends SocketChannel> clientChannel) {

    /** The native transport when available (and not disabled with {@code -Dshardwise.transport=nio}), else NIO. */
    public static Transport best() {
        if (!"nio".equals(System.getProperty("shardwise.transport")) && Epoll.isAvailable()) {
            return new Transport("epoll", EpollIoHandler.newFactory(), EpollServerSocketChannel.class, EpollSocketChannel.class);
        }
        return nio();
    }

    public static Transport nio() {
        return new Transport("nio", NioIoHandler.newFactory(), NioServerSocketChannel.class, NioSocketChannel.class);
    }
}
