package io.shardwise.core.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads the {@code server} section (used by the server face only). */
final class ServerParser {
    static final Set<String> SERVER_KEYS = Set.of("bind", "port", "users");
    static final Set<String> USER_KEYS = Set.of("name", "password", "schemas");

    private ServerParser() {}

    static ServerConfig parse(ConfigNode node, String schema) {
        Map<String, ConfigNode> keys = node.entries(SERVER_KEYS);
        ServerConfig d = ServerConfig.DEFAULT;
        String bind = keys.containsKey("bind") ? keys.get("bind").name() : d.bind();
        Integer port = keys.containsKey("port") ? keys.get("port").integer(0, 65535) : Integer.valueOf(d.port());
        List<UserConfig> users = new ArrayList<>();
        if (keys.containsKey("users")) {
            Set<String> seen = new HashSet<>();
            for (ConfigNode item : keys.get("users").items()) {
                UserConfig user = user(item, schema);
                if (user != null && !seen.add(user.name())) {
                    item.problem("user '" + user.name() + "' is defined twice; each user name may appear once");
                } else if (user != null) {
                    users.add(user);
                }
            }
        }
        if (bind == null || port == null) {
            return d;
        }
        return new ServerConfig(bind, port, users);
    }

    private static UserConfig user(ConfigNode node, String schema) {
        Map<String, ConfigNode> keys = node.entries(USER_KEYS);
        if (!node.isMapping()) {
            return null;
        }
        String name = null;
        if (keys.containsKey("name")) {
            name = keys.get("name").name();
        } else {
            node.problem("missing key 'name'; e.g. - { name: app, password: \"${env:APP_PASSWORD}\", schemas: [shop] }");
        }
        String password = "";
        if (keys.containsKey("password")) {
            ConfigNode p = keys.get("password");
            password = p.isNull() ? "" : p.string();
        }
        List<String> schemas = new ArrayList<>();
        if (keys.containsKey("schemas")) {
            for (ConfigNode s : keys.get("schemas").items()) {
                String value = s.name();
                if (value != null && schema != null && !value.equals(schema)) {
                    s.problem("'" + value + "' is not a schema of this configuration." + Suggestions.didYouMean(value, Set.of(schema))
                            + " Defined: " + schema);
                } else if (value != null) {
                    schemas.add(value);
                }
            }
        } else if (schema != null) {
            schemas.add(schema);
        }
        return name == null || password == null ? null : new UserConfig(name, password, schemas);
    }
}
