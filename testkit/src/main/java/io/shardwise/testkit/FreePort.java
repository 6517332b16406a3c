package io.shardwise.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** An ephemeral loopback port that is free now; never 3306/3307, which other servers here may hold. */
final class FreePort {

    private FreePort() {}

    static int pick() {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = s.getLocalPort();
                if (port != 3306 && port != 3307) {
                    return port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot bind an ephemeral loopback port", e);
            }
        }
        throw new IllegalStateException("no free ephemeral loopback port in 20 attempts");
    }
}
