package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;

/** The units' rows one unit after another; a unit is closed as soon as it is exhausted. */
final class ConcatCursor implements ResultCursor {
    private final Inputs inputs;
    private int unit;

    ConcatCursor(Inputs inputs) {
        this.inputs = inputs;
    }

    @Override
    public List<Column> columns() {
        return inputs.cursors().getFirst().columns();
    }

    @Override
    public boolean next() {
        List<ResultCursor> cursors = inputs.cursors();
        while (unit < cursors.size()) {
            if (cursors.get(unit).next()) {
                return true;
            }
            inputs.closeOne(unit);
            unit++;
        }
        return false;
    }

    @Override
    public byte[] get(int index) {
        return inputs.cursors().get(unit).get(index);
    }

    @Override
    public void close() {
        inputs.closeAll();
    }
}
