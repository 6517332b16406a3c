package io.shardwise.core.sql.analyze;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which select items lose their label when a statement's table names are rendered for another
 * database (a node's physical table, the third tier's copy). MySQL labels an unaliased expression
 * item by its own text ({@code COUNT(orders.order_id)}); the database that runs the rendered text
 * would label it by the name it received ({@code COUNT(orders_1.order_id)}). Such an item is sent
 * with an alias of its source text. A bare column ({@code orders.amount}) is labelled by its
 * column name either way, and a star by its columns. Used by the router and the federated tier alike.
 */
public final class ItemLabels {
    private static final Pattern BARE_COLUMN = Pattern.compile("[`\\w$]+(\\s*\\.\\s*[`\\w$]+){0,2}");

    private ItemLabels() {}

    /**
     * Whether {@code item} is unaliased, neither a star nor a bare column, and holds a table name that
     * {@code names} (logical name in lower case → the name rendered) renders other than as written.
     * Allocates nothing for items naming no such table (a point select's plain columns).
     */
    public static boolean changedByRenaming(SqlTemplate template, SelectShape.Item item, Map<String, String> names) {
        if (item.alias() != null || item.isStar() || item.start() < 0) {
            return false;
        }
        List<Slot> slots = template.slots();
        for (int i = 0; i < slots.size(); i++) { // indexed: no iterator on the hot path
            if (slots.get(i) instanceof Slot.Table t && t.start() >= item.start() && t.end() <= item.end()
                    && renders(template.text(), t, names) && !BARE_COLUMN.matcher(item.text()).matches()) {
                return true;
            }
        }
        return false;
    }

    /** Whether the slot's rendered name differs from its text (a schema qualifier dropped counts too). */
    private static boolean renders(String text, Slot.Table t, Map<String, String> names) {
        String rendered = names.get(t.table().toLowerCase(Locale.ROOT));
        return rendered != null && (t.end() - t.start() != rendered.length() || !text.regionMatches(t.start(), rendered, 0, rendered.length()));
    }
}
