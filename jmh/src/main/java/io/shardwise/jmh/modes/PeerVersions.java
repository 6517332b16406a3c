package io.shardwise.jmh.modes;

/** What the suite runner needs from this package: the peers' versions, the switch that reuses targets between trials. */
public final class PeerVersions {
    /** {@link Targets#REUSE}, for the runner. */
    public static final String REUSE_TARGETS = Targets.REUSE;

    private PeerVersions() {}

    /** ShardingSphere-JDBC's version, from the jar on its isolated classpath. */
    public static String shardingSphere() {
        return PeerClassLoader.shardingSphereVersion();
    }
}
