package io.shardwise.server.session;

/**
 * The verdict on one client's connection phase, for the server's count of failed attempts per
 * address (MySQL's max_connect_errors). Only the first verdict counts: a client denied and then
 * closed is one failure, not two. Called on the connection's event loop.
 */
public interface LoginAttempt {
    /** For a handshake that nothing counts (unit tests of the handshake alone). */
    LoginAttempt UNCOUNTED = new LoginAttempt() {
        @Override
        public void succeeded() {}

        @Override
        public void failed() {}

        @Override
        public void excused() {}
    };

    /** The password matched (even if the schema is then refused): the address's failures are forgiven. */
    void succeeded();

    /** A wrong password, a malformed or oversized handshake, the connect timeout, or a close before authenticating. */
    void failed();

    /** Neither: refused for a reason no guess could change (TLS required). */
    void excused();
}
