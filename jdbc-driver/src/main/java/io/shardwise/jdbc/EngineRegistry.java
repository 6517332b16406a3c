package io.shardwise.jdbc;

import io.shardwise.core.Engine;
import io.shardwise.core.rule.ShardingRule;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One {@link Engine} per configuration location and set of overriding properties, shared by every
 * connection that names both, and kept for the life of the JVM (or until
 * {@link Driver#shutdown(String)}). Starting an engine builds
 * backend pools and a plan cache, so it must not follow the churn of connections an application
 * opens and closes; an application that closes its last connection and opens another keeps its warm
 * pools and cache.
 *
 * <p>Hazard: shutting an engine down while connections still use it fails their next statement;
 * the next {@code connect} starts a fresh engine.
 */
final class EngineRegistry {
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static final Map<ConnectionUrl.EngineKey, Engine> ENGINES = new HashMap<>();

    private EngineRegistry() {}

    static Engine engineFor(ConnectionUrl url) throws SQLException {
        ConnectionUrl.EngineKey key = url.engineKey();
        LOCK.lock();
        try {
            Engine engine = ENGINES.get(key);
            if (engine == null) {
                engine = Engine.start(load(url));
                ENGINES.put(key, engine);
            }
            return engine;
        } finally {
            LOCK.unlock();
        }
    }

    /** Closes the engine of that location (its backend pools); false when none was running. */
    static boolean shutdown(ConnectionUrl url) {
        Engine engine;
        LOCK.lock();
        try {
            engine = ENGINES.remove(url.engineKey());
        } finally {
            LOCK.unlock();
        }
        if (engine == null) {
            return false;
        }
        engine.close();
        return true;
    }

    static boolean isRunning(ConnectionUrl url) {
        LOCK.lock();
        try {
            return ENGINES.containsKey(url.engineKey());
        } finally {
            LOCK.unlock();
        }
    }

    private static ShardingRule load(ConnectionUrl url) throws SQLException {
        try {
            if (url.isClasspath()) {
                String resource = url.resource();
                ClassLoader loader = Thread.currentThread().getContextClassLoader();
                InputStream in = loader == null ? null : loader.getResourceAsStream(resource);
                if (in == null) {
                    in = EngineRegistry.class.getClassLoader().getResourceAsStream(resource);
                }
                if (in == null) {
                    throw new SQLException("configuration " + url.location() + " is not on the classpath", "08001");
                }
                try (InputStream text = in) {
                    return ShardingRule.load(new String(text.readAllBytes(), StandardCharsets.UTF_8), url.location(), System::getenv,
                            url.overrides());
                }
            }
            return ShardingRule.load(url.path(), System::getenv, url.overrides());
        } catch (IOException e) {
            throw new SQLException("cannot read configuration " + url.location() + ": " + e.getMessage(), "08001", e);
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
    }
}
