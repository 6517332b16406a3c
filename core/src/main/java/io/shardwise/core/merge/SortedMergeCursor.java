package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;

/**
 * A k-way merge of units that are each sorted by the same keys, through a binary heap of unit
 * indexes. Streaming: a unit is advanced only when the caller asks for the row after the one it
 * last took from that unit, so no unit is ever read more than one row ahead of the output, and the
 * current row is the unit's own buffer (no copy). Ties go to the lower unit index, which makes the
 * merge stable.
 */
final class SortedMergeCursor implements ResultCursor {
    private final Inputs inputs;
    private final RowOrder order;
    private final Row[] heads;
    private final int[] heap;
    private int size;
    private boolean started;
    private int current = -1;

    SortedMergeCursor(Inputs inputs, RowOrder order) {
        this.inputs = inputs;
        this.order = order;
        List<ResultCursor> cursors = inputs.cursors();
        this.heads = new Row[cursors.size()];
        for (int i = 0; i < heads.length; i++) {
            heads[i] = cursors.get(i)::get;
        }
        this.heap = new int[heads.length];
    }

    @Override
    public List<Column> columns() {
        return inputs.cursors().getFirst().columns();
    }

    @Override
    public boolean next() {
        if (!started) {
            started = true;
            for (int i = 0; i < heads.length; i++) {
                if (inputs.cursors().get(i).next()) {
                    heap[size] = i;
                    siftUp(size++);
                } else {
                    inputs.closeOne(i);
                }
            }
        } else if (current >= 0) {
            // The row handed out last was the heap's root; only now may its unit move on.
            if (!inputs.cursors().get(current).next()) {
                inputs.closeOne(current);
                heap[0] = heap[--size];
            }
            if (size > 0) {
                siftDown(0);
            }
        }
        current = size > 0 ? heap[0] : -1;
        return current >= 0;
    }

    @Override
    public byte[] get(int index) {
        return inputs.cursors().get(current).get(index);
    }

    @Override
    public void close() {
        inputs.closeAll();
    }

    private boolean less(int unitA, int unitB) {
        int c = order.compare(heads[unitA], heads[unitB]);
        return c < 0 || (c == 0 && unitA < unitB);
    }

    private void siftUp(int i) {
        int unit = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(unit, heap[parent])) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = unit;
    }

    private void siftDown(int i) {
        int unit = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && less(heap[child + 1], heap[child])) {
                child++;
            }
            if (!less(heap[child], unit)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = unit;
    }
}
