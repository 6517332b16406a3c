package io.shardwise.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.ConfigOverrides;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.Normalizer;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The driver's own contract that needs no database: URLs, registration, name patterns. Everything against servers is in it/ (io.shardwise.it.jdbc). */
class DriverTest {
    private static final LexicalMode DEFAULT = LexicalMode.DEFAULT;

    @Test
    void objectsUnwrapToThemselvesAndRefuseAnythingElseNamingIt() throws Exception {
        ShardwiseDataSource ds = new ShardwiseDataSource();
        assertTrue(ds.isWrapperFor(javax.sql.DataSource.class));
        assertEquals(ds, ds.unwrap(javax.sql.DataSource.class));
        SQLException e = assertThrows(SQLException.class, () -> ds.unwrap(String.class));
        assertEquals("ShardwiseDataSource does not wrap a java.lang.String", e.getMessage());
        assertEquals("S1009", e.getSQLState());
    }

    @Test
    void urlsParseLocationAndPropertiesWithPropertiesWinning() throws SQLException {
        Properties info = new Properties();
        info.setProperty("useAffectedRows", "false");
        ConnectionUrl url = ConnectionUrl.parse("jdbc:shardwise:conf/shop.yaml?useAffectedRows=true&x=a%20b", info);
        assertEquals("conf/shop.yaml", url.location());
        assertFalse(url.useAffectedRows());
        assertEquals("a b", url.properties().getProperty("x"));
        assertEquals(ConnectionUrl.parse("jdbc:shardwise:" + java.nio.file.Path.of("conf/shop.yaml").toAbsolutePath(), null).key(),
                url.key(), "relative and absolute spellings of one file name one engine");
        assertEquals("classpath:a/b.yaml", ConnectionUrl.parse("jdbc:shardwise:classpath:/a/b.yaml", null).key());
        assertFalse(new Driver().acceptsURL("jdbc:mysql://localhost/x"));
        assertThrows(SQLException.class, () -> ConnectionUrl.parse("jdbc:shardwise:", null));
    }

    @Test
    void propertiesNamedAsConfigurationPathsOverrideTheFileAndKeyTheEngine() throws SQLException {
        Properties info = new Properties();
        info.setProperty("backends.ds0.pool.max", "8");
        info.setProperty("cachePrepStmts", "true");
        ConnectionUrl url = ConnectionUrl.parse("jdbc:shardwise:conf/shop.yaml?backends.ds0.pool.max=4&schema=s&server.users%5B0%5D.name=x"
                + "&useAffectedRows=true&useSSL=false", info);
        assertEquals(Map.of("backends.ds0.pool.max", "8", "schema", "s", "server.users[0].name", "x"), url.overrides().values(),
                "configuration paths (Properties winning), not the driver's own or Connector/J's properties");
        ConnectionUrl sameOtherOrder = ConnectionUrl.parse("jdbc:shardwise:conf/shop.yaml?server.users%5B0%5D.name=x&schema=s"
                + "&backends.ds0.pool.max=8", null);
        assertEquals(url.engineKey(), sameOtherOrder.engineKey(), "one engine for one configuration and one set of overrides");
        assertNotEquals(url.engineKey(), ConnectionUrl.parse("jdbc:shardwise:conf/shop.yaml?schema=s", null).engineKey());
        assertEquals(ConfigOverrides.NONE, ConnectionUrl.parse("jdbc:shardwise:conf/shop.yaml?useAffectedRows=true", null).overrides());
    }

    @Test
    void aPropertyOneTypoFromOneOfOursIsRefusedNotIgnored() {
        SQLException e = assertThrows(SQLException.class, () -> ConnectionUrl.parse("jdbc:shardwise:a.yaml?useAfectedRows=true", null));
        assertTrue(e.getMessage().startsWith("unknown property 'useAfectedRows'. Did you mean 'useAffectedRows'?"), e.getMessage());
        assertEquals("01S00", e.getSQLState());
        Properties info = new Properties();
        info.setProperty("defaultbackend", "ds1");
        e = assertThrows(SQLException.class, () -> ConnectionUrl.parse("jdbc:shardwise:a.yaml", info));
        assertTrue(e.getMessage().startsWith("unknown property 'defaultbackend'. Did you mean 'defaultBackend'?"), e.getMessage());
    }

    @Test
    void aBadOverrideFailsTheConnectionWithTheConfigurationReport() throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("shardwise-driver-test", ".yaml");
        try {
            java.nio.file.Files.writeString(file, "schema: s\nbackends:\n  ds0: { url: \"jdbc:mysql://127.0.0.1:1/s\" }\n");
            SQLException e = assertThrows(SQLException.class,
                    () -> new Driver().connect("jdbc:shardwise:" + file + "?backends.ds0.pool.max_size=4", new Properties()));
            assertEquals(1105, e.getErrorCode());
            assertTrue(e.getMessage().contains("with properties backends.ds0.pool.max_size"), e.getMessage());
            assertTrue(e.getMessage().contains("backends.ds0.pool.max_size (set by a property): unknown key 'max_size'. Did you mean 'max'?"),
                    e.getMessage());
            e = assertThrows(SQLException.class,
                    () -> new Driver().connect("jdbc:shardwise:" + file + "?backends.ds0.pool.max=none", new Properties()));
            assertTrue(e.getMessage().contains("backends.ds0.pool.max (set by a property): 'none' is not an integer"), e.getMessage());
        } finally {
            java.nio.file.Files.delete(file);
        }
    }

    @Test
    void preparedTextsAreNormalizedOnceUnlessTooLongToHold() {
        PreparedTexts texts = new PreparedTexts();
        String sql = new String("SELECT c FROM sbtest1 WHERE id = ?");
        assertSame(texts.normalize(sql, DEFAULT, Normalizer::normalize), texts.normalize("SELECT c FROM sbtest1 WHERE id = ?", DEFAULT, Normalizer::normalize));
        assertEquals(1, texts.normalize(sql, DEFAULT, Normalizer::normalize).parameterCount());
        String huge = "SELECT ?" + " ".repeat(PreparedTexts.MAX_CACHED_LENGTH);
        assertNotSame(texts.normalize(huge, DEFAULT, Normalizer::normalize), texts.normalize(huge, DEFAULT, Normalizer::normalize));
        assertEquals(1, texts.normalize(huge, DEFAULT, Normalizer::normalize).parameterCount());
    }

    @Test
    void driverManagerFindsTheDriverThroughTheServiceFile() throws SQLException {
        assertInstanceOf(Driver.class, DriverManager.getDriver("jdbc:shardwise:conf/shop.yaml"));
        assertTrue(new Driver().acceptsURL("jdbc:shardwise:classpath:shop.yaml"));
    }

    @Test
    void tablePatternsMatchAsSqlLikeIgnoringCase() {
        assertTrue(io.shardwise.core.rule.LogicalTables.like("ord%").matcher("Orders").matches());
        assertTrue(io.shardwise.core.rule.LogicalTables.like("order_items").matcher("order-items").matches());
        assertFalse(io.shardwise.core.rule.LogicalTables.like(io.shardwise.core.rule.LogicalTables.escape("order_items")).matcher("order-items").matches());
        assertTrue(io.shardwise.core.rule.LogicalTables.like(io.shardwise.core.rule.LogicalTables.escape("a%b\\c")).matcher("a%b\\c").matches());
        assertTrue(io.shardwise.core.rule.LogicalTables.like("%").matcher("").matches());
    }
}
