package io.shardwise.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The driver's own contract that needs no database: URLs, registration, name patterns. Everything against servers is in it/ (io.shardwise.it.jdbc). */
class DriverTest {
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
    void driverManagerFindsTheDriverThroughTheServiceFile() throws SQLException {
        assertInstanceOf(Driver.class, DriverManager.getDriver("jdbc:shardwise:conf/shop.yaml"));
        assertTrue(new Driver().acceptsURL("jdbc:shardwise:classpath:shop.yaml"));
    }

    @Test
    void tablePatternsMatchAsSqlLikeIgnoringCase() {
        assertTrue(LogicalCatalog.like("ord%").matcher("Orders").matches());
        assertTrue(LogicalCatalog.like("order_items").matcher("order-items").matches());
        assertFalse(LogicalCatalog.like(LogicalCatalog.escape("order_items")).matcher("order-items").matches());
        assertTrue(LogicalCatalog.like(LogicalCatalog.escape("a%b\\c")).matcher("a%b\\c").matches());
        assertTrue(LogicalCatalog.like("%").matcher("").matches());
    }
}
