package io.shardwise.testkit;

/** A program that takes servers and never closes them, run in a child JVM by {@link JvmExitTest}. */
final class ForgottenServerMain {

    private ForgottenServerMain() {}

    public static void main(String[] args) {
        MysqlServer shared = TestBackends.shared();
        ControllableServer dedicated = TestBackends.dedicated();
        System.out.println("PORTS " + shared.port() + " " + dedicated.port());
    }
}
