package io.shardwise.server.relay;

import io.netty.buffer.ByteBuf;
import io.shardwise.core.execute.Condition;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.Wire;
import java.util.ArrayList;
import java.util.List;

/**
 * The response to the SHOW WARNINGS a relay sends on the same connection after a statement whose
 * end counted warnings, read packet by packet into {@link Condition}s, so the session's diagnostics
 * hold them before the client can ask ({@link QueryRelay} and {@link ResponseReader} both). An ERR
 * or OK instead of a result set records nothing, as when Connector/J's SHOW WARNINGS fails.
 * Event-loop confined; the caller releases each packet.
 */
final class ShowWarnings {
    private enum Phase { HEADER, COLUMNS, COLUMNS_EOF, ROWS }

    private final List<Condition> conditions = new ArrayList<>();
    private Phase phase = Phase.HEADER;
    private long columnsLeft;

    /**
     * Reads one packet of the response ({@code header}: its first byte, -1 when empty; {@code end}: a
     * 0xFE packet shorter than a wire packet's limit); true when it was the last one.
     */
    boolean read(BackendConnection connection, ByteBuf in, int header, boolean end) {
        switch (phase) {
            case HEADER -> {
                if (header == ErrPacket.HEADER || header == OkPacket.HEADER) {
                    return true;
                }
                columnsLeft = Wire.readLenenc(in);
                phase = Phase.COLUMNS;
            }
            case COLUMNS -> {
                if (--columnsLeft == 0) {
                    phase = connection.endsResultsWithOk() ? Phase.ROWS : Phase.COLUMNS_EOF;
                }
            }
            case COLUMNS_EOF -> phase = Phase.ROWS;
            case ROWS -> {
                if (end || header == ErrPacket.HEADER) {
                    return true;
                }
                String level = Wire.readLenencString(in);
                int code = Integer.parseInt(Wire.readLenencString(in));
                conditions.add(new Condition(Condition.Level.of(level), code, Wire.readLenencString(in)));
            }
        }
        return false;
    }

    List<Condition> conditions() {
        return conditions;
    }
}
