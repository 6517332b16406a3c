package io.shardwise.server.auth;

/** The authentication methods this server speaks, by their wire names. */
public enum AuthPlugin {
    /** SHA-1 challenge-response; every MySQL and MariaDB client has it and it needs neither TLS nor RSA. */
    MYSQL_NATIVE_PASSWORD(NativePassword.PLUGIN),
    /** MySQL 8's default: SHA-256 challenge-response for cached users, else the password over TLS or RSA. */
    CACHING_SHA2_PASSWORD(CachingSha2Password.PLUGIN);

    private final String wireName;

    AuthPlugin(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The plugin of that wire name, or null for one this server does not speak. */
    public static AuthPlugin named(String wireName) {
        for (AuthPlugin p : values()) {
            if (p.wireName.equals(wireName)) {
                return p;
            }
        }
        return null;
    }
}
