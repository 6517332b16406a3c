package io.shardwise.server.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardwise.server.protocol.ColumnDefinition;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogicalColumnsTest {
    private static final Map<String, String> NAMES = Map.copyOf(Map.of("orders_1", "orders"));

    private static ByteBuf definition(String table, String name) {
        return new ColumnDefinition("shop_ds1", table, table, name, name, 45, 40, ColumnDefinition.TYPE_VAR_STRING, 0, 0)
                .encode(Unpooled.buffer().alloc());
    }

    /** What the relay made of column 0 the first time (any bytes: the cache does not look inside them). */
    private static LogicalColumns remembered(ByteBuf backend, byte[] logical) {
        LogicalColumns columns = new LogicalColumns();
        ByteBuf out = Unpooled.buffer().writeBytes(new byte[] {1, 2, 3});
        out.writeBytes(logical);
        columns.remember(0, backend, "shop", NAMES, out, 3);
        out.release();
        return columns;
    }

    @Test
    void theSameBackendDefinitionUnderTheSameNamesGetsWhatWasMadeOfItBefore() {
        ByteBuf backend = definition("orders_1", "status");
        byte[] logical = {9, 8, 7};
        LogicalColumns columns = remembered(backend, logical);
        ByteBuf again = definition("orders_1", "status");
        ByteBuf out = Unpooled.buffer();
        assertTrue(columns.write(0, again, "shop", NAMES, out));
        assertArrayEquals(logical, ByteBufUtil.getBytes(out));
        assertTrue(again.readableBytes() > 0, "the backend definition is not consumed");
        for (ByteBuf b : new ByteBuf[] {backend, again, out}) {
            b.release();
        }
    }

    @Test
    void anyOtherByteSchemaNamesOrColumnIsAMiss() {
        ByteBuf backend = definition("orders_1", "status");
        LogicalColumns columns = remembered(backend, new byte[] {9});
        ByteBuf out = Unpooled.buffer();
        ByteBuf otherColumn = definition("orders_1", "statuz");
        ByteBuf otherTable = definition("orders_0", "status");
        assertFalse(columns.write(0, otherColumn, "shop", NAMES, out));
        assertFalse(columns.write(0, otherTable, "shop", NAMES, out));
        assertFalse(columns.write(0, backend, "shop2", NAMES, out));
        assertFalse(columns.write(0, backend, "shop", Map.copyOf(Map.of("orders_1", "orders2")), out), "another map: a miss");
        assertFalse(columns.write(1, backend, "shop", NAMES, out), "another column");
        assertFalse(columns.write(LogicalColumns.MAX_COLUMNS, backend, "shop", NAMES, out));
        assertFalse(new LogicalColumns().write(0, backend, "shop", NAMES, out));
        assertTrue(out.readableBytes() == 0, "a miss writes nothing");
        for (ByteBuf b : new ByteBuf[] {backend, out, otherColumn, otherTable}) {
            b.release();
        }
    }

    /** A statement alternating between two shards (schemas and name maps differ) hits both; a third replaces the older. */
    @Test
    void twoDefinitionsPerColumnAreRememberedTheOlderGivesWayToAThird() {
        Map<String, String> other = Map.copyOf(Map.of("orders_0", "orders"));
        Map<String, String> third = Map.copyOf(Map.of("orders_2", "orders"));
        ByteBuf one = definition("orders_1", "status");
        ByteBuf two = definition("orders_0", "status");
        ByteBuf three = definition("orders_2", "status");
        LogicalColumns columns = remembered(one, new byte[] {1});
        ByteBuf made = Unpooled.buffer().writeByte(2);
        columns.remember(0, two, "shop", other, made, 0);
        ByteBuf out = Unpooled.buffer();
        assertTrue(columns.write(0, one, "shop", NAMES, out));
        assertTrue(columns.write(0, two, "shop", other, out));
        assertArrayEquals(new byte[] {1, 2}, ByteBufUtil.getBytes(out));
        made.clear().writeByte(3);
        columns.remember(0, three, "shop", third, made, 0);
        assertFalse(columns.write(0, one, "shop", NAMES, out), "the older gave way");
        assertTrue(columns.write(0, two, "shop", other, out));
        assertTrue(columns.write(0, three, "shop", third, out));
        for (ByteBuf b : new ByteBuf[] {one, two, three, made, out}) {
            b.release();
        }
    }

    @Test
    void longDefinitionsAreNotRemembered() {
        ByteBuf backend = definition("orders_1", "x".repeat(LogicalColumns.MAX_BYTES));
        LogicalColumns columns = remembered(backend, new byte[] {9});
        ByteBuf out = Unpooled.buffer();
        assertFalse(columns.write(0, backend, "shop", NAMES, out));
        backend.release();
        out.release();
    }
}
