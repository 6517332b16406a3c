package io.shardwise.server.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Wire.append copies exactly what writeBytes would, from any buffer and offset, into any buffer with bytes before. */
class WireAppendTest {
    @Test
    void appendsTheSameBytesAsWriteBytes() {
        Random random = new Random(3);
        for (int length : new int[] {0, 1, 7, 8, 9, 15, 16, 17, 63, 100, 4095, 4096, 4097, 9000}) {
            byte[] data = new byte[length + 11];
            random.nextBytes(data);
            for (ByteBuf src : new ByteBuf[] {Unpooled.wrappedBuffer(data), ByteBufAllocator.DEFAULT.directBuffer().writeBytes(data),
                    ByteBufAllocator.DEFAULT.heapBuffer().writeBytes(data)}) {
                ByteBuf slice = src.slice(5, length + 3);
                ByteBuf expected = Unpooled.buffer().writeByte(42);
                expected.writeBytes(slice, 2, length);
                ByteBuf actual = ByteBufAllocator.DEFAULT.directBuffer(4).writeByte(42);
                Wire.append(actual, slice, 2, length);
                assertArrayEquals(ByteBufUtil.getBytes(expected), ByteBufUtil.getBytes(actual), "length " + length);
                byte[] array = ByteBufUtil.getBytes(slice, 2, length);
                ByteBuf fromArray = ByteBufAllocator.DEFAULT.directBuffer(1).writeByte(42);
                Wire.append(fromArray, array);
                assertArrayEquals(ByteBufUtil.getBytes(expected), ByteBufUtil.getBytes(fromArray), "array of length " + length);
                actual.release();
                fromArray.release();
                src.release();
            }
        }
    }
}
