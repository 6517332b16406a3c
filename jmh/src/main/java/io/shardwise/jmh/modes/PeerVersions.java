package io.shardwise.jmh.modes;

/** What the suite runner needs from this package: the peers' versions, the switch that reuses targets between trials. */
public final class PeerVersions {
    /** {@link Targets#REUSE}, for the runner. */
    public static final String REUSE_TARGETS = Targets.REUSE;
    /** {@link Layouts#BACKEND_FILE}: where a benchmark JVM writes which backend server it used. */
    public static final String BACKEND_FILE = Layouts.BACKEND_FILE;

    private PeerVersions() {}

    /** ShardingSphere-JDBC's version, from the jar on its isolated classpath. */
    public static String shardingSphere() {
        return PeerClassLoader.shardingSphereVersion();
    }
}
