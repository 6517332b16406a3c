package io.shardwise.it.oracle;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;

/**
 * The hand-written oracle statements, one group per feature. Reads come first and leave the data as
 * loaded; writes come last, each followed by a full, primary-key-ordered read of the table it touched.
 * Every ORDER BY that could tie ends with a unique column, and LIMIT appears only after such an ORDER
 * BY, so each statement has exactly one correct result. DISTINCT, GROUP BY and MIN/MAX over strings
 * with case or accent variants ({@code 'paid'/'Paid'}) use {@link Corpus#ci}: MySQL may return any
 * member of a collation-equal group.
 */
final class HandCorpus {
    private HandCorpus() {}

    static List<OracleCase> reads() {
        Corpus c = new Corpus();

        c.category("point");
        c.q("SELECT * FROM orders WHERE user_id = 7");
        c.q("SELECT order_id, status, amount FROM orders WHERE user_id = 1 ORDER BY order_id");
        c.q("SELECT * FROM order_items WHERE user_id = 2 ORDER BY item_id");
        c.q("SELECT * FROM users WHERE user_id = 42");
        c.q("SELECT name, email FROM users WHERE user_id = 100");
        c.q("SELECT * FROM sbtest1 WHERE id = 500");
        c.q("SELECT c FROM sbtest1 WHERE id = 1");
        c.q("SELECT * FROM small WHERE id = 2");
        c.q("SELECT * FROM events WHERE created_at = '2025-01-01 00:00:00'");
        c.q("SELECT * FROM events WHERE created_at = '2026-01-01'");
        c.q("SELECT * FROM orders WHERE user_id = 7 AND status = 'paid'");
        c.q("SELECT * FROM users WHERE user_id = 194");
        c.q("SELECT * FROM orders WHERE user_id = 3 AND order_id > 100500");
        c.q("SELECT order_id FROM orders WHERE 5 = user_id");
        c.q("SELECT * FROM orders WHERE user_id = 900000001");
        c.q("SELECT * FROM users u WHERE u.user_id = 10");
        c.q("SELECT `order_id`, `user_id` FROM `orders` WHERE `user_id` = 11");
        c.q("select ORDER_ID, Amount from orders where USER_ID = 13");
        c.q("SELECT /* a comment */ order_id FROM orders -- trailing\n WHERE user_id = 14");

        c.category("multi-point");
        c.q("SELECT * FROM orders WHERE user_id IN (1, 2, 3)");
        c.q("SELECT * FROM orders WHERE user_id IN (4, 8, 12) ORDER BY order_id");
        c.q("SELECT * FROM users WHERE user_id IN (1, 5, 9, 13, 194, 195)");
        c.q("SELECT * FROM orders WHERE user_id = 1 OR user_id = 2");
        c.q("SELECT * FROM orders WHERE user_id = 1 OR user_id = 6 OR user_id = -1");
        c.q("SELECT * FROM sbtest1 WHERE id IN (1, 2, 3, 4, 5, 6, 7, 8)");
        c.q("SELECT id, k FROM sbtest1 WHERE id IN (10, 20, 30) ORDER BY k, id");
        c.q("SELECT * FROM small WHERE id IN (1, 3)");
        c.q("SELECT * FROM events WHERE created_at IN ('2025-01-01 00:00:00', '2026-12-31 23:59:59')");
        c.q("SELECT * FROM order_items WHERE user_id IN (2, 3) AND quantity > 2");
        c.q("SELECT * FROM orders WHERE user_id IN (7) ");
        c.q("SELECT * FROM orders WHERE user_id IN (1, 1, 1)");
        c.q("SELECT * FROM users WHERE user_id IN (-1, -2, -3, -1000)");

        c.category("range");
        c.q("SELECT * FROM orders WHERE user_id BETWEEN 10 AND 20");
        c.q("SELECT * FROM orders WHERE user_id > 150");
        c.q("SELECT * FROM orders WHERE user_id < 0");
        c.q("SELECT * FROM orders WHERE user_id >= 190 AND user_id <= 193 ORDER BY user_id, order_id");
        c.q("SELECT * FROM users WHERE user_id BETWEEN 1 AND 3");
        c.q("SELECT * FROM events WHERE created_at BETWEEN '2025-03-01' AND '2025-04-01'");
        c.q("SELECT * FROM events WHERE created_at >= '2026-01-01'");
        c.q("SELECT * FROM events WHERE created_at < '2025-01-01'");
        c.q("SELECT * FROM events WHERE created_at > '2026-12-31 23:59:58'");
        c.q("SELECT * FROM events WHERE created_at >= '2025-12-31 23:59:59' AND created_at <= '2026-01-01 00:00:00'");
        c.q("SELECT id, kind FROM events WHERE created_at > '2025-06-30' AND created_at < '2025-07-02' ORDER BY id");
        c.q("SELECT * FROM events WHERE created_at >= '2027-01-01'");
        c.q("SELECT * FROM events WHERE created_at = '2024-06-01'");
        c.q("SELECT COUNT(*) FROM events WHERE created_at BETWEEN '2025-01-01' AND '2025-12-31 23:59:59'");
        c.q("SELECT * FROM sbtest1 WHERE id BETWEEN 100 AND 120");
        c.q("SELECT c FROM sbtest1 WHERE id BETWEEN 1 AND 100 ORDER BY c");
        c.q("SELECT * FROM small WHERE id > 1");

        federated(c);

        // a point-routed statement whose subquery reads other nodes (was answered from one node's rows)
        c.category("point-subquery");
        c.q("SELECT order_id FROM orders WHERE user_id = 3 AND amount > (SELECT AVG(amount) FROM orders) ORDER BY order_id");
        c.q("SELECT order_id, (SELECT COUNT(*) FROM order_items) AS n FROM orders WHERE user_id = 3 ORDER BY order_id");
        c.q("SELECT order_id FROM orders WHERE user_id = 3 AND order_id IN (SELECT order_id FROM order_items WHERE user_id = 4)");
        c.q("SELECT COUNT(*) FROM orders o WHERE o.user_id = 3 AND EXISTS (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id)");
        c.q("SELECT u.name, (SELECT SUM(amount) FROM orders o WHERE o.user_id = u.user_id) AS s FROM users u WHERE u.user_id = 5");
        c.q("SELECT COUNT(*) FROM users WHERE user_id = 9 AND user_id NOT IN (SELECT user_id FROM orders WHERE amount > 500)");

        // an unaliased item naming a table is labelled by the user's text, never by a node's physical name
        c.category("labels-renamed");
        c.q("SELECT COUNT(orders.order_id), MAX(orders.amount) FROM orders WHERE user_id = 3");
        c.q("SELECT orders.amount + 1, orders.order_id FROM orders WHERE user_id = 3 ORDER BY orders.order_id");
        c.q("SELECT u.name, (SELECT COUNT(*) FROM orders o WHERE o.user_id = u.user_id) FROM users u WHERE u.user_id = 3");
        c.q("SELECT COUNT(orders.order_id) FROM orders");
        // across shards: the merge's helper columns (sort and group keys, weights, partials) name each node's table
        c.q("SELECT orders.amount * 2 FROM orders WHERE user_id IN (1, 2, 3) ORDER BY orders.order_id LIMIT 5");
        c.q("SELECT COUNT(orders.order_id), AVG(amount), orders.amount - 1 FROM orders WHERE user_id IN (1, 2, 3)"
                + " GROUP BY amount ORDER BY amount LIMIT 3");
        c.q("SELECT orders.amount + 1, orders.order_id FROM orders ORDER BY orders.amount DESC, orders.order_id LIMIT 4");
        c.q("SELECT COUNT(orders.order_id), orders.user_id FROM orders GROUP BY orders.user_id ORDER BY orders.user_id LIMIT 7");
        c.ci("SELECT orders.status, COUNT(*) FROM orders GROUP BY orders.status ORDER BY orders.status");
        c.ci("SELECT status, COUNT(*) FROM orders GROUP BY status HAVING orders.status <> 'x' ORDER BY status");
        c.q("SELECT COUNT(DISTINCT orders.user_id), AVG(DISTINCT orders.amount) FROM orders");
        c.q("SELECT AVG(orders.amount), MIN(orders.created_at), MAX(orders.amount), BIT_OR(orders.user_id) FROM orders");
        c.q("SELECT user_id FROM orders GROUP BY user_id ORDER BY SUM(orders.amount) DESC, user_id LIMIT 5");
        c.q("SELECT user_id, SUM(orders.amount) / COUNT(orders.order_id) FROM orders GROUP BY user_id ORDER BY user_id LIMIT 5");
        c.q("SELECT GROUP_CONCAT(orders.order_id ORDER BY orders.order_id) FROM orders WHERE user_id IN (1, 2)");
        c.q("SELECT DISTINCT orders.user_id FROM orders WHERE user_id < 20 ORDER BY orders.user_id");
        c.q("SELECT sbtest1.k + 1, COUNT(sbtest1.id) FROM sbtest1 GROUP BY sbtest1.k ORDER BY sbtest1.k LIMIT 5");
        c.p("SELECT orders.order_id FROM orders WHERE user_id IN (1, 2, 3) ORDER BY orders.amount * ?, orders.order_id LIMIT 5", 2L);

        // subqueries over several nodes that read only the outer row's node (correlated on the key of bound
        // tables, or broadcast tables): run per node and merged; the rest of the category takes the third tier
        c.category("correlated-scatter");
        c.q("SELECT order_id FROM orders o WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id AND i.quantity > 2)");
        c.q("SELECT COUNT(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id AND i.order_id = o.order_id)");
        c.q("SELECT order_id, amount FROM orders o WHERE o.amount > (SELECT AVG(amount) FROM orders o2 WHERE o2.user_id = o.user_id)"
                + " ORDER BY order_id");
        c.q("SELECT o.order_id, (SELECT COUNT(*) FROM order_items i WHERE i.user_id = o.user_id) AS n FROM orders o");
        c.q("SELECT o.order_id, (SELECT SUM(i.price) FROM order_items i WHERE i.user_id = o.user_id AND i.order_id = o.order_id) AS total"
                + " FROM orders o ORDER BY o.order_id DESC LIMIT 5, 20");
        c.q("SELECT COUNT(*) FROM orders o WHERE o.amount NOT IN"
                + " (SELECT o2.amount FROM orders o2 WHERE o2.user_id = o.user_id AND o2.order_id <> o.order_id)");
        c.q("SELECT COUNT(*) FROM orders o WHERE o.order_id IN (SELECT i.order_id FROM order_items i WHERE o.user_id = i.user_id AND i.quantity >= 3)");
        c.ci("SELECT status, COUNT(*), SUM(amount), AVG(amount) FROM orders o WHERE EXISTS"
                + " (SELECT 1 FROM users u WHERE u.user_id = o.user_id AND u.email IS NULL) GROUP BY status");
        c.q("SELECT COUNT(*), MAX(amount) FROM orders o WHERE o.amount >= (SELECT MAX(o2.amount) FROM orders o2 WHERE o2.user_id = o.user_id)");
        c.q("SELECT u.user_id, (SELECT c.name FROM countries c WHERE c.code = u.country_code) AS country FROM users u ORDER BY u.user_id LIMIT 20");
        c.q("SELECT COUNT(*) FROM users u WHERE u.country_code IN (SELECT code FROM countries WHERE name LIKE 'G%')");
        c.q("SELECT order_id FROM orders o WHERE o.user_id IN (1, 2, 3, 4, 5) AND EXISTS"
                + " (SELECT 1 FROM users u WHERE u.user_id = o.user_id AND u.email IS NOT NULL) ORDER BY order_id");
        c.q("SELECT u.name, (SELECT COUNT(*) FROM orders o WHERE o.user_id = u.user_id) FROM users u");
        c.q("SELECT COUNT(*) FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.user_id AND EXISTS"
                + " (SELECT 1 FROM order_items i WHERE i.user_id = u.user_id AND i.order_id = o.order_id))");
        c.q("SELECT o.order_id, i.item_id FROM orders o JOIN order_items i ON i.user_id = o.user_id AND i.order_id = o.order_id"
                + " WHERE i.price > (SELECT AVG(i2.price) FROM order_items i2 WHERE i2.user_id = o.user_id) ORDER BY o.order_id, i.item_id");
        c.q("SELECT u.user_id, o.order_id FROM users u LEFT JOIN orders o ON o.user_id = u.user_id AND o.amount >"
                + " (SELECT AVG(o2.amount) FROM orders o2 WHERE o2.user_id = u.user_id) WHERE u.user_id < 40 ORDER BY u.user_id, o.order_id");
        c.q("SELECT o.order_id, (SELECT i.sku FROM order_items i WHERE i.user_id = o.user_id ORDER BY i.item_id LIMIT 1) AS first_sku"
                + " FROM orders o WHERE o.amount > 900");
        c.p("SELECT order_id FROM orders o WHERE o.amount > ? AND EXISTS"
                + " (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id AND i.quantity > ?) ORDER BY order_id", 100, 2);
        // sorted, de-duplicated or aggregated by the subquery, or HAVING over it, or correlated on no key: the third tier
        c.q("SELECT u.name, (SELECT COUNT(*) FROM orders o WHERE o.user_id = u.user_id) FROM users u ORDER BY u.user_id LIMIT 10");
        c.q("SELECT o.order_id, (SELECT COUNT(*) FROM order_items i WHERE i.user_id = o.user_id) AS n FROM orders o ORDER BY n DESC, o.order_id"
                + " LIMIT 10");
        c.q("SELECT DISTINCT (SELECT COUNT(*) FROM order_items i WHERE i.user_id = u.user_id) AS n FROM users u");
        c.q("SELECT SUM((SELECT COUNT(*) FROM order_items i WHERE i.user_id = o.user_id)) FROM orders o");
        c.q("SELECT user_id, COUNT(*) FROM orders o GROUP BY user_id HAVING COUNT(*) > (SELECT COUNT(*) FROM order_items i WHERE i.user_id = o.user_id)");
        c.q("SELECT o.order_id FROM orders o ORDER BY (SELECT COUNT(*) FROM order_items i WHERE i.user_id = o.user_id) DESC, o.order_id LIMIT 8");
        c.q("SELECT COUNT(*) FROM orders o WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id AND i.quantity > 4)");
        c.q("SELECT COUNT(*) FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.user_id AND EXISTS"
                + " (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id AND i.order_id = o.order_id))");

        c.category("scatter");
        c.q("SELECT * FROM orders");
        c.q("SELECT * FROM order_items");
        c.q("SELECT * FROM users");
        c.q("SELECT * FROM events");
        c.q("SELECT * FROM sbtest1");
        c.q("SELECT * FROM sbtest2");
        c.q("SELECT * FROM small");
        c.q("SELECT order_id, amount FROM orders WHERE status = 'paid'");
        c.q("SELECT order_id FROM orders WHERE amount > 900");
        c.q("SELECT * FROM orders WHERE amount IS NULL");
        c.q("SELECT * FROM orders WHERE status IS NULL");
        c.q("SELECT * FROM orders WHERE order_id = 100123");
        c.q("SELECT * FROM users WHERE name = 'apple'");
        c.q("SELECT * FROM users WHERE email LIKE '%EXAMPLE.com'");
        c.q("SELECT * FROM users WHERE country_code = 'de'");
        c.q("SELECT * FROM users WHERE name = 'zoe'");
        c.q("SELECT * FROM users WHERE name = 'aaron'");
        c.q("SELECT * FROM users WHERE name = ''");
        c.q("SELECT * FROM users WHERE name IS NULL");
        c.q("SELECT * FROM sbtest1 WHERE k = 500");
        c.q("SELECT * FROM small WHERE category = 'BOOKS'");
        c.q("SELECT * FROM events WHERE kind = 'view' AND id < 50");
        c.q("SELECT * FROM order_items WHERE sku = 'sku-1100'");
        c.q("SELECT * FROM orders WHERE user_id IS NULL");
        c.q("SELECT * FROM orders WHERE user_id = 1 OR status = 'new'");
        c.q("SELECT * FROM orders WHERE NOT (user_id = 1)");
        c.q("SELECT * FROM orders WHERE user_id <> 1 AND amount < 10");
        c.q("SELECT order_id, amount * 2 AS double_amount, UPPER(status) FROM orders WHERE amount < 5");
        c.q("SELECT order_id, created_at, DATE(created_at) AS d, YEAR(created_at) FROM orders WHERE amount > 990");
        c.q("SELECT 1 AS one, order_id FROM orders WHERE amount < 0");
        c.q("SELECT o.* FROM orders o WHERE o.amount = 19.99");

        c.category("join");
        c.q("SELECT o.order_id, o.amount, i.item_id, i.sku FROM orders o JOIN order_items i ON o.user_id = i.user_id"
                + " AND o.order_id = i.order_id WHERE o.user_id = 7");
        c.q("SELECT o.order_id, i.item_id, i.price FROM orders o JOIN order_items i ON o.user_id = i.user_id"
                + " AND o.order_id = i.order_id WHERE o.amount > 950");
        c.q("SELECT o.order_id, i.item_id FROM orders o JOIN order_items i USING (user_id, order_id)"
                + " WHERE o.user_id IN (1, 2) ORDER BY i.item_id");
        c.q("SELECT u.user_id, u.name, o.order_id FROM users u JOIN orders o ON u.user_id = o.user_id WHERE u.user_id = 3");
        c.q("SELECT u.user_id, o.order_id FROM users u LEFT JOIN orders o ON u.user_id = o.user_id WHERE o.order_id IS NULL");
        c.q("SELECT o.order_id, o.user_id, u.name FROM orders o LEFT JOIN users u ON u.user_id = o.user_id WHERE u.user_id IS NULL");
        c.q("SELECT u.user_id, COUNT(o.order_id) FROM users u LEFT JOIN orders o ON u.user_id = o.user_id"
                + " WHERE u.user_id BETWEEN 1 AND 20 GROUP BY u.user_id ORDER BY u.user_id");
        c.q("SELECT o.order_id, SUM(i.price * i.quantity) AS total FROM orders o JOIN order_items i"
                + " ON o.user_id = i.user_id AND o.order_id = i.order_id WHERE o.user_id = 1 GROUP BY o.order_id ORDER BY o.order_id");
        c.q("SELECT COUNT(*) FROM orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id");
        c.q("SELECT o.order_id, i.sku FROM orders o, order_items i WHERE o.user_id = i.user_id"
                + " AND o.order_id = i.order_id AND i.quantity = 100");

        c.category("broadcast");
        c.q("SELECT * FROM countries");
        c.q("SELECT * FROM countries ORDER BY code");
        c.q("SELECT * FROM countries WHERE code = 'de'");
        c.q("SELECT name FROM countries WHERE code IN ('US', 'ci', 'TR') ORDER BY name");
        c.q("SELECT COUNT(*) FROM countries");
        c.q("SELECT u.user_id, c.name FROM users u JOIN countries c ON u.country_code = c.code WHERE u.user_id = 5");
        c.q("SELECT u.user_id, c.name FROM users u JOIN countries c ON u.country_code = c.code WHERE u.user_id < 40");
        c.q("SELECT u.user_id, c.name FROM users u LEFT JOIN countries c ON u.country_code = c.code");
        c.q("SELECT c.code, COUNT(*) FROM users u JOIN countries c ON u.country_code = c.code GROUP BY c.code ORDER BY c.code");
        c.q("SELECT o.order_id, c.code FROM orders o JOIN users u ON o.user_id = u.user_id"
                + " JOIN countries c ON c.code = u.country_code WHERE o.user_id = 2");
        c.q("SELECT p.code, c.name FROM promotions p JOIN countries c ON c.code = 'FR' ORDER BY p.id");

        c.category("single");
        c.q("SELECT * FROM promotions");
        c.q("SELECT * FROM promotions ORDER BY code, id");
        c.q("SELECT * FROM promotions WHERE code = 'welcome10'");
        c.q("SELECT code, discount FROM promotions WHERE discount > 10 ORDER BY discount DESC, id");
        c.q("SELECT COUNT(*), SUM(discount), AVG(discount), MIN(discount), MAX(discount) FROM promotions");
        c.q("SELECT discount, COUNT(*) FROM promotions GROUP BY discount HAVING COUNT(*) > 1");
        c.q("SELECT * FROM promotions WHERE id IN (SELECT id FROM promotions WHERE discount > 20)");
        c.q("SELECT * FROM promotions ORDER BY id LIMIT 3");
        c.q("SELECT GROUP_CONCAT(code ORDER BY id) FROM promotions");

        c.category("order");
        c.q("SELECT order_id, amount FROM orders ORDER BY amount, order_id");
        c.q("SELECT order_id, amount FROM orders ORDER BY amount DESC, order_id DESC");
        c.q("SELECT order_id, amount FROM orders WHERE amount IS NOT NULL ORDER BY amount DESC, order_id");
        c.q("SELECT order_id, status FROM orders ORDER BY status, order_id");
        c.q("SELECT order_id, status FROM orders ORDER BY status DESC, order_id");
        c.q("SELECT user_id, name FROM users ORDER BY name, user_id");
        c.q("SELECT user_id, name FROM users ORDER BY name DESC, user_id DESC");
        c.q("SELECT user_id, email FROM users ORDER BY email, user_id");
        c.q("SELECT user_id, country_code FROM users ORDER BY country_code, user_id");
        c.q("SELECT user_id, created_at FROM users ORDER BY created_at, user_id");
        c.q("SELECT id, created_at FROM events ORDER BY created_at DESC, id");
        c.q("SELECT id, kind FROM events ORDER BY kind, id");
        c.q("SELECT order_id FROM orders ORDER BY user_id, order_id");
        c.q("SELECT order_id, user_id FROM orders ORDER BY user_id DESC, order_id");
        c.q("SELECT order_id FROM orders ORDER BY created_at, order_id");
        c.q("SELECT order_id, amount FROM orders ORDER BY 2, 1");
        c.q("SELECT order_id AS id, amount AS a FROM orders ORDER BY a DESC, id");
        c.q("SELECT item_id, sku FROM order_items ORDER BY sku, item_id");
        c.q("SELECT id, c FROM sbtest1 ORDER BY c");
        c.q("SELECT id, k FROM sbtest1 ORDER BY k DESC, id");
        c.q("SELECT * FROM small ORDER BY category DESC");
        c.q("SELECT * FROM small ORDER BY id DESC");
        c.q("SELECT user_id, name FROM users WHERE user_id IN (1, 2, 3, 4) ORDER BY name, user_id");
        c.q("SELECT order_id, amount FROM orders ORDER BY -amount, order_id");
        c.q("SELECT order_id, status FROM orders ORDER BY UPPER(status), order_id");
        c.q("SELECT user_id, name FROM users ORDER BY LENGTH(name), user_id");
        c.q("SELECT order_id, user_id FROM orders ORDER BY order_id");

        c.category("user variables assigned inside a select");
        // initialized in a derived table, so each run starts alike: one pass over every row, in order
        c.q("SELECT @hrn := @hrn + 1 AS rn, u.name FROM users u, (SELECT @hrn := 0) init ORDER BY u.user_id");
        c.q("SELECT @hmax := MAX(amount) AS top, COUNT(*) FROM orders");

        c.category("limit");
        c.q("SELECT * FROM orders ORDER BY order_id LIMIT 10");
        c.q("SELECT * FROM orders ORDER BY order_id LIMIT 5, 10");
        c.q("SELECT * FROM orders ORDER BY order_id LIMIT 10 OFFSET 990");
        c.q("SELECT * FROM orders ORDER BY order_id LIMIT 995, 10");
        c.q("SELECT * FROM orders ORDER BY order_id LIMIT 2000, 10");
        c.q("SELECT * FROM orders ORDER BY order_id LIMIT 0");
        c.q("SELECT order_id, amount FROM orders ORDER BY amount DESC, order_id LIMIT 7");
        c.q("SELECT user_id, name FROM users ORDER BY name, user_id LIMIT 20, 15");
        c.q("SELECT id FROM events ORDER BY created_at, id LIMIT 3");
        c.q("SELECT id FROM events WHERE created_at >= '2026-01-01' ORDER BY created_at, id LIMIT 3");
        c.q("SELECT * FROM orders WHERE user_id = 1 ORDER BY order_id LIMIT 2");
        c.q("SELECT * FROM orders WHERE user_id IN (1, 2) ORDER BY order_id LIMIT 1, 3");
        c.q("SELECT id, k FROM sbtest1 ORDER BY k, id LIMIT 100, 5");
        c.q("SELECT * FROM small ORDER BY id LIMIT 1, 1");
        c.q("SELECT * FROM orders ORDER BY order_id DESC LIMIT 1");

        c.category("distinct");
        c.ci("SELECT DISTINCT status FROM orders");
        c.q("SELECT DISTINCT user_id FROM orders");
        c.q("SELECT DISTINCT user_id FROM orders ORDER BY user_id");
        c.ci("SELECT DISTINCT country_code FROM users");
        c.ci("SELECT DISTINCT kind FROM events");
        c.q("SELECT DISTINCT YEAR(created_at) FROM events");
        c.q("SELECT DISTINCT quantity FROM order_items ORDER BY quantity");
        c.ci("SELECT DISTINCT status, YEAR(created_at) FROM orders");
        c.q("SELECT DISTINCT amount FROM orders WHERE amount < 1 ORDER BY amount");
        c.q("SELECT DISTINCT category FROM small");
        c.ci("SELECT DISTINCT name FROM users");
        c.q("SELECT DISTINCT user_id FROM orders ORDER BY user_id LIMIT 5, 5");

        c.category("group");
        c.ci("SELECT status, COUNT(*) FROM orders GROUP BY status");
        c.ci("SELECT status, COUNT(*), SUM(amount), MIN(amount), MAX(amount), AVG(amount) FROM orders GROUP BY status");
        c.q("SELECT user_id, COUNT(*) FROM orders GROUP BY user_id");
        c.q("SELECT user_id, COUNT(*) AS n FROM orders GROUP BY user_id ORDER BY user_id");
        c.q("SELECT user_id, SUM(amount) FROM orders GROUP BY user_id ORDER BY user_id DESC");
        c.q("SELECT user_id, COUNT(*) AS n FROM orders GROUP BY user_id ORDER BY n DESC, user_id LIMIT 10");
        c.q("SELECT YEAR(created_at), COUNT(*) FROM orders GROUP BY YEAR(created_at)");
        c.q("SELECT YEAR(created_at) AS y, COUNT(*) FROM events GROUP BY y ORDER BY y");
        c.q("SELECT quantity, COUNT(*), SUM(price) FROM order_items GROUP BY quantity ORDER BY quantity");
        c.q("SELECT COUNT(*), MIN(user_id) FROM users GROUP BY name");
        c.ci("SELECT country_code, COUNT(*) FROM users GROUP BY country_code");
        c.q("SELECT k, COUNT(*) FROM sbtest1 GROUP BY k ORDER BY k LIMIT 20");
        c.q("SELECT category, COUNT(*) FROM small GROUP BY category");
        c.q("SELECT user_id, AVG(amount) FROM orders WHERE user_id < 0 GROUP BY user_id");
        c.q("SELECT user_id, COUNT(*) FROM orders WHERE user_id = 1 GROUP BY user_id");
        c.ci("SELECT status, COUNT(*) FROM orders WHERE user_id = 1 GROUP BY status HAVING COUNT(*) > 1");
        c.q("SELECT user_id, COUNT(*) FROM orders GROUP BY user_id ORDER BY COUNT(*) DESC, user_id LIMIT 3");
        c.q("SELECT UPPER(status) AS s, COUNT(*) FROM orders GROUP BY UPPER(status) ORDER BY s");
        c.q("SELECT user_id, MAX(created_at), MIN(created_at) FROM orders GROUP BY user_id");
        c.q("SELECT status IS NULL, COUNT(*) FROM orders GROUP BY status IS NULL");

        c.category("having");
        c.ci("SELECT status, COUNT(*) FROM orders GROUP BY status HAVING COUNT(*) > 10");
        c.q("SELECT user_id FROM orders GROUP BY user_id HAVING SUM(amount) > 1000");
        c.q("SELECT user_id, COUNT(*) AS n FROM orders GROUP BY user_id HAVING n >= 10 ORDER BY n DESC, user_id");
        c.q("SELECT user_id, AVG(amount) FROM orders GROUP BY user_id HAVING AVG(amount) < 300 ORDER BY user_id");
        c.q("SELECT user_id, MAX(amount) FROM orders GROUP BY user_id HAVING MAX(amount) > 990 OR MIN(amount) < 0");
        c.q("SELECT quantity, COUNT(*) FROM order_items GROUP BY quantity HAVING COUNT(*) >= 10 AND COUNT(*) <= 2000");
        c.q("SELECT YEAR(created_at) AS y, COUNT(*) FROM events GROUP BY y HAVING y > 2025");
        c.q("SELECT k, COUNT(*) FROM sbtest1 GROUP BY k HAVING COUNT(*) > 2 ORDER BY k");
        c.q("SELECT user_id, COUNT(*) FROM orders WHERE user_id = 1 GROUP BY user_id HAVING COUNT(*) > 100");
        c.q("SELECT COUNT(*) FROM orders HAVING COUNT(*) > 0");

        c.category("aggregate");
        c.q("SELECT COUNT(*) FROM orders");
        c.q("SELECT COUNT(*), COUNT(amount), COUNT(status) FROM orders");
        c.q("SELECT SUM(amount) FROM orders");
        c.q("SELECT AVG(amount) FROM orders");
        c.q("SELECT MIN(amount), MAX(amount) FROM orders");
        c.q("SELECT MIN(created_at), MAX(created_at) FROM orders");
        c.q("SELECT SUM(user_id) FROM orders WHERE user_id > 0");
        c.q("SELECT SUM(user_id), AVG(user_id) FROM users");
        c.q("SELECT MIN(user_id), MAX(user_id) FROM users");
        c.q("SELECT COUNT(*) AS n, SUM(quantity) AS q, AVG(quantity) AS avg_q FROM order_items");
        c.q("SELECT AVG(price) FROM order_items");
        c.q("SELECT SUM(k), AVG(k), MIN(c), MAX(c) FROM sbtest1");
        c.q("SELECT COUNT(*) FROM events");
        c.q("SELECT MIN(status), MAX(status) FROM orders");
        c.q("SELECT MIN(name), MAX(name) FROM users");
        c.q("SELECT MAX(country_code) FROM users");
        c.q("SELECT COUNT(*) FROM orders WHERE user_id = 7");
        c.q("SELECT COUNT(*), SUM(amount), AVG(amount), MIN(amount), MAX(amount) FROM orders WHERE user_id = 123456789");
        c.q("SELECT COUNT(*), SUM(amount), AVG(amount), MIN(amount), MAX(amount) FROM orders WHERE amount > 1000000");
        c.q("SELECT COUNT(*), SUM(k) FROM sbtest1 WHERE id < 0");
        c.q("SELECT COUNT(*) FROM events WHERE created_at < '2025-01-01'");
        c.q("SELECT COUNT(*), MAX(created_at) FROM events WHERE created_at >= '2027-01-01'");
        c.q("SELECT COUNT(1), COUNT(NULL) FROM orders");
        c.q("SELECT SUM(amount) AS total FROM orders WHERE status = 'paid'");
        c.q("SELECT COUNT(*) FROM small");
        c.q("SELECT SUM(id), AVG(id) FROM small");

        c.category("keys");
        c.q("SELECT * FROM orders WHERE user_id = -1");
        c.q("SELECT * FROM orders WHERE user_id = -1000");
        c.q("SELECT * FROM users WHERE user_id = 9223372036854775807");
        c.q("SELECT * FROM orders WHERE user_id = 9223372036854775807");
        c.q("SELECT * FROM orders WHERE user_id = 9007199254740993");
        c.q("SELECT * FROM orders WHERE user_id = 4294967296");
        c.q("SELECT * FROM orders WHERE user_id = '42'");
        c.q("SELECT * FROM orders WHERE user_id = '7'");
        c.q("SELECT * FROM users WHERE user_id = ' 7'");
        c.q("SELECT * FROM users WHERE user_id = '7.0'");
        c.q("SELECT * FROM users WHERE user_id = '7abc'");
        c.q("SELECT * FROM users WHERE user_id = 7.0");
        c.q("SELECT * FROM users WHERE user_id = 7.5");
        c.q("SELECT * FROM users WHERE user_id = '-1'");
        c.q("SELECT * FROM users WHERE user_id = '9007199254740993'");
        c.q("SELECT * FROM users WHERE user_id = '9007199254740992'");
        c.q("SELECT * FROM users WHERE user_id = 9007199254740992");
        c.q("SELECT * FROM users WHERE user_id IN ('1', '2', 3)");
        c.q("SELECT * FROM users WHERE user_id = NULL");
        c.q("SELECT * FROM users WHERE user_id <=> NULL");
        c.q("SELECT * FROM users WHERE user_id IN (NULL, 5)");
        c.q("SELECT * FROM orders WHERE user_id = 18446744073709551615");
        c.q("SELECT * FROM orders WHERE user_id = -9223372036854775808");
        c.q("SELECT * FROM users WHERE user_id = 1e1");
        c.q("SELECT * FROM users WHERE user_id = 0x0A");
        c.q("SELECT * FROM sbtest1 WHERE id = '5'");
        c.q("SELECT * FROM sbtest1 WHERE id = 5.0");
        c.q("SELECT * FROM sbtest1 WHERE id = -5");
        c.q("SELECT * FROM small WHERE id = -1");
        c.q("SELECT * FROM small WHERE id = '3'");
        c.q("SELECT * FROM events WHERE created_at = '2025-12-31 23:59:59'");
        c.q("SELECT * FROM events WHERE created_at = 20260101000000");
        c.q("SELECT * FROM events WHERE created_at = '2025-07-01'");
        c.q("SELECT * FROM orders WHERE user_id BETWEEN -3 AND -1");
        c.q("SELECT * FROM orders WHERE user_id BETWEEN '10' AND '12'");

        c.category("prepared");
        c.p("SELECT * FROM orders WHERE user_id = ?", 7L);
        c.p("SELECT * FROM orders WHERE user_id = ?", 7);
        c.p("SELECT * FROM orders WHERE user_id = ?", "7");
        c.p("SELECT * FROM orders WHERE user_id = ?", -1L);
        c.p("SELECT * FROM orders WHERE user_id = ?", Long.MAX_VALUE);
        c.p("SELECT * FROM orders WHERE user_id = ?", (Object) null);
        c.p("SELECT * FROM orders WHERE user_id IN (?, ?, ?)", 1L, 2L, 3L);
        c.p("SELECT * FROM orders WHERE user_id BETWEEN ? AND ? ORDER BY order_id", 5L, 9L);
        c.p("SELECT * FROM orders WHERE user_id = ? AND status = ?", 1L, "paid");
        c.p("SELECT order_id FROM orders WHERE amount > ? ORDER BY order_id", new BigDecimal("900.50"));
        c.p("SELECT * FROM orders ORDER BY order_id LIMIT ?, ?", 10, 5);
        c.p("SELECT * FROM orders ORDER BY order_id LIMIT ?", 3);
        c.p("SELECT c FROM sbtest1 WHERE id = ?", 42);
        c.p("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", 100, 199);
        c.p("SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?", 1, 100);
        c.p("SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", 300, 399);
        c.p("SELECT * FROM events WHERE created_at = ?", LocalDateTime.of(2026, 1, 1, 0, 0));
        // server-prepared, a date or time is bound typed: written into a merge's or the JDBC path's text it stays temporal
        c.p("SELECT order_id, ? + 0 AS d, ? + 0 AS t FROM orders WHERE user_id IN (1, 2, 3) ORDER BY order_id",
                java.time.LocalDate.of(2025, 5, 6), LocalDateTime.of(2025, 5, 6, 7, 8, 9, 500_000_000));
        c.p("SELECT order_id, CONCAT(?), ? = '2025-05-06' FROM orders WHERE user_id = ? ORDER BY order_id",
                java.time.LocalDate.of(2025, 5, 6), LocalDateTime.of(2025, 5, 6, 0, 0), 7L);
        c.p("SELECT order_id, ? + 0 FROM orders WHERE user_id IN (2, 3) ORDER BY order_id", java.time.LocalTime.of(3, 4, 5));
        c.p("SELECT * FROM events WHERE created_at BETWEEN ? AND ?", "2025-12-01", "2026-01-31");
        c.p("SELECT * FROM users WHERE name = ? ORDER BY user_id", "Apple");
        c.p("SELECT COUNT(*) FROM orders WHERE user_id > ?", 100L);
        c.p("SELECT * FROM small WHERE id = ?", 1L);
        c.p("SELECT * FROM countries WHERE code = ?", "se");
        c.p("SELECT * FROM promotions WHERE discount = ?", new BigDecimal("10.00"));
        c.p("SELECT * FROM orders WHERE user_id = ? OR user_id = ?", 9007199254740993L, -3L);
        c.p("SELECT * FROM users WHERE user_id = ?", "9223372036854775807");
        // parenthesised markers: Calcite positions such a parameter at its '(' (once failed with 1105)
        c.p("SELECT * FROM orders WHERE user_id = (?) AND order_id IN (SELECT order_id FROM order_items WHERE user_id = ?)"
                + " ORDER BY order_id", 7L, 7L);
        c.p("SELECT order_id, amount FROM orders WHERE user_id IN ((?), ?) AND amount > ((?)) ORDER BY order_id", 3L, 6L, 10L);
        c.p("SELECT user_id, COUNT(*) FROM orders WHERE user_id = (? + 1) GROUP BY user_id HAVING COUNT(*) > (?)", 4L, 0L);

        // the content of an applicable executable comment is statement text (routing sees its WHERE);
        // one the announced server skips is a comment (MariaDB skips MySQL-only 50700..99999)
        c.category("executable-comment");
        c.q("SELECT order_id /*!40101 , status */ FROM orders WHERE user_id = 7 ORDER BY order_id");
        c.q("SELECT /*!40001 SQL_NO_CACHE */ order_id FROM orders WHERE user_id IN (1, 2) ORDER BY order_id");
        c.q("SELECT user_id, COUNT(*) FROM orders /*!40101 WHERE user_id < 50 */ GROUP BY user_id ORDER BY user_id");
        c.q("SELECT * FROM orders /*M!100000 WHERE user_id = 9 */ ORDER BY order_id");
        c.q("SELECT * FROM orders /*!99999 WHERE user_id = 9 */ WHERE user_id = 8 ORDER BY order_id");
        c.q("SELECT COUNT(*) /*!50700 , SUM(amount) */ FROM orders");
        c.q("SELECT /*! DISTINCT */ status FROM orders WHERE user_id = 3 ORDER BY status");
        c.q("SELECT '/*!40101 , 1 */' AS s FROM small WHERE id = 1");

        return c.cases();
    }

    /** Statements that fail on MySQL and must fail with the same errno through Shardwise. */
    static List<OracleCase> errors() {
        Corpus c = new Corpus().category("error");
        c.fails("SELEC * FROM orders");
        c.fails("SELECT * FROM orders WHERE");
        c.fails("SELECT * FROM orders WHERE user_id = 1 AND");
        c.fails("SELECT * FROM small WHERE id = 1 ORDER");
        c.fails("SELECT * FROM promotions WHERE");
        c.fails("SELECT nope FROM orders WHERE user_id = 1");
        c.fails("SELECT nope FROM orders");
        c.fails("SELECT * FROM orders WHERE nope = 3");
        c.failsWordedOtherwise("SELECT * FROM orders ORDER BY nope",
                "each shard also selects the sort column, hidden, so the shard reports it missing in the select list");
        c.failsWordedOtherwise("SELECT order_id FROM orders ORDER BY 5",
                "Shardwise checks the position itself, in MySQL 8's wording ('order clause'); MariaDB says 'ORDER BY'");
        c.fails("SELECT order_id FROM orders WHERE user_id = 2 ORDER BY 5");
        c.fails("SELECT nope FROM countries");
        c.fails("SELECT nope FROM promotions");
        c.fails("SELECT * FROM no_such_table");
        c.fails("SELECT * FROM orders o JOIN no_such_table n ON o.order_id = n.id WHERE o.user_id = 1");
        c.fails("SELECT user_id FROM orders o JOIN users u ON o.user_id = u.user_id WHERE o.user_id = 1");
        c.fails("SELECT user_id FROM orders o JOIN users u ON o.user_id = u.user_id");
        c.fails("SELECT * FROM orders WHERE user_id = 1 LIMIT -1");
        c.fails("SELECT NOSUCHFUNCTION(order_id) FROM orders");
        c.fails("SELECT COUNT(*) FROM orders WHERE user_id IN ()");
        c.fails("SELECT SUM(nope) FROM orders");
        // messages that name tables or the database read as on one database: never orders_0 or a backend's database
        c.fails("SELECT o.nope FROM orders o WHERE o.user_id = 1");
        c.fails("SELECT orders.nope FROM orders WHERE user_id = 1");
        c.fails("SELECT * FROM orders WHERE orders.nope = 1");
        c.fails("SELECT * FROM shop.no_such_table");
        c.fails("SELECT * FROM order_items i JOIN orders o ON o.nope = i.order_id WHERE i.user_id = 3 AND o.user_id = 3");
        c.fails("UPDATE orders SET nope = 1 WHERE user_id = 1");
        c.fails("DELETE FROM orders WHERE orders.nope = 1");
        c.fails("INSERT INTO orders (order_id, user_id, nope) VALUES (1, 1, 1)");
        c.fails("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (1, 1, 'x', 1, NOW()) ON DUPLICATE KEY UPDATE nope = 1");
        c.fails("CREATE TABLE orders (id INT)");
        c.fails("DROP TABLE no_such_table");
        c.fails("ALTER TABLE orders ADD COLUMN user_id INT");
        // a shard's physical table is no table of the logical schema (orders_0 sits on the default backend)
        c.fails("SELECT * FROM orders_0");
        c.fails("SELECT * FROM `Orders_1` WHERE user_id = 1");
        c.fails("SELECT o.status FROM orders o JOIN orders_0 p ON o.order_id = p.order_id WHERE o.user_id = 4");
        c.fails("INSERT INTO orders_0 (order_id, user_id, status, amount, created_at) VALUES (1, 4, 'x', 1, NOW())");
        c.fails("UPDATE orders_1 SET status = 'x'");
        c.fails("DELETE FROM orders_0 WHERE user_id = 4");
        c.fails("TRUNCATE TABLE orders_0");
        c.fails("ALTER TABLE orders_1 ADD COLUMN z INT");
        return c.cases();
    }

    /** Writes, each followed by the whole touched table; run after every read. */
    static List<OracleCase> writes() {
        Corpus c = new Corpus();
        String ordersCols = "INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES ";

        c.category("insert");
        c.write(ordersCols + "(200001, 42, 'new', 10.50, '2025-02-03 04:05:06')", "orders", "order_id");
        c.write(ordersCols + "(200002, 1, 'new', 1.00, '2025-02-03 04:05:06'), (200003, 2, 'paid', 2.00, '2025-02-03 04:05:07'),"
                + " (200004, 3, NULL, NULL, '2025-02-03 04:05:08'), (200005, -1, 'Paid', -5.25, '2025-02-03 04:05:09'),"
                + " (200006, 9223372036854775807, 'x', 0, '2025-02-03 04:05:10')", "orders", "order_id");
        c.write("INSERT INTO orders (user_id, order_id, created_at) VALUES (6, 200007, '2026-01-01')", "orders", "order_id");
        // issue 14: no column list (dump files): the columns are the table's, in order, so each row finds its shard
        c.write("INSERT INTO orders VALUES (200008, 8, 'paid', 99.99, '2024-12-31 23:59:59')", "orders", "order_id");
        c.write("INSERT INTO users VALUES (1101, 'a', NULL, 'DE', NULL), (1102, 'b', NULL, NULL, '2025-01-01'),"
                + " (1103, 'c', NULL, NULL, NULL)", "users", "user_id");
        c.write(ordersCols + "(200009, '10', 'str-key', 3, '2025-01-01')", "orders", "order_id");
        c.pwrite(ordersCols + "(?, ?, ?, ?, ?)", "orders", "order_id",
                200010L, 11L, "prepared", new BigDecimal("12.34"), LocalDateTime.of(2025, 5, 6, 7, 8, 9));
        c.pwrite(ordersCols + "(?, ?, ?, ?, ?), (?, ?, ?, ?, ?)", "orders", "order_id",
                200011L, -2L, null, null, "2025-01-01 00:00:00", 200012L, 13L, "two", 1, "2025-01-02 00:00:00");
        c.write("INSERT INTO order_items (item_id, order_id, user_id, sku, quantity, price) VALUES"
                + " (90001, 200001, 42, 'SKU-9', 1, 1.00), (90002, 200002, 1, 'sku-9', 2, 2.00), (90003, 200003, 2, 'SKU-10', 3, 3.00)",
                "order_items", "item_id");
        c.write("INSERT INTO users (user_id, name, email, country_code, created_at) VALUES (1001, 'New', NULL, 'DE', NULL),"
                + " (1002, 'new', 'n@x', 'de', '2025-01-01'), (-5000, 'Neg', NULL, NULL, NULL)", "users", "user_id");
        c.write("INSERT INTO countries (code, name) VALUES ('XX', 'Nowhere')", "countries", "code");
        c.write("INSERT INTO countries VALUES ('YY', 'Elsewhere'), ('QQ', 'Quux')", "countries", "code");
        c.write("INSERT INTO promotions (id, code, discount) VALUES (11, 'NEW11', 11.00)", "promotions", "id");
        c.write("INSERT INTO events (id, created_at, kind) VALUES (501, '2025-12-31 23:59:59', 'edge'),"
                + " (502, '2026-01-01 00:00:00', 'edge'), (503, '2025-06-15 12:00:00', NULL)", "events", "id");
        c.write("INSERT INTO sbtest1 (id, k, c, pad) VALUES (1001, 5, 'c1001', 'p'), (1002, 6, 'c1002', 'p'), (1003, 7, 'c1003', 'p')",
                "sbtest1", "id");
        c.write("INSERT INTO small (id, category) VALUES (4, 'books'), (5, 'software')", "small", "id");
        c.write("INSERT IGNORE INTO users (user_id, name) VALUES (42, 'ignored')", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) VALUES (42, 'dupe') ON DUPLICATE KEY UPDATE name = 'dupe'", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) VALUES (42, 'dupe') ON DUPLICATE KEY UPDATE name = 'dupe'", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) VALUES (43, 'a'), (1003, 'b') ON DUPLICATE KEY UPDATE name = VALUES(name)",
                "users", "user_id");
        c.write("REPLACE INTO sbtest1 (id, k, c, pad) VALUES (1001, 50, 'replaced', 'p')", "sbtest1", "id");
        c.write("REPLACE INTO countries (code, name) VALUES ('XX', 'Nowhere Land')", "countries", "code");
        c.failingWrite("INSERT INTO users (user_id, name) VALUES (42, 'duplicate')", "users", "user_id");
        c.failingWrite("INSERT INTO countries VALUES ('DE', 'again')", "countries", "code");
        c.failingWrite("INSERT INTO promotions (id, code, discount) VALUES (1, 'dupe', 1)", "promotions", "id");
        c.failingWrite("INSERT INTO countries VALUES ('XYZ', 'too long a code')", "countries", "code");
        c.failingWrite("INSERT INTO orders (order_id, user_id, nope, created_at) VALUES (200099, 1, 1, '2025-01-01')", "orders", "order_id");
        c.failingWrite("INSERT INTO sbtest1 (id, k, c, pad) VALUES (1004, 1, 'x')", "sbtest1", "id");

        c.category("update");
        c.write("UPDATE orders SET status = 'shipped' WHERE user_id = 42", "orders", "order_id");
        c.write("UPDATE orders SET status = status WHERE user_id = 5", "orders", "order_id");
        c.write("UPDATE orders SET amount = amount + 1 WHERE order_id = 100010", "orders", "order_id");
        c.write("UPDATE orders SET status = 'void' WHERE status = 'cancelled'", "orders", "order_id");
        c.write("UPDATE orders SET amount = 0 WHERE user_id IN (1, 2, 3) AND amount < 100", "orders", "order_id");
        c.write("UPDATE orders SET status = 'neg' WHERE user_id < 0", "orders", "order_id");
        c.write("UPDATE orders SET status = 'none' WHERE user_id = 77777", "orders", "order_id");
        c.pwrite("UPDATE orders SET amount = ? WHERE user_id = ? AND order_id = ?", "orders", "order_id",
                new BigDecimal("7.77"), 42L, 200001L);
        c.write("UPDATE users SET name = 'Zed' WHERE user_id IN (1, 2, 3)", "users", "user_id");
        c.write("UPDATE users SET email = LOWER(email) WHERE email LIKE '%EXAMPLE%'", "users", "user_id");
        c.write("UPDATE countries SET name = 'Deutschland' WHERE code = 'de'", "countries", "code");
        c.write("UPDATE countries SET name = name", "countries", "code");
        c.write("UPDATE promotions SET discount = discount * 2 WHERE id > 8", "promotions", "id");
        c.write("UPDATE events SET kind = 'boundary' WHERE created_at BETWEEN '2025-12-31' AND '2026-01-01 00:00:00'", "events", "id");
        c.write("UPDATE sbtest1 SET k = k + 1 WHERE id = 7", "sbtest1", "id");
        c.write("UPDATE sbtest1 SET c = 'range' WHERE id BETWEEN 10 AND 20", "sbtest1", "id");
        c.write("UPDATE small SET category = 'hardware' WHERE id = 4", "small", "id");
        c.write("UPDATE order_items SET quantity = quantity + 1 WHERE user_id = 2 AND sku LIKE 'sku%'", "order_items", "item_id");
        c.failingWrite("UPDATE orders SET nope = 1 WHERE user_id = 3", "orders", "order_id");

        // UPDATE of the sharding key: the rows move to their new key's node; each move is followed by a write
        // routed by the new key, which finds the row only where the rule puts it
        c.category("key-move");
        c.write("UPDATE orders SET user_id = 5 WHERE order_id = 100003", "orders", "order_id");
        c.write("UPDATE orders SET status = 'moved' WHERE user_id = 5", "orders", "order_id");
        c.write("UPDATE orders SET user_id = user_id + 2, status = 'shifted' WHERE amount > 950", "orders", "order_id");
        c.write("UPDATE orders SET amount = 4, user_id = amount WHERE order_id BETWEEN 100030 AND 100035", "orders", "order_id");
        c.write("UPDATE orders SET status = 'at-4' WHERE user_id = 4", "orders", "order_id");
        c.write("UPDATE orders SET user_id = 9 WHERE status = 'paid' ORDER BY order_id DESC LIMIT 2", "orders", "order_id");
        // subqueries reading other shards: the rows chosen on the tier that answers the choice, then moved by key
        c.write("UPDATE orders SET user_id = user_id + 1, status = 'sub-moved' WHERE user_id IN (SELECT user_id FROM users"
                + " WHERE country_code = 'DE') AND amount > 800", "orders", "order_id");
        c.write("UPDATE orders o SET o.user_id = 15 WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id"
                + " AND i.quantity = 2) ORDER BY o.order_id LIMIT 3", "orders", "order_id");
        c.pwrite("UPDATE orders SET user_id = ? WHERE order_id = ?", "orders", "order_id", 13L, 100040L);
        c.write("UPDATE orders SET status = 'at-13' WHERE user_id = 13", "orders", "order_id");
        c.write("UPDATE users SET user_id = user_id + 5000 WHERE user_id IN (4, 7)", "users", "user_id");
        // a subquery in the new key: computed over whole tables for each chosen row (the in-place step on the third tier)
        c.write("UPDATE orders SET user_id = (SELECT MAX(user_id) FROM users WHERE country_code = 'DE') WHERE order_id = 100002",
                "orders", "order_id");
        c.write("UPDATE orders o SET o.user_id = (SELECT MIN(i.user_id) + 1 FROM order_items i WHERE i.order_id = o.order_id),"
                + " status = 'sub-key' WHERE o.amount > 900", "orders", "order_id");
        c.write("UPDATE orders SET user_id = (SELECT COUNT(*) FROM promotions) + user_id WHERE order_id BETWEEN 100010 AND 100020",
                "orders", "order_id");
        c.write("UPDATE orders SET user_id = (SELECT MAX(user_id) FROM users WHERE country_code = 'FR') WHERE user_id IN"
                + " (SELECT user_id FROM order_items WHERE quantity > 4) AND amount < 100", "orders", "order_id");
        c.write("UPDATE users SET user_id = (SELECT MAX(order_id) FROM orders WHERE orders.user_id = users.user_id) + 7000"
                + " WHERE user_id BETWEEN 20 AND 25 AND user_id IN (SELECT user_id FROM orders)", "users", "user_id");
        c.pwrite("UPDATE orders SET user_id = (SELECT MAX(user_id) FROM order_items WHERE quantity = ?) WHERE order_id = ?", "orders",
                "order_id", 2, 100040L);
        c.failingWrite("UPDATE orders SET user_id = (SELECT user_id FROM users WHERE user_id < 50) WHERE order_id = 100003",
                "orders", "order_id");
        c.failingWrite("UPDATE orders SET user_id = (SELECT user_id FROM users WHERE user_id < -1000000) WHERE order_id = 100003",
                "orders", "order_id");
        c.write("UPDATE users SET name = 'moved' WHERE user_id = 5007", "users", "user_id");
        c.write("UPDATE sbtest1 SET id = id + 100000 WHERE id BETWEEN 30 AND 33", "sbtest1", "id");
        c.write("UPDATE sbtest1 SET k = 1 WHERE id = 100031", "sbtest1", "id");
        c.failingWrite("UPDATE users SET user_id = 1 WHERE user_id = 2", "users", "user_id");
        // the primary key assigned too, checked row by row in MySQL's order: 60 takes 61 while 61 still holds it (1062),
        // though 60..63 sit on four nodes; descending, every key is free when taken
        c.failingWrite("UPDATE users SET user_id = IF(user_id = 63, 6063, user_id + 1) WHERE user_id BETWEEN 60 AND 63", "users", "user_id");
        c.write("UPDATE users SET user_id = IF(user_id = 63, 6063, user_id + 1) WHERE user_id BETWEEN 60 AND 63 ORDER BY user_id DESC",
                "users", "user_id");
        c.q("SELECT user_id, name FROM users WHERE user_id IN (61, 62, 63, 6063) ORDER BY user_id");
        c.write("UPDATE users SET user_id = IF(user_id = 88, 6088, user_id + 4) WHERE user_id IN (80, 84, 88) ORDER BY user_id DESC",
                "users", "user_id");
        c.failingWrite("UPDATE users SET user_id = IF(user_id = 90, 91, 90) WHERE user_id IN (90, 91)", "users", "user_id");
        c.failingWrite("UPDATE sbtest1 SET id = id + 1 WHERE id BETWEEN 50 AND 52", "sbtest1", "id");
        c.write("UPDATE sbtest1 SET id = IF(id = 52, 200052, id + 1) WHERE id BETWEEN 50 AND 52 ORDER BY id DESC", "sbtest1", "id");
        // a primary key other than the sharding key, both assigned
        c.failingWrite("UPDATE orders SET order_id = order_id + 1, user_id = 3 WHERE order_id BETWEEN 100050 AND 100052", "orders", "order_id");
        c.write("UPDATE orders SET order_id = IF(order_id = 100052, 109052, order_id + 1), user_id = 3 WHERE order_id BETWEEN 100050"
                + " AND 100052 ORDER BY order_id DESC", "orders", "order_id");
        c.q("SELECT order_id, status FROM orders WHERE user_id = 3 ORDER BY order_id");
        c.pwrite("UPDATE orders SET order_id = order_id + ?, user_id = ? WHERE order_id = ?", "orders", "order_id", 20000L, 17L, 100060L);
        c.q("SELECT order_id, amount FROM orders WHERE user_id = 17 ORDER BY order_id");

        // a string primary key assigned with the sharding key: MySQL's row-by-row duplicate check compares the keys by
        // their column's collation (sbtest4, which nothing else reads, keeps four rows and takes pad as its primary key)
        c.category("key-move-collation");
        c.write("DELETE FROM sbtest4 WHERE id > 4", "sbtest4", "id");
        c.q("ALTER TABLE sbtest4 MODIFY id INT NOT NULL, MODIFY pad VARCHAR(60) COLLATE utf8mb4_bin NOT NULL");
        c.write("UPDATE sbtest4 SET pad = ELT(id, 'a', 'B', 'c', 'D')", "sbtest4", "id");
        c.q("ALTER TABLE sbtest4 DROP PRIMARY KEY, ADD PRIMARY KEY (pad)");
        // utf8mb4_bin: 'a' takes 'b' while 'B' holds its key, no duplicate; 'B2' taken while held is one
        c.write("UPDATE sbtest4 SET pad = IF(pad = 'a', 'b', CONCAT(pad, '2')), id = id + 100 ORDER BY pad DESC", "sbtest4", "pad");
        c.failingWrite("UPDATE sbtest4 SET pad = IF(pad = 'b', 'B2', CONCAT(pad, '3')), id = id + 100 ORDER BY pad DESC", "sbtest4", "pad");
        // utf8mb4_general_ci: 'é' and 'E ' are 'e' (1062 while e holds it), a case change keeps a row's own key
        c.q("ALTER TABLE sbtest4 MODIFY pad VARCHAR(60) COLLATE utf8mb4_general_ci NOT NULL");
        c.write("UPDATE sbtest4 SET pad = ELT(id - 100, 'e', 'f', 'g', 'h')", "sbtest4", "pad");
        c.failingWrite("UPDATE sbtest4 SET pad = IF(pad = 'f', 'é', CONCAT(pad, 'x')), id = id + 10 ORDER BY pad DESC", "sbtest4", "pad");
        c.failingWrite("UPDATE sbtest4 SET pad = IF(pad = 'f', 'E ', CONCAT(pad, 'x')), id = id + 10 ORDER BY pad DESC", "sbtest4", "pad");
        c.write("UPDATE sbtest4 SET pad = IF(pad = 'f', 'é', CONCAT(pad, 'x')), id = id + 10 ORDER BY pad", "sbtest4", "pad");
        c.write("UPDATE sbtest4 SET pad = UPPER(pad), id = id + 1", "sbtest4", "pad");
        c.pwrite("UPDATE sbtest4 SET pad = ?, id = id + ? WHERE pad = ?", "sbtest4", "pad", "gx", 7L, "GX");
        c.write("UPDATE sbtest4 s JOIN countries c ON c.code = 'DE' SET s.id = s.id + 1", "sbtest4", "pad");

        c.category("delete");
        c.write("DELETE FROM orders WHERE order_id = 200001", "orders", "order_id");
        c.write("DELETE FROM orders WHERE user_id = 3", "orders", "order_id");
        c.write("DELETE o FROM orders o WHERE o.user_id = 6", "orders", "order_id");
        c.write("DELETE orders FROM orders WHERE user_id = 10 AND status IS NULL", "orders", "order_id");
        c.write("DELETE FROM order_items WHERE user_id IN (4, 5)", "order_items", "item_id");
        c.write("DELETE FROM orders WHERE status = 'void'", "orders", "order_id");
        c.write("DELETE FROM orders WHERE user_id = 88888", "orders", "order_id");
        c.write("DELETE FROM countries WHERE code = 'XX'", "countries", "code");
        c.write("DELETE FROM events WHERE created_at < '2025-02-01'", "events", "id");
        c.write("DELETE FROM sbtest1 WHERE id BETWEEN 990 AND 1002", "sbtest1", "id");
        c.write("DELETE FROM small WHERE id = 5", "small", "id");
        c.write("DELETE FROM promotions WHERE id = 11", "promotions", "id");
        c.pwrite("DELETE FROM users WHERE user_id = ?", "users", "user_id", -5000L);
        c.write("DELETE FROM users WHERE user_id = '1001'", "users", "user_id");

        // the third tier's writes: subqueries over other shards, run on each target node over copies
        c.category("federated-write");
        c.write("UPDATE users SET name = CONCAT(name, '!') WHERE user_id IN (SELECT user_id FROM orders WHERE amount > 300)",
                "users", "user_id");
        c.write("UPDATE orders o SET amount = amount + 1 WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id"
                + " AND i.quantity > 3)", "orders", "order_id");
        c.write("UPDATE orders SET amount = (SELECT MAX(price) FROM order_items i WHERE i.order_id = orders.order_id)"
                + " WHERE status = 'paid'", "orders", "order_id");
        c.write("UPDATE users u SET email = (SELECT COUNT(*) FROM orders o WHERE o.user_id = u.user_id) WHERE u.user_id < 40",
                "users", "user_id");
        c.write("UPDATE sbtest1 SET k = k + 1 WHERE k IN (SELECT quantity FROM order_items WHERE price > 50)", "sbtest1", "id");
        c.write("UPDATE promotions SET discount = discount + 1 WHERE id <= (SELECT COUNT(*) FROM orders WHERE amount > 450)",
                "promotions", "id");
        c.write("UPDATE countries SET name = CONCAT(name, '*') WHERE code IN (SELECT country_code FROM users WHERE user_id < 100)",
                "countries", "code");
        c.pwrite("DELETE FROM users WHERE user_id IN (?, ?, ?) AND user_id NOT IN (SELECT user_id FROM orders WHERE status = ?)",
                "users", "user_id", 7L, 8L, 9L, "paid");
        c.write("DELETE FROM order_items WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = order_items.order_id"
                + " AND o.amount < 200)", "order_items", "item_id");
        c.write("DELETE FROM sbtest1 WHERE id IN (SELECT item_id FROM order_items WHERE quantity = 1)", "sbtest1", "id");
        // routed to one node, yet the subquery reads every node's rows
        c.write("UPDATE orders SET amount = (SELECT COUNT(*) FROM order_items) WHERE user_id = 3", "orders", "order_id");
        c.write("DELETE FROM order_items WHERE user_id = 2 AND price < (SELECT AVG(price) FROM order_items)", "order_items", "item_id");
        // subqueries reading the target itself read it as it was before the write (MariaDB's order; MySQL refuses with 1093)
        c.write("UPDATE orders SET amount = 0 WHERE order_id IN (SELECT order_id FROM orders WHERE amount > 480)", "orders", "order_id");
        c.write("DELETE FROM orders WHERE amount > (SELECT AVG(amount) * 2 FROM orders o2 WHERE o2.status = orders.status)",
                "orders", "order_id");
        c.write("UPDATE orders o SET amount = (SELECT MAX(amount) FROM orders WHERE orders.user_id = o.user_id) WHERE o.user_id < 30",
                "orders", "order_id");
        // ORDER BY / LIMIT over several target nodes: the rows chosen first (a unique order: MySQL's choice among ties is its own)
        c.write("UPDATE orders SET status = 'lim-sub' WHERE user_id IN (SELECT user_id FROM users WHERE name IS NOT NULL)"
                + " ORDER BY amount DESC, order_id LIMIT 3", "orders", "order_id");
        c.write("DELETE FROM order_items WHERE order_id IN (SELECT order_id FROM orders WHERE amount > 100) ORDER BY price, item_id LIMIT 2",
                "order_items", "item_id");
        c.pwrite("UPDATE users u SET name = CONCAT(name, ?) WHERE EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.user_id AND o.amount > ?)"
                + " ORDER BY u.user_id DESC LIMIT ?", "users", "user_id", "<", new BigDecimal("50"), 4);
        c.write("DELETE FROM orders WHERE amount > (SELECT AVG(amount) FROM orders o2) ORDER BY order_id LIMIT 2", "orders", "order_id");
        // tables with no node on a site: copied there from their definition (promotions lives on ds1, events on ds0)
        c.write("UPDATE users SET name = CONCAT(name, '%') WHERE user_id IN (SELECT id FROM promotions)", "users", "user_id");
        c.write("UPDATE orders SET status = 'evt' WHERE user_id IN (SELECT id FROM events WHERE kind IS NOT NULL)", "orders", "order_id");
        c.write("UPDATE promotions SET discount = discount + 1 WHERE id IN (SELECT id FROM events)", "promotions", "id");
        c.write("UPDATE orders SET status = 'big' WHERE amount > (SELECT MAX(discount) * 40 FROM promotions)", "orders", "order_id");
        // a subquery's own conjuncts narrow its copy (and its sharding key the nodes read)
        c.write("UPDATE users SET name = CONCAT(name, '~') WHERE user_id IN (SELECT user_id FROM order_items WHERE user_id = 7 AND quantity > 1)",
                "users", "user_id");
        // both unaliased: orders.x inside the subquery is the subquery's, outside it the target's
        c.write("UPDATE orders SET amount = orders.amount + 1 WHERE orders.user_id < 30 AND order_id IN (SELECT order_id FROM orders"
                + " WHERE orders.amount > 300)", "orders", "order_id");
        c.failingWrite("UPDATE orders SET nope = 1 WHERE user_id IN (SELECT user_id FROM users) ORDER BY order_id LIMIT 1", "orders", "order_id");
        c.failingWrite("UPDATE users SET name = (SELECT status FROM orders WHERE amount > 1) WHERE user_id > 2", "users", "user_id");
        c.failingWrite("DELETE FROM orders WHERE nope IN (SELECT user_id FROM users)", "orders", "order_id");

        // multi-table UPDATE and DELETE: co-located joins run per node as written
        c.category("multi-table-write");
        c.write("UPDATE orders o JOIN users u ON u.user_id = o.user_id SET o.status = u.country_code WHERE u.name LIKE 'A%'",
                "orders", "order_id");
        c.write("UPDATE users u, orders o SET u.email = 'big-order' WHERE u.user_id = o.user_id AND o.amount > 400", "users", "user_id");
        c.write("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id"
                + " SET o.amount = o.amount + 1, i.quantity = i.quantity + 1 WHERE i.price > 190", "orders", "order_id")
                .check("order_items", "item_id");
        c.write("UPDATE users u JOIN countries c ON c.code = u.country_code SET u.name = CONCAT(u.name, '@', c.code) WHERE u.user_id < 200",
                "users", "user_id");
        c.pwrite("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id SET o.status = ? WHERE o.user_id = ? AND i.quantity > ?",
                "orders", "order_id", "multi", 4L, 2);
        c.write("UPDATE orders o LEFT JOIN order_items i ON i.user_id = o.user_id AND i.order_id = o.order_id SET o.status = 'empty'"
                + " WHERE i.item_id IS NULL", "orders", "order_id");
        c.write("UPDATE orders a JOIN orders b ON a.user_id = b.user_id AND a.order_id < b.order_id SET a.status = 'older'"
                + " WHERE a.user_id < 20", "orders", "order_id");
        c.write("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id SET o.amount = 7"
                + " WHERE o.user_id = 12 ORDER BY o.order_id LIMIT 1", "orders", "order_id");
        c.write("DELETE i FROM order_items i JOIN orders o ON o.user_id = i.user_id AND o.order_id = i.order_id WHERE o.status = 'shipped'",
                "order_items", "item_id");
        c.write("DELETE o, i FROM orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id"
                + " WHERE o.amount BETWEEN 100 AND 110", "orders", "order_id").check("order_items", "item_id");
        c.write("DELETE FROM i USING order_items AS i JOIN orders o USING (user_id, order_id) WHERE o.status = 'older' AND i.quantity = 1",
                "order_items", "item_id");
        c.write("UPDATE promotions p JOIN promotions q ON q.id = p.id + 1 SET p.discount = q.discount", "promotions", "id");
        c.write("UPDATE promotions p JOIN countries c ON c.code = LEFT(p.code, 2) SET p.discount = p.discount + 1", "promotions", "id");
        c.failingWrite("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id SET o.nope = 1", "orders", "order_id");
        c.failingWrite("DELETE x FROM orders o JOIN users u USING (user_id) WHERE u.user_id = 5", "orders", "order_id");
        // the others write their one target on the third tier, every other table read from a copy
        c.write("UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET s.k = s.k + 1", "sbtest1", "id");
        c.write("UPDATE order_items i JOIN sbtest1 s ON s.id = i.quantity SET i.price = i.price + 1 WHERE s.k > 300",
                "order_items", "item_id");
        c.write("DELETE s FROM sbtest1 s JOIN order_items i ON i.quantity = s.id WHERE i.price > 190", "sbtest1", "id");
        c.write("UPDATE promotions p JOIN orders o ON o.user_id = p.id SET p.discount = p.discount + 1 WHERE o.status = 'paid'",
                "promotions", "id");
        c.write("UPDATE countries c JOIN users u ON u.country_code = c.code SET c.name = CONCAT(c.name, '+') WHERE u.user_id < 50",
                "countries", "code");
        c.write("UPDATE users u LEFT JOIN sbtest1 s ON s.id = u.user_id SET u.email = 'no-sbtest' WHERE s.id IS NULL AND u.user_id < 2000",
                "users", "user_id");
        c.pwrite("UPDATE sbtest1 s JOIN orders o ON o.user_id = s.id SET s.c = ? WHERE o.amount > ?", "sbtest1", "id", "joined", 250);
        c.write("UPDATE orders o JOIN users u ON u.user_id = o.user_id SET o.amount = (SELECT MAX(price) FROM order_items)"
                + " WHERE u.country_code = 'DE'", "orders", "order_id");
        c.write("DELETE FROM u USING users u JOIN sbtest1 s ON s.k = u.user_id WHERE u.user_id BETWEEN 100 AND 300", "users", "user_id");
        // several targets, or SET columns without their table: one write per target, a DELETE's rows all chosen first
        c.write("UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET s.pad = 'two', i.sku = CONCAT(i.sku, '+') WHERE s.k > 200",
                "sbtest1", "id").check("order_items", "item_id");
        c.write("UPDATE users u JOIN sbtest1 s ON s.k = u.user_id SET u.email = 'k-user', s.c = COALESCE(u.name, '') WHERE u.user_id < 500",
                "users", "user_id").check("sbtest1", "id");
        c.write("UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET pad = 'bare', price = price + 1 WHERE sku LIKE 'S%'",
                "sbtest1", "id").check("order_items", "item_id");
        c.write("UPDATE users u JOIN orders o ON o.order_id = u.user_id + 1 SET name = CONCAT('n', o.order_id) WHERE o.amount > 100",
                "users", "user_id");
        c.pwrite("UPDATE promotions p JOIN orders o ON o.user_id = p.id SET p.code = ?, o.status = ? WHERE o.amount > ?",
                "promotions", "id", "P", "promo", 300).check("orders", "order_id");
        c.failsWordedOtherwise("UPDATE users u JOIN orders o ON o.order_id = u.user_id SET created_at = NOW()",
                "MySQL's wording, 'in field list'; MariaDB 11 says 'in SET'").check("users", "user_id");
        c.failsWordedOtherwise("UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET nope = 1",
                "MySQL's wording, 'field list'; MariaDB 11 says 'SET'").check("sbtest1", "id");
        c.write("DELETE s, i FROM sbtest1 s JOIN order_items i ON i.quantity = s.id WHERE i.price > 195", "sbtest1", "id")
                .check("order_items", "item_id");
        c.write("DELETE FROM o, p USING promotions p JOIN orders o ON o.user_id = p.id WHERE o.status = 'promo' AND p.id < 4",
                "orders", "order_id").check("promotions", "id");
        // a target joined with itself on other columns reads its other reference as it was before the write
        c.write("UPDATE sbtest1 a JOIN sbtest1 b ON b.id = a.k SET a.k = b.k, a.c = b.pad WHERE a.id < 400", "sbtest1", "id");
        c.write("UPDATE orders a JOIN orders b ON b.amount = a.amount AND b.order_id > a.order_id SET a.status = 'dup'",
                "orders", "order_id");
        c.write("DELETE a FROM order_items a JOIN order_items b ON b.item_id = a.quantity + 1 WHERE a.price > 190",
                "order_items", "item_id");
        // ... wherever the target stands in its FROM: its other references are told apart by where they stand in the text
        c.write("UPDATE sbtest1 b JOIN sbtest1 a ON b.id = a.k SET a.pad = b.c, a.k = b.k WHERE a.id < 300", "sbtest1", "id");
        c.write("UPDATE orders b JOIN orders ON orders.amount = b.amount AND b.order_id < orders.order_id SET orders.status = 'later'",
                "orders", "order_id");
        c.write("UPDATE order_items i JOIN orders o ON o.order_id = i.order_id JOIN order_items j ON j.item_id = i.item_id + 1"
                + " SET j.quantity = i.quantity + j.quantity WHERE i.price > 100", "order_items", "item_id");
        c.write("UPDATE users x, users y SET y.name = CONCAT(x.name, '>') WHERE y.user_id = x.user_id + 1 AND x.user_id < 200",
                "users", "user_id");
        c.write("UPDATE orders a LEFT JOIN orders b ON b.order_id = a.order_id + 1 SET b.amount = a.amount + 1 WHERE a.user_id < 50",
                "orders", "order_id");
        c.write("UPDATE users a JOIN users b ON b.user_id = a.user_id + 3 SET b.email = (SELECT MAX(email) FROM users"
                + " WHERE users.country_code = a.country_code) WHERE a.user_id < 400", "users", "user_id");
        c.pwrite("UPDATE sbtest1 x JOIN sbtest1 y ON y.id = x.id + ? SET y.c = x.pad WHERE x.id < ?", "sbtest1", "id", 3, 100);
        c.write("DELETE b FROM order_items a JOIN order_items b ON b.item_id = a.item_id + 2 WHERE a.price > 180",
                "order_items", "item_id");
        c.write("DELETE FROM b USING sbtest1 a JOIN sbtest1 b ON b.id = a.k + 1 WHERE a.id BETWEEN 10 AND 60", "sbtest1", "id");
        c.write("DELETE order_items FROM order_items x JOIN order_items ON order_items.item_id = x.quantity WHERE x.price < 20",
                "order_items", "item_id");
        // an unqualified SET column over a derived table: resolved among the tables' and the derived tables' columns
        c.write("UPDATE users u JOIN (SELECT user_id AS uid, MAX(amount) AS top FROM orders GROUP BY user_id) d ON d.uid = u.user_id"
                + " SET name = CONCAT('top ', d.top) WHERE d.top > 100", "users", "user_id");
        c.write("UPDATE sbtest1 s JOIN (SELECT quantity, MAX(sku) AS sku FROM order_items WHERE price > 150 GROUP BY quantity) AS d"
                + " ON d.quantity = s.id SET pad = sku", "sbtest1", "id");
        c.write("UPDATE orders o JOIN (SELECT order_id AS oid, SUM(quantity) AS q FROM order_items GROUP BY order_id) AS d"
                + " ON d.oid = o.order_id SET status = IF(d.q > 10, 'big', 'small')", "orders", "order_id");
        c.pwrite("UPDATE users u JOIN (SELECT user_id AS uid, COUNT(*) AS n FROM orders GROUP BY user_id) d ON d.uid = u.user_id"
                + " SET email = CONCAT('n', d.n) WHERE d.n > ?", "users", "user_id", 1);
        c.failsWordedOtherwise("UPDATE sbtest1 s JOIN (SELECT quantity, price AS pad FROM order_items) d ON d.quantity = s.id SET pad = 'x'",
                "MySQL's wording, 'field list'; MariaDB 11 says 'SET'").check("sbtest1", "id");
        c.failsWordedOtherwise("UPDATE orders o JOIN (SELECT user_id, COUNT(*) AS n FROM order_items GROUP BY user_id) d"
                + " ON d.user_id = o.order_id SET nope = d.n", "MySQL's wording, 'field list'; MariaDB 11 says 'SET'").check("orders", "order_id");

        // multi-table writes once refused across nodes (issue 13): a derived table taking a ?, whose columns are read with the
        // values bound; a broadcast target joined with single tables (every copy written as one MySQL writes it); an UPDATE of a
        // sharding column (the rows moved to their new nodes, then read back where their keys route)
        c.pwrite("UPDATE sbtest1 s JOIN (SELECT quantity, MAX(sku) AS sku FROM order_items WHERE price > ? GROUP BY quantity) AS d"
                + " ON d.quantity = s.id SET pad = CONCAT(sku, ?)", "sbtest1", "id", 120, "-p");
        c.pwrite("UPDATE orders o JOIN (SELECT order_id AS oid, SUM(quantity) AS q FROM order_items WHERE quantity < ? GROUP BY order_id)"
                + " AS d ON d.oid = o.order_id SET status = IF(d.q > ?, 'bigp', 'smallp')", "orders", "order_id", 8, 5);
        c.write("UPDATE countries c JOIN promotions p ON p.id = 3 SET c.name = CONCAT(c.name, '/', p.code) WHERE c.code < 'F'",
                "countries", "code");
        c.write("UPDATE countries c, promotions p SET c.name = LEFT(c.name, 4) WHERE p.discount > 20 AND LENGTH(c.name) > p.id",
                "countries", "code");
        c.write("UPDATE countries c JOIN promotions p ON p.id = 4 SET c.name = CONCAT(c.name, '!'), p.discount = p.discount + 1"
                + " WHERE c.code > 'S'", "countries", "code").check("promotions", "id");
        c.pwrite("UPDATE countries c JOIN promotions p ON p.code = ? SET c.name = CONCAT(p.code, c.code) WHERE c.code IN ('IT', 'JP')",
                "countries", "code", "VIP");
        c.write("DELETE c FROM countries c JOIN promotions p ON p.id = 7 WHERE c.code IN ('MX', 'PL')", "countries", "code");
        c.write("UPDATE orders o JOIN users u USING (user_id) SET o.user_id = o.user_id + 1, o.status = 'moved' WHERE u.user_id IN (5, 6)",
                "orders", "order_id");
        c.q("SELECT * FROM orders WHERE user_id = 6 ORDER BY order_id");
        c.q("SELECT * FROM orders WHERE user_id = 7 ORDER BY order_id");
        c.write("UPDATE order_items i JOIN promotions p ON p.id = i.quantity SET i.user_id = i.user_id + p.id WHERE i.user_id < 20",
                "order_items", "item_id");
        c.q("SELECT user_id, COUNT(*), SUM(price) FROM order_items WHERE user_id IN (3, 8, 13, 21) GROUP BY user_id ORDER BY user_id");
        c.pwrite("UPDATE orders o JOIN sbtest1 s ON s.k = o.user_id SET o.user_id = ? WHERE s.id < ? AND o.amount > 200",
                "orders", "order_id", 9, 40);
        c.p("SELECT order_id, user_id FROM orders WHERE user_id = ? ORDER BY order_id", 9);
        c.write("UPDATE order_items i JOIN promotions p ON p.id = i.quantity SET user_id = 11 WHERE i.sku LIKE 'S%' AND p.id < 3",
                "order_items", "item_id");
        c.q("SELECT item_id, user_id FROM order_items WHERE user_id = 11 ORDER BY item_id");
        c.write("UPDATE orders o JOIN order_items i ON i.quantity = o.user_id SET o.user_id = 13 WHERE o.user_id IN (2, 3)", "orders", "order_id");
        c.q("SELECT order_id, status FROM orders WHERE user_id = 13 ORDER BY order_id");
        // the target's primary key is its sharding key: the rows found again by the new keys the choice computed
        c.write("UPDATE users u JOIN orders o USING (user_id) SET u.user_id = u.user_id + 6000, u.name = 'mt-moved' WHERE o.amount > 950",
                "users", "user_id");
        c.q("SELECT user_id, name FROM users WHERE user_id IN (6001, 6003, 6005, 6008, 6010, 6013, 6021) ORDER BY user_id");
        c.write("UPDATE users u JOIN promotions p ON p.id = u.user_id - 100 SET u.user_id = u.user_id + 6000 WHERE p.id < 6", "users", "user_id");
        c.q("SELECT user_id, name FROM users WHERE user_id IN (6101, 6102, 6103, 6104, 6105) ORDER BY user_id");
        c.failingWrite("UPDATE users u JOIN orders o USING (user_id) SET u.user_id = 5", "users", "user_id");

        // last: a multi-row INSERT that fails on one shard must change nothing (MySQL's statement atomicity)
        c.category("insert");
        c.failingWrite("INSERT INTO users (user_id, name) VALUES (2000, 'ok'), (42, 'duplicate')", "users", "user_id");

        c.category("ddl");
        c.q("CREATE TABLE oracle_scratch (id INT NOT NULL PRIMARY KEY, v VARCHAR(10) NULL)"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci");
        c.write("INSERT INTO oracle_scratch VALUES (1, 'a'), (2, 'B'), (3, NULL)", "oracle_scratch", "id");
        c.write("UPDATE oracle_scratch SET v = 'c' WHERE id = 3", "oracle_scratch", "id");
        c.q("SELECT v, COUNT(*) FROM oracle_scratch GROUP BY v ORDER BY v");
        c.q("DROP TABLE oracle_scratch");
        c.fails("SELECT * FROM oracle_scratch");
        c.q("CREATE INDEX idx_oracle_status ON orders (status)");
        c.q("SELECT order_id FROM orders WHERE status = 'paid' ORDER BY order_id");
        c.q("DROP INDEX idx_oracle_status ON orders");
        // ENUM members in an order other than their text's: ORDER BY, grouped and DISTINCT orders follow the index
        c.q("ALTER TABLE small MODIFY category ENUM('software', 'hardware', 'books') NOT NULL");
        c.q("SELECT * FROM small ORDER BY category, id");
        c.q("SELECT id, category FROM small ORDER BY category DESC, id LIMIT 3");
        c.q("SELECT category, COUNT(*) FROM small GROUP BY category ORDER BY category DESC");
        c.q("SELECT DISTINCT category FROM small ORDER BY category");
        c.q("SELECT MIN(category), MAX(category) FROM small");
        c.p("SELECT id FROM small WHERE id > ? ORDER BY category, id", 0L);
        c.q("ALTER TABLE small MODIFY category ENUM('books', 'hardware', 'software') NOT NULL");
        // what a dump file runs around each table's rows (mariadb-dump, mysqldump)
        c.category("executable-comment");
        c.q("/*!40000 ALTER TABLE `orders` DISABLE KEYS */");
        c.q("/*!40000 ALTER TABLE `orders` ENABLE KEYS */");
        c.q("/*!40101 SET NAMES utf8mb4 */");
        return c.cases();
    }

    /** What earlier versions refused and the merger now computes: HAVING BETWEEN, aggregates over DISTINCT values. */
    static List<OracleCase> formerlyRefused() {
        Corpus c = new Corpus();
        c.category("aggregate");
        c.q("SELECT quantity, COUNT(*) FROM order_items GROUP BY quantity HAVING COUNT(*) BETWEEN 10 AND 2000 ORDER BY quantity");
        c.q("SELECT COUNT(DISTINCT status) FROM orders");
        c.q("SELECT SUM(DISTINCT amount), AVG(DISTINCT amount), COUNT(DISTINCT amount) FROM orders");
        c.q("SELECT user_id, COUNT(DISTINCT status), COUNT(*) FROM orders GROUP BY user_id ORDER BY user_id LIMIT 30");

        // issue 12: ORDER BY a DISTINCT aggregate was ignored across shards (groups came back in group-key order)
        c.category("order-aggregate");
        c.q("SELECT status, SUM(amount) AS value FROM orders GROUP BY status ORDER BY value DESC"); // an alias Calcite reserves
        c.q("SELECT user_id, COUNT(DISTINCT status) FROM orders GROUP BY user_id ORDER BY COUNT(DISTINCT status) DESC, user_id LIMIT 10");
        c.ci("SELECT status, COUNT(DISTINCT user_id), MAX(amount) FROM orders WHERE order_id > 100100 GROUP BY 1"
                + " HAVING SUM(amount) > 0 ORDER BY 2 DESC, 3");
        c.q("SELECT user_id, COUNT(DISTINCT status) AS n FROM orders GROUP BY user_id ORDER BY n, user_id DESC LIMIT 12");
        c.q("SELECT user_id, SUM(DISTINCT amount), COUNT(*) FROM orders GROUP BY user_id ORDER BY 2 DESC, 1 LIMIT 7");
        c.q("SELECT user_id, AVG(DISTINCT amount) AS a FROM orders GROUP BY user_id ORDER BY AVG(DISTINCT amount), user_id LIMIT 9");
        c.q("SELECT quantity, COUNT(DISTINCT user_id) FROM order_items GROUP BY quantity ORDER BY 2, 1");
        c.q("SELECT user_id, COUNT(*), SUM(amount), AVG(amount) FROM orders GROUP BY user_id ORDER BY AVG(amount) DESC, 1 LIMIT 8");
        c.q("SELECT user_id, MIN(status), MAX(created_at) FROM orders GROUP BY user_id ORDER BY MAX(created_at) DESC, 1 LIMIT 8");
        c.ci("SELECT country_code, COUNT(*) AS n FROM users GROUP BY country_code ORDER BY n DESC, country_code");
        // ORDER BY an aggregate that is not selected: merged in a hidden column
        c.q("SELECT user_id FROM orders GROUP BY user_id ORDER BY SUM(amount) DESC, user_id LIMIT 10");
        c.ci("SELECT status, COUNT(*) FROM orders GROUP BY status ORDER BY MAX(amount), status");
        c.q("SELECT user_id, COUNT(*) FROM orders GROUP BY user_id HAVING SUM(amount) > 1000 ORDER BY SUM(amount), user_id LIMIT 10");
        c.q("SELECT quantity FROM order_items GROUP BY quantity ORDER BY AVG(price) DESC, quantity");
        c.q("SELECT user_id FROM orders GROUP BY user_id ORDER BY MIN(status) DESC, user_id LIMIT 10");
        c.q("SELECT user_id, MAX(amount) FROM orders GROUP BY user_id ORDER BY COUNT(*) DESC, MIN(created_at), user_id LIMIT 10");
        c.p("SELECT user_id FROM orders WHERE user_id < ? GROUP BY user_id ORDER BY SUM(amount * ?) DESC, user_id", 50, 2);

        // issue 12: expressions with literals or parameters, computed by the shards from the user's own text
        c.category("expression");
        c.q("SELECT order_id, amount FROM orders ORDER BY amount * -1, order_id");
        c.q("SELECT order_id, amount * 2 AS dbl FROM orders ORDER BY dbl DESC, order_id LIMIT 20");
        c.q("SELECT order_id, amount * 2 FROM orders ORDER BY amount * 2, order_id LIMIT 15");
        c.q("SELECT order_id FROM orders ORDER BY amount * 3 DESC, order_id LIMIT 10");
        c.q("SELECT order_id, amount * 2 FROM orders ORDER BY amount * 3 DESC, order_id LIMIT 10");
        c.q("SELECT order_id, COALESCE(amount, 0) FROM orders ORDER BY COALESCE(amount, 0), order_id LIMIT 25");
        c.q("SELECT order_id, IF(status = 'paid', 1, 0) AS p FROM orders ORDER BY p DESC, order_id LIMIT 30");
        c.q("SELECT user_id, name FROM users ORDER BY CONCAT(name, 'x'), user_id LIMIT 20");
        c.q("SELECT order_id, status FROM orders ORDER BY COALESCE(status, 'zzz') DESC, order_id LIMIT 20");
        c.q("SELECT order_id FROM orders ORDER BY DATE(created_at) DESC, order_id LIMIT 10");
        c.p("SELECT order_id, amount + ? FROM orders WHERE user_id < ? ORDER BY amount + ?, order_id LIMIT 10", 1, 50, 1);
        c.p("SELECT order_id, amount * ? AS x FROM orders WHERE status = ? ORDER BY x, order_id", new BigDecimal("1.5"), "paid");
        c.q("SELECT DATE(created_at), COUNT(*) FROM orders GROUP BY DATE(created_at) ORDER BY 1 LIMIT 20");
        c.q("SELECT DATE(created_at) AS d, COUNT(*), SUM(amount) FROM orders GROUP BY d ORDER BY d DESC LIMIT 10");
        c.q("SELECT amount * 2, COUNT(*) FROM orders GROUP BY amount * 2 ORDER BY 1 LIMIT 20");
        c.q("SELECT IF(amount > 100, 'big', 'small') AS size, COUNT(*) FROM orders GROUP BY size ORDER BY size");
        c.ci("SELECT COALESCE(status, 'none'), COUNT(*) FROM orders GROUP BY COALESCE(status, 'none') ORDER BY 1");
        c.q("SELECT YEAR(created_at) + 1, COUNT(*) FROM orders GROUP BY YEAR(created_at) + 1 ORDER BY 2 DESC, 1");
        c.q("SELECT COUNT(*) FROM orders GROUP BY user_id DIV 10 ORDER BY user_id DIV 10 LIMIT 10");
        c.p("SELECT user_id DIV ?, COUNT(*) FROM orders GROUP BY user_id DIV ? ORDER BY 1", 10, 10);
        c.q("SELECT SUM(CASE WHEN status = 'paid' THEN amount ELSE 0 END) FROM orders");
        c.q("SELECT user_id, SUM(CASE WHEN status = 'paid' THEN amount ELSE 0 END) AS paid FROM orders GROUP BY user_id"
                + " ORDER BY paid DESC, user_id LIMIT 10");
        c.q("SELECT AVG(amount * 2), AVG(COALESCE(amount, 0)), SUM(IF(amount > 100, 1, 0)) FROM orders");
        c.ci("SELECT status, AVG(IF(amount > 100, amount, NULL)) FROM orders GROUP BY status ORDER BY 1");
        c.q("SELECT COUNT(DISTINCT IF(amount > 100, user_id, NULL)) FROM orders");
        c.q("SELECT user_id % 3, COUNT(DISTINCT user_id % 7) FROM orders GROUP BY 1 ORDER BY 1");
        c.ci("SELECT MIN(amount + 1), MAX(COALESCE(status, 'zzz')) FROM orders");
        c.p("SELECT SUM(amount * ?), COUNT(*) FROM orders WHERE user_id > ?", 3, 10);
        c.p("SELECT user_id, AVG(amount + ?) FROM orders WHERE user_id < ? GROUP BY user_id HAVING AVG(amount + ?) > ? ORDER BY 2, 1",
                1, 60, 1, 100);
        c.q("SELECT user_id, COUNT(*) FROM orders GROUP BY user_id HAVING SUM(CASE WHEN status = 'paid' THEN 1 ELSE 0 END) > 2"
                + " ORDER BY user_id");
        c.ci("SELECT status, COUNT(*) FROM orders GROUP BY status HAVING AVG(amount * 2) > 100 ORDER BY 1");
        c.q("SELECT user_id, SUM(amount * 2) s FROM orders GROUP BY user_id HAVING SUM(amount * 2) > 5000 ORDER BY s DESC, user_id LIMIT 5");
        c.q("SELECT user_id, SUM(amount * 2) s FROM orders GROUP BY user_id HAVING SUM(amount * 3) > 5000 ORDER BY s DESC, user_id LIMIT 5");
        c.q("SELECT DISTINCT amount * 2 FROM orders WHERE amount < 10 ORDER BY 1");
        c.q("SELECT DISTINCT IF(amount > 100, 'big', 'small') FROM orders");
        c.q("SELECT DISTINCT quantity + 1 AS q FROM order_items ORDER BY q DESC");
        c.q("SELECT sku, quantity * price AS total FROM order_items ORDER BY quantity * price DESC, item_id LIMIT 10");
        c.q("SELECT user_id, SUM(quantity * price) FROM order_items GROUP BY user_id ORDER BY 2 DESC, 1 LIMIT 10");

        // issue 12: bit aggregates, merged from each shard's own value
        c.category("more-aggregates");
        c.q("SELECT BIT_AND(user_id), BIT_OR(user_id), BIT_XOR(user_id) FROM orders");
        c.q("SELECT BIT_AND(order_id), BIT_OR(quantity), BIT_XOR(item_id) FROM order_items WHERE quantity < 0");
        c.q("SELECT BIT_AND(order_id), BIT_OR(quantity), BIT_XOR(item_id), COUNT(*) FROM order_items WHERE user_id = -12345");
        c.q("SELECT user_id, BIT_OR(order_id), BIT_XOR(quantity * 3) FROM order_items GROUP BY user_id ORDER BY user_id LIMIT 20");
        c.ci("SELECT status, BIT_AND(order_id), BIT_XOR(user_id), BIT_OR(amount) FROM orders GROUP BY status ORDER BY 1");
        c.q("SELECT user_id FROM orders GROUP BY user_id HAVING BIT_OR(order_id) > 100100 ORDER BY BIT_XOR(order_id) DESC, user_id LIMIT 10");
        c.q("SELECT quantity, BIT_XOR(user_id) AS x FROM order_items GROUP BY quantity ORDER BY x, quantity");
        c.p("SELECT BIT_OR(user_id * ?), BIT_AND(user_id + ?) FROM orders WHERE user_id > ?", 2, 1, 0);

        // issue 12: the variance family from each shard's COUNT, SUM and VAR_POP (Chan's formula); DOUBLE cells
        // compare within the oracle's float tolerance (OracleComparator.sameDouble)
        c.category("variance");
        c.q("SELECT STDDEV(amount), STD(amount), STDDEV_POP(amount), STDDEV_SAMP(amount), VARIANCE(amount), VAR_POP(amount),"
                + " VAR_SAMP(amount) FROM orders");
        c.q("SELECT VAR_POP(quantity), STDDEV_SAMP(price), VARIANCE(quantity * price), STDDEV(user_id) FROM order_items");
        c.ci("SELECT status, STDDEV(amount), VAR_SAMP(amount), COUNT(*) FROM orders GROUP BY status ORDER BY 1");
        c.q("SELECT user_id, VAR_SAMP(amount), STDDEV_SAMP(amount), VAR_POP(amount) FROM orders WHERE order_id < 100100"
                + " GROUP BY user_id ORDER BY user_id");
        c.q("SELECT VARIANCE(amount), STDDEV(amount), VAR_SAMP(amount), COUNT(*) FROM orders WHERE user_id < -100");
        c.q("SELECT user_id, STDDEV(amount) AS s FROM orders GROUP BY user_id HAVING VARIANCE(amount) > 1000 ORDER BY s DESC, user_id"
                + " LIMIT 10");
        c.q("SELECT user_id FROM orders GROUP BY user_id ORDER BY VAR_POP(amount), user_id LIMIT 10");
        c.p("SELECT user_id, VARIANCE(amount * ?) FROM orders WHERE user_id < ? GROUP BY user_id ORDER BY 1", 2, 30);
        c.q("SELECT quantity, STDDEV_POP(price) FROM order_items GROUP BY quantity ORDER BY STDDEV_POP(price) DESC, quantity");
        c.q("SELECT YEAR(created_at), STDDEV_SAMP(amount), AVG(amount), BIT_OR(user_id) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1");
        c.q("SELECT user_id % 4, VAR_SAMP(quantity), STDDEV(quantity * price) FROM order_items GROUP BY 1 ORDER BY 1");
        c.q("SELECT quantity, VAR_POP(price) AS v FROM order_items GROUP BY quantity ORDER BY v, quantity");
        c.q("SELECT status, STDDEV_SAMP(amount) FROM orders GROUP BY status HAVING STDDEV_SAMP(amount) IS NULL ORDER BY status");
        c.q("SELECT user_id % 3, STDDEV(amount) * 2, VAR_POP(amount) + COUNT(*) FROM orders GROUP BY 1 ORDER BY 1");
        c.p("SELECT VAR_SAMP(amount), STDDEV_POP(amount) FROM orders WHERE user_id IN (?, ?, ?)", 3, 8, 13);
        // huge BIGINTs (users up to 2^63 - 1): the printed scale shows 36 digits, of which those after the 17th are
        // rounding noise on the one database too (its Welford order); the comparator's 1e-12 relative tolerance holds
        c.q("SELECT VAR_POP(user_id), STDDEV_SAMP(user_id), VARIANCE(user_id) FROM users");
        c.q("SELECT user_id % 2, VAR_SAMP(user_id), STDDEV_POP(user_id) FROM users GROUP BY 1 ORDER BY 1");

        // SUM and AVG (DISTINCT or not) in DOUBLE: MySQL adds in its row order and prints 17 digits, so the merger
        // refuses them and the federated tier answers (AVG(DISTINCT) was once printed to 4 decimals, scale 31)
        c.category("double-sums");
        c.q("SELECT AVG(DISTINCT quantity * 1e0), SUM(DISTINCT quantity * 1e0), AVG(quantity * 1e0), SUM(quantity * 1e0) FROM order_items");
        c.q("SELECT AVG(amount / 7e0), SUM(amount / 7e0), AVG(DISTINCT amount / 7e0), SUM(DISTINCT amount / 7e0) FROM orders");
        c.ci("SELECT status, AVG(amount * 1.1e0), SUM(DISTINCT amount / 3e0) FROM orders GROUP BY status ORDER BY 1");
        c.q("SELECT user_id % 3, SUM(amount / 3e0) AS s FROM orders GROUP BY 1 HAVING AVG(amount / 3e0) > 0 ORDER BY 1");
        c.p("SELECT AVG(quantity * 1.5e0), SUM(DISTINCT quantity / 3e0) FROM order_items WHERE user_id < ?", 40);
        // real parameters: a server face's binary DOUBLE/FLOAT is a DOUBLE (column type 5), the client-side prepared
        // faces send 1.5 as the DECIMAL literal Connector/J writes; a Float is its double value (1.100000023841858)
        c.p("SELECT AVG(quantity * ?), SUM(quantity * ?) FROM order_items WHERE user_id < ?", 1.5d, 0.25d, 40);
        c.p("SELECT ?, ? + 1, ?", 1.5d, 2.0d, 1.0E20);
        c.p("SELECT order_id, amount * ? AS x FROM orders WHERE user_id < ? ORDER BY order_id LIMIT 5", 1.1f, 20);
        c.p("SELECT user_id, SUM(quantity * ?) FROM order_items WHERE user_id BETWEEN ? AND ? GROUP BY user_id ORDER BY user_id", 0.5d, 3, 9);
        c.q("SELECT AVG(amount / 7e0), SUM(DISTINCT amount * 1e0) FROM orders WHERE user_id < -100");

        // issue 12: JSON_ARRAYAGG / JSON_OBJECTAGG joined from the shards' pieces as GROUP_CONCAT is; JSON_ARRAYAGG always
        // with an ORDER BY that decides the whole order, JSON_OBJECTAGG over one row per group (its order is unspecified)
        c.category("json-aggregates");
        c.ci("SELECT status, JSON_ARRAYAGG(order_id ORDER BY order_id) FROM orders GROUP BY status ORDER BY status");
        c.q("SELECT user_id % 5, JSON_ARRAYAGG(amount ORDER BY amount DESC, order_id) FROM orders WHERE order_id < 100200 GROUP BY 1"
                + " ORDER BY 1");
        c.q("SELECT JSON_ARRAYAGG(item_id ORDER BY item_id) FROM order_items WHERE quantity > 8");
        c.q("SELECT JSON_ARRAYAGG(order_id ORDER BY order_id), COUNT(*) FROM orders WHERE user_id < -100");
        c.q("SELECT order_id, JSON_OBJECTAGG(status, amount) FROM orders WHERE order_id < 100050 GROUP BY order_id ORDER BY order_id");
        c.q("SELECT JSON_OBJECTAGG(order_id, note), JSON_ARRAYAGG(note ORDER BY order_id) FROM orders WHERE order_id = 100001");
        c.ci("SELECT sku, JSON_ARRAYAGG(quantity ORDER BY quantity, item_id), COUNT(*) FROM order_items GROUP BY sku ORDER BY sku LIMIT 20");
        c.p("SELECT user_id, JSON_ARRAYAGG(amount * ? ORDER BY order_id) FROM orders WHERE user_id < ? GROUP BY user_id ORDER BY user_id",
                2, 20);
        c.ci("SELECT status, JSON_ARRAYAGG(note ORDER BY order_id DESC) FROM orders WHERE order_id < 100100 GROUP BY status ORDER BY status");
        c.q("SELECT quantity, JSON_ARRAYAGG(price ORDER BY price, item_id), MAX(price) - MIN(price) FROM order_items GROUP BY quantity"
                + " ORDER BY quantity");

        // issue 12: ABS over aggregates, evaluated after the merge as IF(x < 0, -x, x + 0)
        c.category("functions-over-aggregates");
        c.q("SELECT user_id % 5, ABS(SUM(amount) - 1000), ABS(MIN(amount) - MAX(amount)) FROM orders GROUP BY 1 ORDER BY 1");
        c.q("SELECT ABS(SUM(quantity) - COUNT(*) * 5), ABS(AVG(price) - 50) FROM order_items");
        c.q("SELECT quantity, ABS(AVG(price) - 20) AS d FROM order_items GROUP BY quantity ORDER BY d, quantity");
        c.q("SELECT user_id % 4 FROM orders GROUP BY 1 HAVING ABS(SUM(amount) - 5000) > 100 ORDER BY ABS(COUNT(*) - 30), 1");
        c.q("SELECT ABS(SUM(amount)), ABS(-COUNT(*)), ABS(MAX(user_id) - 7) FROM orders WHERE user_id < -100");
        c.p("SELECT status, ABS(SUM(amount) - ?) FROM orders GROUP BY status ORDER BY 2, 1", 3000);
        c.q("SELECT ABS(STDDEV(amount) - 100), ABS(MIN(user_id)) FROM orders");

        // issue 12: GROUP BY ... WITH ROLLUP: the shards group plainly, the merge adds the super-aggregate rows in MySQL's
        // order (MariaDB 11.4 has no GROUPING(); ORDER BY with ROLLUP is its error 1221 from the shards)
        c.category("rollup");
        c.q("SELECT user_id % 3, COUNT(*), SUM(amount), AVG(amount), MIN(amount), MAX(amount) FROM orders GROUP BY 1 WITH ROLLUP");
        c.ci("SELECT status, user_id % 2, COUNT(*), SUM(amount) FROM orders GROUP BY status, user_id % 2 WITH ROLLUP");
        c.q("SELECT YEAR(created_at) AS y, COUNT(DISTINCT user_id), COUNT(*) FROM orders GROUP BY y WITH ROLLUP");
        c.q("SELECT quantity, COUNT(*), SUM(price) FROM order_items WHERE quantity < 5 GROUP BY quantity WITH ROLLUP LIMIT 3");
        c.q("SELECT user_id % 4, quantity % 2, COUNT(*) FROM order_items GROUP BY 1, 2 WITH ROLLUP HAVING COUNT(*) > 10");
        c.q("SELECT user_id % 3, VAR_POP(amount), BIT_OR(user_id) FROM orders GROUP BY 1 WITH ROLLUP");
        c.q("SELECT user_id % 3, SUM(amount) / COUNT(*) FROM orders WHERE user_id < -100 GROUP BY 1 WITH ROLLUP");
        c.p("SELECT user_id % ?, COUNT(*), MAX(order_id) FROM orders WHERE user_id > ? GROUP BY 1 WITH ROLLUP", 4, 3);
        c.ci("SELECT status, COUNT(*) FROM orders GROUP BY status WITH ROLLUP ORDER BY status");
        c.q("SELECT user_id % 3, GROUP_CONCAT(order_id ORDER BY order_id) FROM orders WHERE order_id < 100030 GROUP BY 1 WITH ROLLUP");

        // issue 12: GROUP_CONCAT from the shards' pieces, sorted and joined by the merger; always with an ORDER BY
        // that decides the whole order (without one MySQL's order is unspecified)
        c.category("group-concat");
        c.q("SELECT user_id, GROUP_CONCAT(order_id ORDER BY order_id) FROM orders GROUP BY user_id ORDER BY user_id LIMIT 40");
        c.q("SELECT GROUP_CONCAT(order_id ORDER BY order_id DESC) FROM orders WHERE user_id < 40");
        c.q("SELECT user_id, GROUP_CONCAT(status ORDER BY order_id DESC SEPARATOR ' | '), COUNT(*), SUM(amount) FROM orders"
                + " GROUP BY user_id ORDER BY user_id");
        c.q("SELECT user_id, GROUP_CONCAT(order_id ORDER BY status, order_id SEPARATOR ''), MAX(amount) FROM orders"
                + " WHERE user_id < 100 GROUP BY user_id ORDER BY 1 DESC");
        // a NULL key inside GROUP_CONCAT's ORDER BY: MariaDB compares it as 0, MySQL as the least value (Shardwise)
        c.q("SELECT user_id, GROUP_CONCAT(order_id ORDER BY amount DESC, order_id) FROM orders WHERE amount IS NOT NULL"
                + " GROUP BY user_id ORDER BY user_id LIMIT 30");
        c.q("SELECT order_id, GROUP_CONCAT(sku, ':', quantity ORDER BY item_id SEPARATOR ';') FROM order_items"
                + " WHERE order_id < 100100 GROUP BY order_id ORDER BY order_id");
        c.q("SELECT user_id, GROUP_CONCAT(DISTINCT quantity ORDER BY quantity DESC), COUNT(DISTINCT sku) FROM order_items"
                + " GROUP BY user_id ORDER BY user_id LIMIT 50");
        c.ci("SELECT user_id, GROUP_CONCAT(DISTINCT status ORDER BY status) FROM orders GROUP BY user_id ORDER BY user_id");
        c.ci("SELECT status, COUNT(*), GROUP_CONCAT(DISTINCT user_id ORDER BY user_id DESC) FROM orders WHERE user_id < 30"
                + " GROUP BY status ORDER BY 1");
        c.q("SELECT GROUP_CONCAT(status ORDER BY order_id), COUNT(*) FROM orders WHERE amount < -100000");
        c.q("SELECT user_id, GROUP_CONCAT(DATE(created_at) ORDER BY created_at, order_id) FROM orders WHERE status IS NULL"
                + " GROUP BY user_id ORDER BY user_id");
        c.p("SELECT user_id, GROUP_CONCAT(amount * ? ORDER BY amount * ?, order_id) FROM orders WHERE user_id < ? GROUP BY user_id"
                + " ORDER BY user_id", 2, 2, 20);

        // issue 12: DISTINCT aggregates over different expressions, in HAVING, in ORDER BY unselected
        c.category("distinct-aggregates");
        c.q("SELECT COUNT(DISTINCT user_id), COUNT(DISTINCT status) FROM orders");
        c.q("SELECT COUNT(DISTINCT user_id), SUM(DISTINCT amount), AVG(DISTINCT amount), COUNT(*), SUM(amount), MAX(amount),"
                + " AVG(amount) FROM orders");
        c.q("SELECT COUNT(DISTINCT status), COUNT(DISTINCT user_id), SUM(DISTINCT amount) FROM orders WHERE user_id < -100");
        c.q("SELECT COUNT(DISTINCT name), COUNT(DISTINCT country_code), COUNT(*) FROM users");
        c.ci("SELECT status, COUNT(DISTINCT user_id), COUNT(DISTINCT DATE(created_at)), AVG(amount) FROM orders GROUP BY status"
                + " ORDER BY 1");
        c.q("SELECT user_id % 10, COUNT(DISTINCT sku), SUM(DISTINCT quantity), COUNT(DISTINCT order_id), MIN(price) FROM order_items"
                + " GROUP BY 1 ORDER BY 1");
        c.q("SELECT quantity, COUNT(DISTINCT user_id) AS u, COUNT(DISTINCT order_id) AS o FROM order_items GROUP BY quantity"
                + " ORDER BY o DESC, u, quantity");
        c.q("SELECT user_id, COUNT(*) FROM orders GROUP BY user_id HAVING COUNT(DISTINCT status) > 2 ORDER BY user_id");
        c.q("SELECT user_id, COUNT(DISTINCT status) FROM orders GROUP BY user_id"
                + " HAVING COUNT(DISTINCT status) >= 3 AND SUM(DISTINCT amount) > 500 ORDER BY user_id");
        c.q("SELECT user_id FROM orders GROUP BY user_id ORDER BY COUNT(DISTINCT status), user_id");
        c.q("SELECT user_id FROM orders GROUP BY user_id ORDER BY COUNT(DISTINCT status) DESC, SUM(DISTINCT amount), user_id LIMIT 10");
        c.q("SELECT user_id, MAX(amount) FROM orders GROUP BY user_id HAVING AVG(DISTINCT amount) > 200"
                + " ORDER BY AVG(DISTINCT amount), user_id LIMIT 10");
        c.q("SELECT quantity FROM order_items GROUP BY quantity HAVING COUNT(DISTINCT sku) > 5 AND COUNT(DISTINCT user_id) > 5"
                + " ORDER BY quantity");
        c.p("SELECT COUNT(DISTINCT IF(amount > ?, user_id, NULL)), COUNT(DISTINCT IF(amount > ?, user_id, NULL)) FROM orders", 100, 500);
        c.p("SELECT user_id % ?, COUNT(DISTINCT status), COUNT(DISTINCT amount * ?) FROM orders GROUP BY 1 ORDER BY 1", 5, 2);

        // issue 12: expressions over merged aggregates, evaluated after the merge with MySQL's arithmetic
        c.category("aggregate-expression");
        c.q("SELECT SUM(amount) / COUNT(*) FROM orders");
        c.q("SELECT AVG(amount) * 2, AVG(amount) * 3 FROM orders");
        c.q("SELECT AVG(quantity) * 3, AVG(quantity) / 7, SUM(quantity) / COUNT(*) * 1000000000 FROM order_items");
        c.q("SELECT MAX(amount) - MIN(amount), MAX(amount) + MIN(amount), -MAX(amount) FROM orders");
        c.q("SELECT SUM(price) + 1, SUM(quantity) - 1, COUNT(*) + 1, COUNT(*) * 2, MIN(quantity) * MAX(quantity) FROM order_items");
        c.q("SELECT COUNT(*) + 1, COUNT(*) * 2, COUNT(*) - COUNT(amount), COUNT(amount) / COUNT(*) FROM orders");
        c.q("SELECT COUNT(*) > 3, COUNT(*) < 3, SUM(amount) >= 1000 AND COUNT(*) > 1, COUNT(*) = 0 OR MAX(amount) > 10 FROM orders");
        c.q("SELECT NOT COUNT(*) > 3, (COUNT(*) > 3) + 1, SUM(amount) IS NULL FROM orders");
        c.q("SELECT SUM(amount) / COUNT(*), AVG(amount) * 2, MAX(amount) - MIN(amount) FROM orders WHERE user_id < -100");
        c.q("SELECT COUNT(*) / 0, SUM(amount) / 0, SUM(amount) / (COUNT(*) - COUNT(*)) FROM orders");
        c.q("SELECT SUM(amount) / SUM(amount - amount) FROM orders WHERE user_id < 10");
        c.q("SELECT AVG(amount) * 1e0, SUM(amount) / 3e0, COUNT(*) * 0.5, COUNT(*) * 1.25 FROM orders");
        c.q("SELECT user_id, SUM(amount) / COUNT(*) FROM orders GROUP BY user_id ORDER BY user_id LIMIT 20");
        c.q("SELECT user_id, SUM(amount) / COUNT(*) AS avg2, AVG(amount) FROM orders GROUP BY user_id ORDER BY avg2 DESC, user_id LIMIT 15");
        c.q("SELECT user_id, MAX(amount) - MIN(amount) AS spread FROM orders GROUP BY user_id ORDER BY spread DESC, user_id LIMIT 10");
        c.q("SELECT user_id, COUNT(*) FROM orders GROUP BY user_id ORDER BY SUM(amount) / COUNT(*) DESC, user_id LIMIT 10");
        c.q("SELECT user_id FROM orders GROUP BY user_id ORDER BY MAX(amount) - MIN(amount), user_id LIMIT 10");
        c.q("SELECT user_id, AVG(amount) * 2 FROM orders GROUP BY user_id ORDER BY 2, 1 LIMIT 10");
        c.q("SELECT user_id, COUNT(*) FROM orders GROUP BY user_id HAVING COUNT(*) > 3 AND SUM(amount) / COUNT(*) > 200"
                + " ORDER BY user_id");
        c.q("SELECT user_id, COUNT(*) FROM orders GROUP BY user_id HAVING COUNT(*) > 8 OR MAX(amount) - MIN(amount) < 50"
                + " ORDER BY user_id");
        c.q("SELECT user_id, SUM(amount) / COUNT(*) AS r FROM orders GROUP BY user_id HAVING r > 250.12345 ORDER BY r, user_id");
        c.q("SELECT user_id, AVG(amount) AS a FROM orders GROUP BY user_id HAVING a > 250.12345 ORDER BY a, user_id");
        c.q("SELECT quantity, AVG(price) * 3 FROM order_items GROUP BY quantity HAVING AVG(price) * 3 > 10 ORDER BY quantity");
        c.ci("SELECT status, COUNT(*) * 100, MAX(amount) / 2 FROM orders GROUP BY status ORDER BY 1");
        c.q("SELECT user_id % 5 AS b, COUNT(DISTINCT status) + 1, SUM(DISTINCT amount) / COUNT(DISTINCT amount),"
                + " AVG(DISTINCT amount) * 2 FROM orders GROUP BY b ORDER BY b");
        c.q("SELECT COUNT(DISTINCT user_id) * 2, COUNT(DISTINCT status) - 1 FROM orders");
        c.q("SELECT user_id, COUNT(DISTINCT status) / COUNT(*) FROM orders GROUP BY user_id ORDER BY 2 DESC, 1 LIMIT 10");
        c.q("SELECT user_id, MAX(created_at), COUNT(*) * 2 AS c2 FROM orders GROUP BY user_id ORDER BY c2 DESC, user_id LIMIT 10");
        c.q("SELECT (SUM(amount) + 1) * 2, ((MAX(amount))) / (MIN(amount) + 1) FROM orders");
        c.q("SELECT user_id, SUM(quantity * price) / SUM(quantity) FROM order_items GROUP BY user_id ORDER BY 1 LIMIT 20");
        c.q("SELECT user_id FROM orders GROUP BY user_id ORDER BY (SUM(amount) + 1) / COUNT(*) DESC, user_id LIMIT 10");
        c.q("SELECT COUNT(*) FROM orders ORDER BY SUM(amount)");
        c.q("SELECT IFNULL(SUM(amount), 0), COALESCE(MAX(amount), MIN(amount), -1) FROM orders WHERE user_id < -100");
        c.q("SELECT user_id, IFNULL(SUM(amount), 0) AS s, IF(COUNT(*) > 5, SUM(amount) / COUNT(*), 0) FROM orders GROUP BY user_id"
                + " ORDER BY s DESC, user_id LIMIT 10");
        c.q("SELECT user_id FROM orders GROUP BY user_id ORDER BY IFNULL(SUM(amount), 0), user_id LIMIT 10");
        c.ci("SELECT user_id, COALESCE(MAX(status), 'none') FROM orders GROUP BY user_id ORDER BY user_id LIMIT 20");
        c.q("SELECT user_id, IF(MAX(amount) > 900, 'big', 'small') FROM orders GROUP BY user_id ORDER BY user_id LIMIT 20");
        c.q("SELECT user_id, COUNT(*) FROM orders GROUP BY user_id HAVING IF(COUNT(*) > 3, SUM(amount), 0) > 1000 ORDER BY user_id");
        c.p("SELECT IFNULL(SUM(amount), ?), IF(COUNT(*) > ?, 1, 2) FROM orders WHERE user_id > ?", 7, 10, 20);
        c.q("SELECT DISTINCT COUNT(*) FROM orders GROUP BY user_id ORDER BY 1");
        c.q("SELECT DISTINCT COUNT(*) > 5, MAX(amount) > 900 FROM orders GROUP BY user_id");
        c.q("SELECT DISTINCT SUM(amount) > 1000 AS big FROM orders GROUP BY user_id ORDER BY big DESC LIMIT 1");
        c.p("SELECT SUM(amount) / ?, COUNT(*) * ? FROM orders WHERE user_id > ?", 3, 2, 10);
        c.p("SELECT user_id, AVG(amount) * ? AS x FROM orders WHERE user_id < ? GROUP BY user_id HAVING x > ? ORDER BY x, user_id",
                new BigDecimal("1.5"), 60, 100);
        c.p("SELECT user_id, SUM(amount) / COUNT(*) FROM orders GROUP BY user_id HAVING COUNT(*) > ? ORDER BY 2 DESC, 1", 8);

        // issue 12: COUNT(DISTINCT a, b): distinct tuples of non-NULL values across shards, under the collation
        c.category("distinct-tuples");
        c.q("SELECT COUNT(DISTINCT user_id, status) FROM orders");
        c.q("SELECT COUNT(DISTINCT status, amount), COUNT(DISTINCT amount), COUNT(*) FROM orders");
        c.q("SELECT COUNT(DISTINCT user_id, status, amount) FROM orders WHERE user_id < 50");
        c.q("SELECT COUNT(DISTINCT country_code, name) FROM users");
        c.q("SELECT COUNT(DISTINCT sku, quantity) FROM order_items WHERE user_id < -100");
        c.q("SELECT user_id % 4, COUNT(DISTINCT status, amount) FROM orders GROUP BY 1 ORDER BY 1");
        c.q("SELECT quantity, COUNT(DISTINCT user_id, sku) AS n FROM order_items GROUP BY quantity ORDER BY n DESC, quantity");
        c.q("SELECT user_id FROM orders GROUP BY user_id HAVING COUNT(DISTINCT status, amount) > 3 ORDER BY user_id");
        c.q("SELECT user_id FROM orders GROUP BY user_id ORDER BY COUNT(DISTINCT status, amount) DESC, user_id LIMIT 10");
        c.q("SELECT COUNT(DISTINCT user_id, status) * 2, COUNT(DISTINCT status, user_id) + 1 FROM orders");
        c.p("SELECT COUNT(DISTINCT user_id, amount * ?) FROM orders WHERE user_id > ?", 2, 10);
        c.q("SELECT COUNT(DISTINCT kind, DATE(created_at)) FROM events");
        return c.cases();
    }

    /**
     * Reads of issue 12's "other shapes" across shards: SELECT DISTINCT * (each shard's DISTINCT is the
     * global one: every row carries its sharding key), the BINARY operator, ORDER BY ... COLLATE.
     */
    /**
     * Statements under the sql_mode flags that change what a statement means (PIPES_AS_CONCAT,
     * HIGH_NOT_PRECEDENCE, IGNORE_SPACE, ANSI, ONLY_FULL_GROUP_BY, NO_UNSIGNED_SUBTRACTION,
     * REAL_AS_FLOAT), each set as a session statement on both sides; ends in the default mode.
     * What Shardwise refuses under a mode (1235) is tested in core (SqlModeAnalysisTest, SqlModeEngineTest).
     */
    static List<OracleCase> sqlModes() {
        Corpus c = new Corpus().category("sql-mode");
        String ordersCols = "INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES ";
        c.q("SET sql_mode = 'PIPES_AS_CONCAT'");
        c.q("SELECT order_id, user_id FROM orders WHERE user_id = 1 || 0 ORDER BY order_id"); // user_id = '10'
        c.q("SELECT order_id FROM orders WHERE user_id = 1 || 2 ORDER BY order_id");
        c.q("SELECT COUNT(*) FROM orders WHERE user_id = 1 || user_id = 2");
        c.q("SELECT COUNT(*) FROM orders WHERE user_id = 1 || user_id = 0"); // (user_id = CONCAT(1, user_id)) = 0: every row
        c.q("SELECT order_id FROM orders WHERE user_id IN (1 || 1, 2 || 2) ORDER BY order_id");
        c.p("SELECT order_id FROM orders WHERE user_id = ? || ? ORDER BY order_id", 1, 3);
        c.q("SELECT status || '/' || user_id AS s, order_id FROM orders WHERE user_id < 6 ORDER BY s, order_id");
        c.q("SELECT order_id, status || amount FROM orders ORDER BY 2 DESC, order_id LIMIT 10");
        c.ci("SELECT status || '!' AS s, COUNT(*) FROM orders GROUP BY s ORDER BY s");
        c.ci("SELECT DISTINCT status || '' FROM orders ORDER BY 1");
        c.q("SELECT COUNT(*) FROM orders WHERE status || '' = 'paid'");
        c.ci("SELECT MAX(status || order_id), MIN(status || '') FROM orders");
        c.q("SELECT 'a' || 'b', 1 || 2");
        c.q("SELECT name || '' FROM users WHERE user_id = 7");
        c.q("SELECT COUNT(*) FROM (SELECT DISTINCT user_id FROM orders) t");
        c.write("UPDATE orders SET status = status || '+' WHERE user_id = 1 || 0", "orders", "order_id");
        c.write(ordersCols + "(390001, 11, 'pi' || 'pe', 1.00, '2025-02-03 04:05:06')", "orders", "order_id");
        c.write("DELETE FROM orders WHERE user_id = 1 || 1 AND status = 'pipe'", "orders", "order_id");
        c.q("SET sql_mode = 'ANSI'");
        c.q("SELECT \"order_id\", \"status\" || '-' FROM orders WHERE \"user_id\" = 2 || 1 ORDER BY \"order_id\"");
        c.q("SELECT COUNT (*), SUM (amount) FROM orders");
        c.q("SET sql_mode = 'ONLY_FULL_GROUP_BY'");
        c.fails("SELECT user_id, status FROM orders GROUP BY user_id");
        c.fails("SELECT status, COUNT(*) FROM orders");
        c.q("SELECT user_id, COUNT(*) FROM orders GROUP BY user_id ORDER BY user_id");
        c.q("SET sql_mode = 'HIGH_NOT_PRECEDENCE'");
        c.q("SELECT COUNT(*) FROM orders WHERE NOT (user_id BETWEEN 1 AND 5)");
        c.q("SELECT order_id FROM orders WHERE user_id = 3 AND NOT (status = 'paid') ORDER BY order_id");
        c.q("SET sql_mode = 'IGNORE_SPACE'");
        c.q("SELECT COUNT (*), MAX (amount) FROM orders");
        c.q("SELECT user_id, COUNT (*) FROM orders GROUP BY user_id ORDER BY user_id LIMIT 5");
        c.q("SET sql_mode = 'NO_UNSIGNED_SUBTRACTION'");
        c.q("SELECT COUNT(*) FROM orders WHERE CAST(user_id AS UNSIGNED) - 100 < 0");
        c.q("SET sql_mode = 'REAL_AS_FLOAT'");
        c.q("SELECT SUM(amount), AVG(amount) FROM orders");
        c.q("SET sql_mode = DEFAULT");
        c.q("SELECT COUNT(*) FROM orders WHERE user_id = 1 || user_id = 2");
        c.fails("SELECT COUNT (*) FROM orders");
        return c.cases();
    }

    static List<OracleCase> otherShapes() {
        Corpus c = new Corpus();
        c.category("distinct-star");
        c.q("SELECT DISTINCT * FROM orders WHERE user_id < 20 ORDER BY order_id");
        c.q("SELECT DISTINCT * FROM order_items ORDER BY price DESC, item_id LIMIT 15");
        c.q("SELECT DISTINCT * FROM users WHERE name LIKE 'A%'");
        c.q("SELECT DISTINCT * FROM sbtest1 WHERE id < 50");
        c.q("SELECT DISTINCT * FROM events ORDER BY created_at, id LIMIT 3, 5");
        c.p("SELECT DISTINCT * FROM orders WHERE amount > ? ORDER BY amount DESC, order_id LIMIT ?", new BigDecimal("100.00"), 12);

        c.category("binary");
        c.q("SELECT order_id FROM orders WHERE BINARY status = 'Paid' ORDER BY order_id");
        c.q("SELECT order_id, status FROM orders ORDER BY BINARY status DESC, order_id LIMIT 30");
        c.q("SELECT BINARY name AS b, user_id FROM users ORDER BY b, user_id LIMIT 20");
        c.q("SELECT DISTINCT BINARY status FROM orders ORDER BY 1");
        c.q("SELECT BINARY status AS s, COUNT(*) FROM orders GROUP BY BINARY status ORDER BY s");
        c.q("SELECT COUNT(DISTINCT BINARY status) FROM orders");
        c.q("SELECT MIN(BINARY status), MAX(BINARY status) FROM orders");
        c.q("SELECT BINARY(name) FROM users WHERE user_id = 7");

        c.category("collate");
        c.q("SELECT user_id, name FROM users ORDER BY name COLLATE utf8mb4_bin, user_id LIMIT 25");
        c.q("SELECT user_id, name FROM users ORDER BY name COLLATE utf8mb4_bin DESC, user_id DESC LIMIT 25");
        c.q("SELECT status, order_id FROM orders ORDER BY status COLLATE utf8mb4_bin, order_id LIMIT 40");
        c.q("SELECT status COLLATE utf8mb4_bin AS s, order_id FROM orders ORDER BY s DESC, order_id LIMIT 40");
        c.q("SELECT order_id FROM orders WHERE status COLLATE utf8mb4_bin = 'paid' ORDER BY order_id");
        return c.cases();
    }

    /** Category of the statements {@link OracleIT} runs inside a transaction on every face (see {@link #mergedColumns}). */
    static final String IN_TRANSACTION = "in-transaction";

    /**
     * Merged aggregates over arguments of every kind the merger derives a column from (INT, BIGINT, INT
     * UNSIGNED, DECIMAL, utf8mb4 VARCHAR and CHAR, VARBINARY, DATE, DATETIME), once in autocommit
     * and once inside a transaction ({@link #IN_TRANSACTION}: the server with the relay reads them
     * natively there, on the transaction's pinned connections, as it does autocommit merges on pooled
     * ones). Their column metadata is compared like every statement's: a natively read SUM(DISTINCT
     * quantity) over an INT was once described 33 long where MySQL says 32. (No DOUBLE argument: on the engine
     * and driver faces a merged SUM(DISTINCT double) reports scale 31 where the reference, read through
     * Connector/J, says 0 — a difference of those faces; MergedColumnsServerTest covers DOUBLE on the server.)
     */
    static List<OracleCase> mergedColumns() {
        Corpus c = new Corpus();
        for (String category : List.of("merged-columns", IN_TRANSACTION)) {
            c.category(category);
            c.q("SELECT user_id % 10, COUNT(DISTINCT sku), SUM(DISTINCT quantity), COUNT(DISTINCT order_id), MIN(price)"
                    + " FROM order_items GROUP BY 1 ORDER BY 1");
            c.q("SELECT SUM(quantity), SUM(DISTINCT quantity), AVG(quantity), AVG(DISTINCT quantity), MIN(quantity), MAX(quantity),"
                    + " COUNT(DISTINCT quantity) FROM order_items");
            c.q("SELECT SUM(user_id), SUM(DISTINCT user_id), AVG(DISTINCT user_id), MIN(user_id), MAX(order_id) FROM order_items");
            c.q("SELECT SUM(id), SUM(DISTINCT id), AVG(id), AVG(DISTINCT id), MIN(id), MAX(id), COUNT(DISTINCT id) FROM small");
            c.q("SELECT SUM(price), SUM(DISTINCT price), AVG(price), AVG(DISTINCT price), MIN(price), MAX(price) FROM order_items");
            c.q("SELECT user_id, SUM(DISTINCT amount), AVG(DISTINCT amount), MAX(amount) FROM orders GROUP BY user_id"
                    + " ORDER BY user_id LIMIT 5");
            c.ci("SELECT MIN(c), MAX(c), COUNT(DISTINCT pad) FROM sbtest1 WHERE id < 50");
            c.ci("SELECT MIN(sku), MAX(sku), COUNT(DISTINCT sku) FROM order_items");
            c.q("SELECT MAX(CAST(sku AS BINARY)), MIN(quantity > 2), MAX(user_id < 5), COUNT(DISTINCT CAST(sku AS BINARY))"
                    + " FROM order_items");
            c.q("SELECT user_id, GROUP_CONCAT(sku ORDER BY item_id), GROUP_CONCAT(DISTINCT quantity ORDER BY quantity)"
                    + " FROM order_items WHERE user_id < 20 GROUP BY user_id ORDER BY user_id");
            c.q("SELECT MIN(DATE(created_at)), MAX(DATE(created_at)), COUNT(DISTINCT DATE(created_at)), MIN(created_at),"
                    + " MAX(created_at) FROM orders");
            c.ci("SELECT status, COUNT(DISTINCT user_id), MAX(DATE(created_at)), SUM(DISTINCT amount) FROM orders"
                    + " GROUP BY status ORDER BY 1");
            c.q("SELECT MIN(k), MAX(k), SUM(DISTINCT k), AVG(DISTINCT k) FROM sbtest1");
            c.q("SELECT id, k, c FROM sbtest1 WHERE id BETWEEN 10 AND 30 ORDER BY k DESC, id LIMIT 7");
            c.q("SELECT DISTINCT quantity FROM order_items ORDER BY quantity");
        }
        return c.cases();
    }

    /**
     * Writes MySQL allows that a shard alone cannot answer (issue 12): UPDATE/DELETE with ORDER BY
     * and LIMIT across shards (every ORDER BY ends with a unique key, so one MySQL's choice of rows
     * is the only right one), INSERT ... SET, ON DUPLICATE KEY UPDATE keeping the sharding column.
     * Each is followed by the whole table it touched.
     */
    static List<OracleCase> mysqlWrites() {
        Corpus c = new Corpus();
        c.category("write-order-limit");
        c.write("UPDATE orders SET status = 'top' ORDER BY amount DESC, order_id LIMIT 5", "orders", "order_id");
        c.write("UPDATE orders SET amount = amount + 1 WHERE status = 'paid' ORDER BY created_at, order_id LIMIT 7", "orders", "order_id");
        c.write("UPDATE orders SET status = status WHERE user_id > 100 ORDER BY order_id DESC LIMIT 3", "orders", "order_id");
        c.write("UPDATE orders o SET o.status = 'o' WHERE o.amount > 500 ORDER BY o.amount, o.order_id LIMIT 4", "orders", "order_id");
        c.write("UPDATE LOW_PRIORITY orders SET status = 'lp' WHERE status IS NULL ORDER BY order_id LIMIT 2", "orders", "order_id");
        c.write("UPDATE orders SET status = 'none' WHERE status = 'no-such' ORDER BY order_id LIMIT 3", "orders", "order_id");
        c.write("UPDATE orders SET amount = 0 ORDER BY amount LIMIT 0", "orders", "order_id");
        c.write("UPDATE orders SET status = 'lim' LIMIT 1000000", "orders", "order_id");
        c.pwrite("UPDATE orders SET status = ? WHERE amount < ? ORDER BY amount, order_id LIMIT ?", "orders", "order_id",
                "cheap", new BigDecimal("50.00"), 6);
        c.pwrite("UPDATE orders SET status = 'mixed', amount = amount + ? WHERE user_id BETWEEN ? AND 90 ORDER BY order_id DESC LIMIT ?",
                "orders", "order_id", 1, 20, 4);
        c.write("UPDATE users SET name = CONCAT(name, '!') ORDER BY name DESC, user_id LIMIT 4", "users", "user_id");
        c.write("UPDATE sbtest1 SET k = k + 1 ORDER BY k DESC, id LIMIT 10", "sbtest1", "id");
        c.write("UPDATE order_items SET quantity = quantity * 2 WHERE quantity > 1 ORDER BY price, item_id LIMIT 9", "order_items", "item_id");
        c.failingWrite("UPDATE orders SET nope = 1 ORDER BY order_id LIMIT 1", "orders", "order_id");
        c.write("DELETE FROM orders WHERE status = 'top' ORDER BY order_id LIMIT 2", "orders", "order_id");
        c.write("DELETE FROM order_items ORDER BY price DESC, item_id LIMIT 3", "order_items", "item_id");
        c.write("DELETE FROM events ORDER BY created_at DESC, id LIMIT 2", "events", "id");
        c.write("DELETE QUICK FROM orders WHERE amount > 100 ORDER BY amount, order_id LIMIT 3", "orders", "order_id");
        c.write("DELETE FROM orders WHERE user_id = 77777 ORDER BY order_id LIMIT 1", "orders", "order_id");
        c.pwrite("DELETE FROM users WHERE user_id > ? ORDER BY user_id LIMIT ?", "users", "user_id", 150L, 2);
        // in the client's own transaction: the choice and the write join it, and roll back with it
        c.q("BEGIN");
        c.write("DELETE FROM orders ORDER BY created_at, order_id LIMIT 10", "orders", "order_id");
        c.q("ROLLBACK");
        c.check("orders", "order_id");

        c.category("insert-set");
        c.write("INSERT INTO orders SET order_id = 300001, user_id = 5, status = 'set', amount = 1.50, created_at = '2025-05-05'",
                "orders", "order_id");
        c.write("INSERT INTO countries SET code = 'ZZ', name = 'Zed'", "countries", "code");
        c.write("INSERT INTO users SET user_id = 42, name = 'x' ON DUPLICATE KEY UPDATE name = 'set-dup'", "users", "user_id");
        c.write("INSERT IGNORE INTO users SET name = 'ignored', user_id = 42", "users", "user_id");
        c.write("REPLACE INTO small SET id = 6, category = 'books'", "small", "id");
        c.pwrite("INSERT INTO orders SET order_id = ?, user_id = ?, created_at = ?, status = CONCAT(?, 'x')", "orders", "order_id",
                300002L, 7L, "2025-06-06 06:06:06", "p");
        c.failingWrite("INSERT INTO orders SET order_id = 300001, user_id = 5, created_at = '2025-05-05'", "orders", "order_id");

        c.category("insert-select");
        c.write("INSERT INTO orders (order_id, user_id, status, amount, created_at) SELECT order_id + 500000, user_id, 'copied', amount,"
                + " created_at FROM orders WHERE amount > 900", "orders", "order_id");
        c.write("INSERT INTO order_items (item_id, order_id, user_id, sku, quantity, price) SELECT item_id + 900000, order_id, user_id,"
                + " CONCAT(sku, '-c'), quantity, price FROM order_items WHERE user_id IN (1, 2, 3) ORDER BY item_id LIMIT 10",
                "order_items", "item_id");
        c.write("INSERT INTO countries (code, name) SELECT DISTINCT CONCAT('R', ABS(user_id) % 10), 'from users' FROM users",
                "countries", "code");
        c.write("INSERT INTO countries (code, name) SELECT CONCAT('S', user_id), name FROM users WHERE user_id BETWEEN 1 AND 9"
                + " ORDER BY user_id", "countries", "code");
        c.write("INSERT INTO promotions (id, code, discount) SELECT 100 + user_id, CONCAT('U', user_id), 1.00 FROM users"
                + " WHERE user_id BETWEEN 1 AND 5", "promotions", "id");
        c.write("INSERT INTO users (user_id, name) SELECT user_id + 10000, name FROM users WHERE user_id < 10", "users", "user_id");
        c.write("INSERT IGNORE INTO users (user_id, name) SELECT user_id, 'dup' FROM users WHERE user_id < 5", "users", "user_id");
        // sbtest1's id is AUTO_INCREMENT: the insert id is the last row's, so the rows need an order
        c.write("INSERT INTO sbtest1 (id, k, c, pad) SELECT id + 5000, k, c, pad FROM sbtest1 WHERE id BETWEEN 1 AND 30 ORDER BY id",
                "sbtest1", "id");
        c.write("INSERT INTO orders (order_id, user_id, status, created_at) SELECT 700000 + user_id, user_id, 'agg', MAX(created_at)"
                + " FROM orders GROUP BY user_id", "orders", "order_id");
        c.write("INSERT INTO events (id, created_at, kind) SELECT id + 1000, created_at, 'copy' FROM events WHERE kind IS NOT NULL"
                + " ORDER BY created_at, id LIMIT 4", "events", "id");
        c.write("INSERT INTO orders (order_id, user_id, status, created_at) SELECT order_id, user_id, status, created_at FROM orders"
                + " WHERE user_id = -424242", "orders", "order_id");
        c.pwrite("INSERT INTO orders (order_id, user_id, status, created_at) SELECT order_id + ?, user_id, ?, created_at FROM orders"
                + " WHERE user_id = ?", "orders", "order_id", 800000L, "param", 7L);
        c.failingWrite("INSERT INTO users (user_id, name) SELECT user_id, name FROM users WHERE user_id = 1", "users", "user_id");
        c.q("BEGIN");
        c.write("INSERT INTO orders (order_id, user_id, status, created_at) SELECT order_id + 600000, user_id, 'tx', created_at FROM orders"
                + " WHERE user_id BETWEEN 40 AND 45", "orders", "order_id");
        c.q("ROLLBACK");
        c.check("orders", "order_id");

        c.category("on-duplicate-key");
        c.write("INSERT INTO users (user_id, name) VALUES (42, 'v') ON DUPLICATE KEY UPDATE user_id = VALUES(user_id), name = 'kept'",
                "users", "user_id");
        c.write("INSERT INTO users (user_id, name) VALUES (43, 'n'), (2001, 'new') ON DUPLICATE KEY UPDATE user_id = user_id,"
                + " name = CONCAT(name, '+')", "users", "user_id");
        c.write("INSERT INTO orders (order_id, user_id, status, created_at) VALUES (300001, 5, 'again', '2025-01-01')"
                + " ON DUPLICATE KEY UPDATE status = VALUES(status), `user_id` = orders.user_id", "orders", "order_id");
        // INSERT ... SELECT ... ON DUPLICATE KEY UPDATE: the SELECT's rows inserted as VALUES with the clause; the SELECT's
        // columns (o.status) bound per row, the target's (users.name) and VALUES(col) as written
        c.write("INSERT INTO users (user_id, name) SELECT user_id, CONCAT(name, '#') FROM users WHERE user_id < 12"
                + " ON DUPLICATE KEY UPDATE name = VALUES(name)", "users", "user_id");
        c.write("INSERT INTO users (user_id, name, email) SELECT u.user_id + IF(u.user_id % 3 = 0, 0, 31000), u.name, NULL FROM users u"
                + " WHERE u.user_id BETWEEN 1 AND 20 ON DUPLICATE KEY UPDATE email = CONCAT(IFNULL(u.email, 'none'), '/', users.user_id)",
                "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE o.amount > 300 ORDER BY o.order_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT(o.status, '-', o.order_id)", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT u.user_id, u.name FROM users u WHERE u.user_id < 6 ON DUPLICATE KEY UPDATE name = u.name",
                "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT user_id, COUNT(*) FROM orders GROUP BY user_id ON DUPLICATE KEY UPDATE name = VALUES(name)",
                "users", "user_id");
        c.write("INSERT INTO countries (code, name) SELECT country_code, 'seen' FROM users WHERE country_code IS NOT NULL ORDER BY user_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT(countries.name, '.')", "countries", "code");
        c.write("INSERT INTO promotions (id, code, discount) SELECT user_id, CONCAT('P', user_id), 2.50 FROM users WHERE user_id < 8"
                + " ON DUPLICATE KEY UPDATE discount = discount + VALUES(discount)", "promotions", "id");
        c.pwrite("INSERT INTO users (user_id, name) SELECT user_id, ? FROM users u WHERE user_id < ? ON DUPLICATE KEY UPDATE name = CONCAT(?, users.name)",
                "users", "user_id", "p", 5L, "q");
        c.failingWrite("INSERT INTO users (user_id, name) SELECT user_id, 'x' FROM users WHERE user_id < 5 ON DUPLICATE KEY UPDATE name = users.name",
                "users", "user_id");
        c.fails("INSERT INTO users (user_id, name) SELECT u.user_id, 'x' FROM users u WHERE u.user_id < 5 ON DUPLICATE KEY UPDATE name = nope");
        // a sharding key given as an expression: evaluated once per row, then routed by its value
        c.write("INSERT INTO users (user_id, name) VALUES (40000 + 1, 'sum'), (2 * 20001, NULL), (CAST('40003' AS UNSIGNED), 'cast')",
                "users", "user_id");
        c.pwrite("INSERT INTO users (user_id, name) VALUES (? + 1, ?), (ABS(?), 'abs')", "users", "user_id", 40010L, "p", -40020L);
        c.write("INSERT INTO users (user_id, name) VALUES (40000 + 1, 'dup'), (40100 + 1, 'new') ON DUPLICATE KEY UPDATE name = CONCAT(users.name, '+')",
                "users", "user_id");
        c.write("INSERT INTO orders (order_id, user_id, status, created_at) VALUES (400001, 3 * 7, 'c', '2025-01-01'),"
                + " (400002, LENGTH('abcd'), NULL, '2025-01-02')", "orders", "order_id");
        // sbtest1's id is AUTO_INCREMENT: a row giving its own id (here updated) is no insert id, and leaves LAST_INSERT_ID() as it was
        c.pwrite("INSERT INTO sbtest1 (id, k, c, pad) SELECT id + IF(id % 2 = 0, 0, 20000000), k, c, pad FROM sbtest1 s"
                + " WHERE id = ? AND id = ? OR id = ? ORDER BY id ON DUPLICATE KEY UPDATE k = sbtest1.k + VALUES(k), c = s.pad",
                "sbtest1", "id", 2L, 500L, 500L);
        c.write("INSERT INTO sbtest1 (id, k, c, pad) VALUES (5600, 1, 'c', 'p'), (5601, 2, 'c', 'p')", "sbtest1", "id");
        c.write("INSERT INTO users (user_id, name) VALUES (LAST_INSERT_ID() + 50000, 'lid')", "users", "user_id");
        c.failingWrite("INSERT INTO users (user_id, name) VALUES (40200, 'half'), (40000 + 1, 'duplicate')", "users", "user_id");

        // INSERT ... SELECT ... ON DUPLICATE KEY UPDATE naming the SELECT's columns when it has subqueries or parentheses
        // (MySQL reads them from the source row, as without), and a clause checked even when the SELECT returns no row
        c.category("insert-select-odku-nested");
        c.write("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE o.user_id IN (SELECT u.user_id FROM users u"
                + " WHERE u.country_code = 'CH') ORDER BY o.order_id ON DUPLICATE KEY UPDATE name = CONCAT('Z', o.status, o.order_id)",
                "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT o.user_id, (SELECT MAX(name) FROM users) FROM orders o WHERE o.amount > 900"
                + " ORDER BY o.order_id ON DUPLICATE KEY UPDATE name = CONCAT(status, '/', amount)", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) (SELECT o.user_id, o.status FROM orders o WHERE o.user_id < 3 ORDER BY o.order_id)"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('P', o.status, o.order_id)", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE o.user_id < 3 UNION ALL SELECT user_id, 'u'"
                + " FROM users WHERE user_id < 3 ON DUPLICATE KEY UPDATE name = CONCAT('U', VALUES(name))", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT d.user_id, d.status FROM (SELECT user_id, status, order_id FROM orders WHERE user_id < 4) d"
                + " ORDER BY d.order_id ON DUPLICATE KEY UPDATE name = CONCAT('D', status, d.order_id)", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o JOIN (SELECT user_id, COUNT(*) AS n FROM order_items"
                + " GROUP BY user_id) i ON i.user_id = o.user_id WHERE o.amount > 800 ORDER BY o.order_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('G', o.order_id, '/', i.n, '/', n)", "users", "user_id");
        c.failingWrite("INSERT INTO users (user_id, name) SELECT d.user_id, 'x' FROM (SELECT user_id FROM orders WHERE user_id < 4) d"
                + " ON DUPLICATE KEY UPDATE name = d.nope", "users", "user_id");
        c.failingWrite("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE o.amount > 100000"
                + " ON DUPLICATE KEY UPDATE name = nope", "users", "user_id");
        c.failingWrite("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE 1 = 0 ON DUPLICATE KEY UPDATE nope = 1",
                "users", "user_id");
        c.failingWrite("INSERT INTO countries (code, name) SELECT country_code, 'none' FROM users WHERE user_id < -5000"
                + " ON DUPLICATE KEY UPDATE name = o.nope", "countries", "code");
        c.write("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE 1 = 0"
                + " ON DUPLICATE KEY UPDATE name = CONCAT(o.status, users.name, VALUES(name))", "users", "user_id");
        // INSERT ... SET with a computed sharding key: read as its VALUES form, whose keys are evaluated once
        c.write("INSERT INTO users SET user_id = 41000 + 1, name = 'set-sum'", "users", "user_id");
        c.write("INSERT INTO users SET user_id = 41000 + 1, name = 'again' ON DUPLICATE KEY UPDATE name = CONCAT(users.name, '+', VALUES(name))",
                "users", "user_id");
        c.pwrite("INSERT INTO users SET name = ?, user_id = ? + 2", "users", "user_id", "set-param", 41010L);

        // INSERT ... WITH ... SELECT ... ON DUPLICATE KEY UPDATE naming a common table expression's columns (MariaDB reads them per
        // row, as a table's), and a nested join's tables and derived tables
        c.category("insert-select-odku-with");
        c.write("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id, status, order_id FROM orders WHERE user_id < 4) SELECT c.user_id,"
                + " c.status FROM c ORDER BY c.order_id ON DUPLICATE KEY UPDATE name = CONCAT('W', c.status, c.order_id)", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) WITH c (uid, st, oid) AS (SELECT user_id, status, order_id FROM orders WHERE user_id < 5)"
                + " SELECT uid, st FROM c AS x ORDER BY oid DESC ON DUPLICATE KEY UPDATE name = CONCAT('V', x.st, oid)", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id, COUNT(*) AS n FROM order_items GROUP BY user_id) SELECT o.user_id,"
                + " o.status FROM orders o JOIN c ON c.user_id = o.user_id WHERE o.amount > 800 ORDER BY o.order_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('G', o.order_id, '/', c.n, '/', n)", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) WITH RECURSIVE r (k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM r WHERE k < 6) SELECT r.k, 'r'"
                + " FROM r ON DUPLICATE KEY UPDATE name = CONCAT('R', r.k * 10)", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id, status, order_id FROM orders WHERE user_id < 6) SELECT d.user_id,"
                + " 'x' FROM (SELECT user_id, status AS st, order_id FROM c WHERE order_id % 2 = 0) d ORDER BY d.order_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('K', d.st, st)", "users", "user_id");
        c.pwrite("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id, status, order_id FROM orders WHERE user_id < ?) SELECT c.user_id,"
                + " c.status FROM c ORDER BY c.order_id ON DUPLICATE KEY UPDATE name = CONCAT(?, c.status, c.order_id)", "users", "user_id",
                3L, "PW");
        c.failingWrite("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id FROM orders WHERE user_id < 4) SELECT c.user_id, 'x' FROM c"
                + " ON DUPLICATE KEY UPDATE name = c.nope", "users", "user_id");
        c.failingWrite("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id FROM orders WHERE user_id < 4) SELECT c.user_id, 'x' FROM c"
                + " ON DUPLICATE KEY UPDATE name = user_id", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM (orders o JOIN order_items i ON i.order_id = o.order_id"
                + " AND i.user_id = o.user_id) WHERE o.user_id < 6 ORDER BY o.order_id, i.item_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('N', o.order_id, '/', i.item_id)", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM (orders o JOIN (SELECT user_id AS uid, COUNT(*) AS n"
                + " FROM order_items GROUP BY user_id) d ON d.uid = o.user_id) WHERE o.amount > 700 ORDER BY o.order_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('M', n, '/', d.uid, '/', o.order_id)", "users", "user_id");

        // plain INSERT / INSERT IGNORE / REPLACE ... SELECT whose SELECT only the federated tier answers across shards: its rows
        // read whole first (MariaDB does so when the SELECT reads the target), then inserted routed row by row
        c.category("insert-select-federated");
        c.write("INSERT INTO users (user_id, name) SELECT o.order_id + 41000000, o.status FROM orders o WHERE o.order_id IN"
                + " (SELECT i.order_id FROM order_items i WHERE i.quantity > 2) AND o.amount > 500", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT o.order_id + 42000000, o.status FROM orders o WHERE EXISTS (SELECT 1 FROM"
                + " order_items i WHERE i.order_id = o.order_id AND i.price > 90) AND o.amount < 200", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT d.n + 43000000, d.status FROM (SELECT status, COUNT(*) AS n FROM orders"
                + " GROUP BY status) d", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT user_id + 44000000, 'u' FROM orders WHERE amount > 900 AND user_id < 1000000 UNION"
                + " SELECT user_id + 44000000, 'u' FROM order_items WHERE quantity > 4 AND user_id < 1000000", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id, COUNT(*) AS n FROM order_items GROUP BY user_id)"
                + " SELECT c.user_id + 45000000, CONCAT('n', c.n) FROM c WHERE c.n > 1 AND c.user_id < 1000000", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT o.order_id + 46000000, CONCAT('r', ROW_NUMBER() OVER (ORDER BY o.amount DESC,"
                + " o.order_id)) FROM orders o WHERE o.amount > 700", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT i.item_id + 47000000, o.status FROM order_items i JOIN orders o"
                + " ON o.order_id = i.order_id WHERE i.quantity > 3", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) SELECT u.user_id + 48000000, u.name FROM users u WHERE u.user_id >"
                + " (SELECT AVG(user_id) FROM users WHERE user_id < 1000000) AND u.user_id < 1000000", "users", "user_id");
        c.write("INSERT IGNORE INTO users (user_id, name) SELECT u.user_id + IF(u.user_id % 2 = 0, 0, 49000000), 'ign' FROM users u"
                + " WHERE u.user_id IN (SELECT user_id FROM orders WHERE amount > 600) AND u.user_id < 1000000", "users", "user_id");
        c.write("REPLACE INTO users (user_id, name) SELECT u.user_id, 'rep' FROM users u WHERE u.user_id IN (SELECT user_id FROM orders"
                + " WHERE amount > 600)", "users", "user_id");
        c.pwrite("INSERT INTO users (user_id, name) SELECT o.order_id + ?, o.status FROM orders o WHERE o.amount > (SELECT AVG(amount)"
                + " FROM orders WHERE status = ?)", "users", "user_id", 50000000L, "paid");

        // multi-table writes with ORDER BY / LIMIT: MariaDB 11.4 sorts an UPDATE's join rows (LIMIT counting join rows, each
        // target row written once from the first meeting it); after a multi-table DELETE both are its syntax error (1064)
        c.category("multi-table-order-limit");
        c.write("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id SET o.amount = o.amount + 1"
                + " WHERE o.user_id = 4 ORDER BY i.item_id DESC LIMIT 2", "orders", "order_id");
        c.write("UPDATE orders o JOIN users u ON u.user_id <> o.user_id AND u.user_id < 5 SET o.amount = o.amount + u.user_id"
                + " WHERE o.user_id = 3 ORDER BY o.order_id DESC, u.user_id DESC LIMIT 3", "orders", "order_id");
        c.failingWrite("DELETE o FROM orders o JOIN order_items i ON o.user_id = i.user_id WHERE o.user_id = 3 LIMIT 1", "orders", "order_id");
        c.failingWrite("DELETE o FROM orders o JOIN order_items i ON o.user_id = i.user_id LIMIT 1", "orders", "order_id");
        c.failingWrite("DELETE FROM o USING orders o JOIN order_items i ON o.order_id = i.order_id ORDER BY o.order_id LIMIT 2", "orders",
                "order_id");

        // on the relay face a transaction whose first statement relays runs natively: point reads and writes relay on
        // the connections it pins, the rest (the whole-table checks, merges) runs on the same connections and sees its writes
        c.category("native-transaction");
        c.q("BEGIN");
        c.write("UPDATE sbtest1 SET k = k + 7 WHERE id = 3", "sbtest1", "id");
        c.q("SELECT k, c FROM sbtest1 WHERE id = 3");
        c.q("SELECT SUM(k), COUNT(*) FROM sbtest1 WHERE id BETWEEN 1 AND 50");
        c.write("INSERT INTO sbtest1 (id, k, c, pad) VALUES (7001, 5, 'tx', 'tx')", "sbtest1", "id");
        c.fails("INSERT INTO sbtest1 (id, k, c, pad) VALUES (7001, 6, 'tx', 'tx')");
        c.write("DELETE FROM sbtest1 WHERE id = 4", "sbtest1", "id");
        c.q("SAVEPOINT s1");
        c.write("UPDATE sbtest1 SET c = 'after' WHERE id = 5", "sbtest1", "id");
        c.q("ROLLBACK TO SAVEPOINT s1");
        c.check("sbtest1", "id");
        c.q("COMMIT");
        c.check("sbtest1", "id");
        // savepoints as ORMs' nested blocks send them (the server answers them on its event loop): one set before any
        // backend joined (the native transaction takes it over), one between the first statements of different shards
        // (a backend joining after it sets it first, so ROLLBACK TO undoes its part too), then RELEASE and 1305
        c.q("BEGIN");
        c.q("SAVEPOINT outer_sp");
        c.write("UPDATE sbtest1 SET k = k + 3 WHERE id = 6", "sbtest1", "id");
        c.q("SAVEPOINT inner_sp");
        c.write("UPDATE sbtest1 SET k = k + 5 WHERE id = 7", "sbtest1", "id");
        c.write("UPDATE sbtest1 SET k = k + 5 WHERE id = 8", "sbtest1", "id");
        c.q("ROLLBACK WORK TO inner_sp");
        c.check("sbtest1", "id");
        c.q("RELEASE SAVEPOINT inner_sp");
        c.fails("ROLLBACK TO SAVEPOINT inner_sp");
        c.q("SAVEPOINT `in ner`");
        c.write("UPDATE sbtest1 SET k = k + 5 WHERE id = 9", "sbtest1", "id");
        c.q("ROLLBACK TO outer_sp");
        c.fails("RELEASE SAVEPOINT `in ner`");
        c.check("sbtest1", "id");
        c.write("UPDATE sbtest1 SET k = k + 1 WHERE id = 6", "sbtest1", "id");
        c.q("COMMIT");
        c.check("sbtest1", "id");
        c.q("BEGIN");
        c.write("UPDATE sbtest1 SET k = k - 7 WHERE id = 3", "sbtest1", "id");
        c.q("ROLLBACK");
        c.check("sbtest1", "id");
        c.q("START TRANSACTION READ ONLY");
        c.q("SELECT k FROM sbtest1 WHERE id = 3");
        c.failsWordedOtherwise("UPDATE sbtest1 SET k = 0 WHERE id = 3",
                "Shardwise refuses it before routing with MySQL's text, which ends with a period; MariaDB's does not");
        c.q("COMMIT");

        // COMMIT / ROLLBACK AND CHAIN begin the next transaction at once, with the ended one's access mode; completion_type
        // CHAIN makes the plain forms chain (AND NO CHAIN does not); the relay face answers them on the session's thread
        // (RELEASE ends the connection, so ChainedTransactionTest and ChainedTransactionServerTest check it instead)
        c.category("chained-transaction");
        c.q("BEGIN");
        c.write("UPDATE sbtest1 SET k = k + 2 WHERE id = 11", "sbtest1", "id");
        c.q("COMMIT AND CHAIN");
        c.q("SELECT @@in_transaction");
        c.write("UPDATE sbtest1 SET k = k + 2 WHERE id = 12", "sbtest1", "id");
        c.q("ROLLBACK AND CHAIN");
        c.check("sbtest1", "id");
        c.write("UPDATE sbtest1 SET k = k + 3 WHERE id = 13", "sbtest1", "id");
        c.q("COMMIT WORK AND NO CHAIN NO RELEASE");
        c.q("SELECT @@in_transaction");
        c.check("sbtest1", "id");
        c.q("START TRANSACTION READ ONLY");
        c.q("SELECT k FROM sbtest1 WHERE id = 11");
        c.q("COMMIT AND CHAIN");
        c.failsWordedOtherwise("UPDATE sbtest1 SET k = 0 WHERE id = 11",
                "Shardwise refuses it before routing with MySQL's text, which ends with a period; MariaDB's does not");
        c.q("ROLLBACK AND NO CHAIN");
        c.q("SET completion_type = 'CHAIN'");
        c.q("SELECT @@completion_type");
        c.q("BEGIN");
        c.write("UPDATE sbtest1 SET k = k + 1 WHERE id = 14", "sbtest1", "id");
        c.q("COMMIT");
        c.q("SELECT @@in_transaction");
        c.write("UPDATE sbtest1 SET k = k + 1 WHERE id = 15", "sbtest1", "id");
        c.q("ROLLBACK");
        c.check("sbtest1", "id");
        c.q("COMMIT AND NO CHAIN");
        c.q("SELECT @@in_transaction");
        c.fails("SET completion_type = 3");
        c.failsWordedOtherwise("COMMIT AND CHAIN RELEASE", "MariaDB's 1064 names its manual and the line; Shardwise's the token");
        c.q("SET completion_type = DEFAULT");
        c.q("SELECT @@completion_type");

        // DDL commits the open transaction first, on every backend it touched, as MySQL does: users 93000 and 93004
        // live on ds0, 93002 and 93006 on ds1 (user_id mod 4), so each ROLLBACK below must undo nothing written before
        // the DDL; savepoints end with it, @@in_transaction reads 0 after it, and a failing DDL commits all the same
        // (DdlImplicitCommitTest and DdlCommitServerTest check more: views, TRUNCATE, CREATE / DROP TEMPORARY TABLE)
        c.category("ddl-implicit-commit");
        c.q("BEGIN");
        c.write("INSERT INTO users (user_id, name) VALUES (93000, 'ddl')", "users", "user_id");
        c.write("INSERT INTO users (user_id, name) VALUES (93002, 'ddl')", "users", "user_id");
        c.q("CREATE TABLE oracle_ddl_commit (id INT)");
        c.q("SELECT @@in_transaction");
        c.q("ROLLBACK");
        c.check("users", "user_id");
        c.q("BEGIN");
        c.write("UPDATE users SET name = 'sp' WHERE user_id IN (93000, 93002)", "users", "user_id");
        c.q("SAVEPOINT ddl_sp");
        c.q("CREATE INDEX idx_oracle_ddl_commit ON users (name)");
        c.fails("ROLLBACK TO SAVEPOINT ddl_sp");
        c.q("ROLLBACK");
        c.check("users", "user_id");
        c.q("SET autocommit = 0");
        c.write("INSERT INTO users (user_id, name) VALUES (93004, 'ddl'), (93006, 'ddl')", "users", "user_id");
        c.q("DROP INDEX idx_oracle_ddl_commit ON users");
        c.q("SELECT @@in_transaction");
        c.q("ROLLBACK");
        c.q("SET autocommit = 1");
        c.check("users", "user_id");
        c.q("BEGIN");
        c.write("UPDATE users SET name = 'failed ddl' WHERE user_id IN (93000, 93002)", "users", "user_id");
        c.fails("CREATE TABLE oracle_ddl_commit (id INT)");
        c.q("ROLLBACK");
        c.check("users", "user_id");
        c.q("BEGIN");
        c.write("DELETE FROM users WHERE user_id BETWEEN 93000 AND 93006", "users", "user_id");
        c.q("DROP TABLE oracle_ddl_commit");
        c.q("ROLLBACK");
        c.check("users", "user_id");
        // statements other than DDL that commit first (ImplicitCommitTest checks more: ANALYZE/CHECK/OPTIMIZE/REPAIR
        // TABLE, FLUSH HOSTS, autocommit off): RESET, and RESET MASTER although it fails (no binary log)
        c.q("BEGIN");
        c.write("INSERT INTO users (user_id, name) VALUES (93008, 'reset'), (93010, 'reset')", "users", "user_id");
        c.q("RESET QUERY CACHE");
        c.q("SELECT @@in_transaction");
        c.q("ROLLBACK");
        c.check("users", "user_id");
        c.q("BEGIN");
        c.write("UPDATE users SET name = 'reset failed' WHERE user_id IN (93008, 93010)", "users", "user_id");
        c.fails("RESET MASTER");
        c.q("SELECT @@in_transaction");
        c.q("ROLLBACK");
        c.check("users", "user_id");
        c.q("BEGIN");
        c.write("DELETE FROM users WHERE user_id IN (93008, 93010)", "users", "user_id");
        c.q("RESET QUERY CACHE");
        c.q("ROLLBACK");
        c.check("users", "user_id");

        // a failing statement inside a transaction changes nothing and the transaction goes on, as in MySQL, when its
        // units span nodes: users 90000, 4 and 5 live on ds0, users 2, 3 and 6 on ds1 (user_id mod 4), so each
        // statement below writes on ds0, then fails on ds1; COMMIT must not keep the ds0 part
        String rowNamed = "the backend's message names the row it failed at: the shard's first, the one database's second";
        c.category("statement-atomicity");
        c.q("BEGIN");
        c.fails("INSERT INTO users (user_id, name) VALUES (90000, 'half'), (2, 'duplicate')");
        c.fails("INSERT INTO orders (order_id, user_id, status, created_at) VALUES (990001, 4, 'half', '2025-01-01'),"
                + " (990002, 6, 'null', NULL)");
        c.failsWordedOtherwise("UPDATE users SET country_code = IF(user_id = 6, 'long', 'XX') WHERE user_id IN (4, 6)",
                rowNamed); // 1406 (strict sql_mode)
        c.fails("UPDATE users SET user_id = 2 WHERE user_id = 5"); // a key move: deleted on ds0, its insert fails on ds1
        c.fails("INSERT INTO users (user_id, name) SELECT IF(user_id = 3, 2, user_id + 90100), name FROM users"
                + " WHERE user_id BETWEEN 1 AND 3");
        c.failsWordedOtherwise("UPDATE users SET country_code = IF(user_id = 6, 'long', 'XX') WHERE user_id IN (4, 6)"
                + " AND (SELECT COUNT(*) FROM sbtest1) > 0", rowNamed); // the federated tier's write
        c.write("INSERT INTO users (user_id, name) VALUES (90004, 'kept'), (90006, 'kept')", "users", "user_id");
        c.q("COMMIT");
        c.check("users", "user_id");
        c.check("orders", "order_id");
        // autocommit off: the first statement opens the transaction and fails in it
        c.q("SET autocommit = 0");
        c.fails("INSERT INTO users (user_id, name) VALUES (90008, 'half'), (3, 'duplicate')");
        c.q("COMMIT");
        c.q("SET autocommit = 1");
        c.check("users", "user_id");
        // on the relay face a transaction whose first statement relays runs natively (see native-transaction)
        c.q("BEGIN");
        c.write("UPDATE users SET name = 'in-tx' WHERE user_id = 8", "users", "user_id");
        c.fails("INSERT INTO users (user_id, name) VALUES (90012, 'half'), (2, 'duplicate')");
        c.failsWordedOtherwise("UPDATE users SET country_code = IF(user_id = 6, 'long', 'XX') WHERE user_id IN (4, 6)",
                rowNamed);
        c.fails("UPDATE users SET user_id = 3 WHERE user_id = 9");
        c.check("users", "user_id");
        c.q("COMMIT");
        c.check("users", "user_id");
        c.check("orders", "order_id");
        return c.cases();
    }

    /**
     * Issue 13's former implementation limits (helper w13b): an UPDATE/DELETE with ORDER BY / LIMIT over several
     * nodes whose choosing SELECT only the federated tier answers (a subquery in ORDER BY), its rows then written by key.
     * Every ORDER BY ends with a unique key (MySQL's choice among ties is its own). Each write is followed by its table.
     */
    static List<OracleCase> formerLimits() {
        Corpus c = new Corpus();
        c.category("write-order-limit-federated-choice");
        c.write("UPDATE orders SET status = 'top-i' ORDER BY (SELECT MAX(i.price) FROM order_items i WHERE i.order_id = orders.order_id) DESC,"
                + " order_id LIMIT 3", "orders", "order_id");
        c.write("DELETE FROM order_items ORDER BY user_id IN (SELECT user_id FROM users WHERE name IS NULL) DESC, item_id LIMIT 2",
                "order_items", "item_id");
        c.write("UPDATE users u SET name = CONCAT(name, '>') WHERE u.user_id > 10 ORDER BY (SELECT COUNT(*) FROM orders o"
                + " WHERE o.user_id = u.user_id), u.user_id DESC LIMIT 4", "users", "user_id");
        c.write("UPDATE orders SET amount = amount + 1 WHERE user_id IN (SELECT user_id FROM users WHERE name IS NOT NULL)"
                + " ORDER BY (SELECT COUNT(*) FROM order_items i WHERE i.order_id = orders.order_id), order_id DESC LIMIT 2", "orders", "order_id");
        c.pwrite("UPDATE orders SET status = ? WHERE amount > ? ORDER BY (SELECT COUNT(*) FROM order_items i WHERE i.order_id = orders.order_id"
                + " AND i.quantity > ?) DESC, order_id LIMIT ?", "orders", "order_id", "p-sub", new BigDecimal("20"), 1, 3);
        c.write("DELETE FROM orders WHERE status = 'top-i' ORDER BY (SELECT COUNT(*) FROM users u WHERE u.user_id < orders.user_id), order_id"
                + " LIMIT 1", "orders", "order_id");
        c.write("UPDATE sbtest1 SET k = k + 1 ORDER BY (SELECT MAX(quantity) FROM order_items i WHERE i.quantity = sbtest1.id) DESC, id"
                + " LIMIT 5", "sbtest1", "id");
        c.write("UPDATE orders SET status = 'none' ORDER BY (SELECT MAX(price) FROM order_items), order_id LIMIT 0", "orders", "order_id");
        c.failingWrite("UPDATE orders SET status = 'x' ORDER BY (SELECT user_id FROM users), order_id LIMIT 1", "orders", "order_id");
        c.q("BEGIN");
        c.write("DELETE FROM order_items ORDER BY (SELECT amount FROM orders o WHERE o.order_id = order_items.order_id), item_id LIMIT 3",
                "order_items", "item_id");
        c.q("ROLLBACK");
        c.check("order_items", "item_id");
        // || under PIPES_AS_CONCAT in statements only the federated tier answers: MySQL's concatenation (NULL in, NULL out)
        c.category("sql-mode-federated");
        c.q("SET sql_mode = 'PIPES_AS_CONCAT'");
        c.q("SELECT o.order_id, o.status || '/' || u.name AS s FROM orders o JOIN users u ON u.user_id = o.amount ORDER BY o.order_id LIMIT 30");
        c.q("SELECT COUNT(*) FROM orders WHERE user_id IN (SELECT user_id FROM users WHERE name || '' LIKE 'A%')");
        c.q("SELECT order_id, status || amount AS s, ROW_NUMBER() OVER (ORDER BY order_id) AS n FROM orders WHERE user_id < 10 ORDER BY order_id");
        c.q("SELECT COUNT(*), COUNT(s) FROM (SELECT DISTINCT status || 'x' AS s FROM orders) t");
        c.p("SELECT COUNT(*) FROM orders WHERE user_id = ? || ? OR order_id IN (SELECT order_id FROM order_items WHERE quantity || '' = ?)", 1, 0, "2");
        c.write("UPDATE users SET name = name || '#' WHERE user_id IN (SELECT user_id FROM orders WHERE status || '' = 'new')", "users", "user_id");
        c.q("SET sql_mode = DEFAULT");
        // GROUP BY a bound constant WITH ROLLUP; DISTINCT over a join's star or a qualified star (the federated tier)
        c.category("rollup-constant-distinct-star");
        c.p("SELECT ? AS g, COUNT(*), SUM(amount) FROM orders GROUP BY g WITH ROLLUP", "x");
        c.p("SELECT ?, COUNT(*), MAX(order_id) FROM orders WHERE user_id > ? GROUP BY 1 WITH ROLLUP", 5, 3);
        c.q("SELECT DISTINCT * FROM orders o JOIN users u ON u.user_id = o.user_id WHERE o.user_id < 5 ORDER BY o.order_id");
        c.q("SELECT DISTINCT o.* FROM orders o JOIN order_items i ON i.order_id = o.order_id ORDER BY o.order_id LIMIT 10");
        c.q("SELECT DISTINCT u.* FROM users u JOIN orders o ON u.user_id = o.user_id WHERE o.amount > 100 ORDER BY u.user_id LIMIT 10");
        c.q("SELECT DISTINCT orders.* FROM orders WHERE user_id < 5 ORDER BY order_id");
        c.q("SELECT COUNT(*) FROM (SELECT DISTINCT o.status, c.* FROM orders o JOIN countries c ON c.code = o.status) t");
        return c.cases();
    }

    /**
     * The third tier: statements the fast path and the streaming merger refuse, answered by the
     * federated plan (the statement on one coordinator backend over temporary copies of the sharded
     * tables). Every shape of issue 13 it answers, with NULLs in NOT IN, collation-equal strings,
     * parameters and the client's transaction.
     */
    private static void federated(Corpus c) {
        c.category("federated-derived");
        c.q("SELECT COUNT(*) FROM (SELECT DISTINCT user_id FROM orders) t");
        c.q("SELECT COUNT(*) FROM (SELECT user_id FROM orders) t");
        c.ci("SELECT t.status, t.n FROM (SELECT status, COUNT(*) n FROM orders GROUP BY status) t ORDER BY t.n DESC, t.status");
        c.q("SELECT MAX(s), MIN(s) FROM (SELECT user_id, SUM(amount) s FROM orders GROUP BY user_id) x");
        c.q("SELECT AVG(cnt) FROM (SELECT user_id, COUNT(*) cnt FROM orders GROUP BY user_id) x");
        c.q("SELECT * FROM (SELECT order_id, amount FROM orders ORDER BY amount DESC, order_id LIMIT 5) t ORDER BY order_id");
        c.q("SELECT x.user_id, x.n FROM (SELECT user_id, COUNT(*) n FROM order_items GROUP BY user_id) x WHERE x.n > 3 ORDER BY x.user_id");
        c.q("SELECT COUNT(*), SUM(q) FROM (SELECT order_id, SUM(quantity) q FROM order_items GROUP BY order_id) per_order");

        c.category("federated-in");
        c.q("SELECT * FROM orders WHERE user_id IN (SELECT user_id FROM users WHERE name = 'bob')");
        c.q("SELECT order_id FROM orders WHERE user_id IN (SELECT user_id FROM users WHERE country_code = 'de') ORDER BY order_id");
        c.q("SELECT COUNT(*) FROM users WHERE user_id NOT IN (SELECT user_id FROM orders)");
        c.q("SELECT COUNT(*) FROM users WHERE name NOT IN (SELECT name FROM users WHERE user_id < 20)");
        c.q("SELECT COUNT(*) FROM users WHERE name IN (SELECT name FROM users WHERE user_id < 20)");
        c.q("SELECT COUNT(*) FROM orders WHERE user_id NOT IN (SELECT user_id FROM users WHERE name IS NOT NULL)");
        c.q("SELECT COUNT(*) FROM orders o WHERE o.order_id IN (SELECT i.order_id FROM order_items i WHERE i.quantity > 4)");
        c.p("SELECT COUNT(*) FROM orders WHERE user_id IN (SELECT user_id FROM users WHERE user_id < ?)", 50L);
        // a Calcite federation pushed this down as CAST(amount AS DECIMAL(3,2)) = 9.99, matching every amount >= 9.99
        c.q("SELECT COUNT(*) FROM orders WHERE amount = 9.99 AND user_id IN (SELECT user_id FROM users)");
        c.p("SELECT order_id FROM orders WHERE amount > ? AND user_id IN (SELECT user_id FROM users WHERE name = ?) ORDER BY order_id",
                new java.math.BigDecimal("100.00"), "alice");

        c.category("federated-exists");
        c.q("SELECT COUNT(*) FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE o.order_id = u.user_id)");
        c.q("SELECT COUNT(*) FROM users u WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = u.user_id)");
        c.q("SELECT COUNT(*) FROM orders WHERE EXISTS (SELECT 1 FROM users WHERE name = 'nobody-has-this-name')");

        c.q("SELECT COUNT(*) FROM users u WHERE u.country_code IN (SELECT code FROM countries) AND u.user_id IN (SELECT user_id FROM orders)");

        c.category("federated-scalar");
        c.q("SELECT order_id FROM orders WHERE amount > (SELECT AVG(amount) * 1.9 FROM orders) ORDER BY order_id");
        c.q("SELECT (SELECT MAX(amount) FROM orders) - (SELECT MIN(amount) FROM orders)");
        c.q("SELECT u.user_id, (SELECT COUNT(*) FROM orders o WHERE o.order_id = u.user_id) AS n FROM users u ORDER BY u.user_id LIMIT 20");
        c.q("SELECT status FROM orders GROUP BY status HAVING COUNT(*) > (SELECT COUNT(*) / 10 FROM orders) ORDER BY status");

        c.q("SELECT o.user_id, COUNT(*) FROM orders o GROUP BY o.user_id HAVING COUNT(*) > (SELECT AVG(n) FROM"
                + " (SELECT COUNT(*) n FROM orders GROUP BY user_id) per_user) ORDER BY o.user_id");
        c.fails("SELECT order_id FROM orders WHERE amount = (SELECT amount FROM orders WHERE user_id < 100)");

        c.category("federated-union");
        c.q("SELECT user_id FROM orders UNION SELECT user_id FROM users");
        c.q("SELECT user_id FROM orders UNION ALL SELECT user_id FROM users");
        c.q("SELECT user_id FROM orders WHERE user_id < 10 UNION SELECT user_id FROM users WHERE user_id < 10 ORDER BY user_id DESC LIMIT 5");
        c.ci("SELECT name FROM users UNION SELECT name FROM countries");
        c.q("SELECT order_id AS id FROM orders WHERE user_id = 3 UNION ALL SELECT id FROM sbtest1 WHERE id < 5 ORDER BY id");

        c.q("SELECT user_id FROM orders WHERE user_id < 20 INTERSECT SELECT user_id FROM users WHERE user_id > 5");
        c.q("SELECT user_id FROM users EXCEPT SELECT user_id FROM orders");
        c.q("(SELECT order_id FROM orders WHERE user_id < 10 ORDER BY order_id DESC LIMIT 3) UNION ALL"
                + " (SELECT item_id FROM order_items ORDER BY item_id LIMIT 2) ORDER BY 1");

        c.category("federated-join");
        c.q("SELECT o.order_id FROM orders o JOIN sbtest1 s ON o.order_id = s.id");
        c.q("SELECT o.order_id FROM orders o JOIN events e ON e.id = o.order_id");
        c.q("SELECT COUNT(*) FROM orders o JOIN order_items i ON o.order_id = i.order_id");
        c.q("SELECT o.user_id, COUNT(*), SUM(i.price * i.quantity) FROM orders o JOIN order_items i ON o.order_id = i.order_id"
                + " GROUP BY o.user_id ORDER BY o.user_id LIMIT 15");
        c.q("SELECT COUNT(*) FROM users u LEFT JOIN orders o ON o.order_id = u.user_id WHERE o.order_id IS NULL");
        c.q("SELECT p.code, COUNT(*) FROM orders o JOIN promotions p ON o.amount > p.discount * 100 GROUP BY p.code ORDER BY p.code");

        c.q("SELECT u.user_id, o.cnt FROM users u JOIN (SELECT user_id, COUNT(*) cnt FROM orders GROUP BY user_id) o"
                + " ON o.user_id = u.user_id WHERE u.user_id < 30 ORDER BY u.user_id");
        c.q("SELECT COUNT(*) FROM order_items i JOIN sbtest1 s ON s.k = i.quantity JOIN small m ON m.id = s.id % 5");

        // the join-key reduction (federate.JoinKeys): a narrowed table's keys in IN batches to the other's scans
        c.category("federated-join-keys");
        c.q("SELECT o.order_id, i.item_id, i.sku FROM orders o JOIN order_items i ON i.order_id = o.order_id"
                + " WHERE o.user_id = 7 AND o.amount > 10 ORDER BY i.item_id");
        c.q("SELECT i.item_id FROM order_items i WHERE i.order_id IN (SELECT o.order_id FROM orders o WHERE o.user_id = 7) ORDER BY 1");
        c.q("SELECT o.order_id FROM orders o WHERE o.user_id = 7 AND NOT EXISTS (SELECT 1 FROM order_items i"
                + " WHERE i.order_id = o.order_id AND i.quantity > 2) ORDER BY 1");
        c.q("SELECT o.order_id, (SELECT SUM(i.quantity) FROM order_items i WHERE i.order_id = o.order_id) q FROM orders o"
                + " WHERE o.user_id = 7 ORDER BY 1");
        c.q("SELECT o.order_id, i.item_id FROM orders o LEFT JOIN order_items i ON i.order_id = o.order_id AND i.quantity > 3"
                + " WHERE o.user_id = 7 ORDER BY 1, 2");
        c.q("SELECT COUNT(*), COUNT(o.order_id) FROM order_items i LEFT JOIN orders o ON o.order_id = i.order_id AND o.user_id = 7");
        c.q("SELECT s.id, o.order_id FROM small s JOIN orders o ON o.user_id = s.id WHERE s.id < 6 ORDER BY 2");
        c.q("SELECT item_id, status FROM orders o JOIN order_items i ON item_id = o.order_id WHERE status = 'paid' AND o.user_id < 30"
                + " ORDER BY 1");
        c.q("SELECT COUNT(*) FROM order_items i WHERE i.order_id NOT IN (SELECT o.order_id FROM orders o WHERE o.user_id = 7)");
        c.q("SELECT COUNT(*) FROM order_items i WHERE i.quantity > 4 OR i.order_id IN (SELECT o.order_id FROM orders o WHERE o.user_id = 7)");

        c.category("federated-window");
        c.q("SELECT order_id, ROW_NUMBER() OVER (ORDER BY order_id) FROM orders");
        c.q("SELECT user_id, order_id, RANK() OVER (PARTITION BY user_id ORDER BY amount DESC, order_id) r FROM orders WHERE user_id < 10");
        c.q("SELECT order_id, SUM(amount) OVER (ORDER BY order_id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) s FROM orders"
                + " WHERE user_id < 30");
        c.q("SELECT order_id, LAG(amount) OVER (ORDER BY order_id) prev_amount, LEAD(order_id, 2) OVER (ORDER BY order_id) nxt FROM orders"
                + " WHERE user_id BETWEEN 5 AND 40");
        c.q("SELECT user_id, DENSE_RANK() OVER (ORDER BY cnt DESC) d FROM (SELECT user_id, COUNT(*) cnt FROM orders GROUP BY user_id) t");

        c.q("SELECT user_id, NTILE(4) OVER (ORDER BY user_id) q, FIRST_VALUE(user_id) OVER (ORDER BY user_id DESC) f FROM users");
        c.q("SELECT status, AVG(amount) OVER (PARTITION BY user_id) a, order_id FROM orders WHERE user_id BETWEEN 1 AND 12");

        c.category("federated-cte");
        c.q("WITH t AS (SELECT user_id, COUNT(*) n FROM orders GROUP BY user_id) SELECT MAX(n), COUNT(*) FROM t");
        c.q("WITH big AS (SELECT order_id FROM orders WHERE amount > 900) SELECT COUNT(*) FROM order_items i JOIN big b"
                + " ON b.order_id = i.order_id");
        c.q("WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5)"
                + " SELECT r.n, (SELECT COUNT(*) FROM orders WHERE user_id = r.n) c FROM r ORDER BY r.n");

        c.category("federated-aggregates");
        c.q("SELECT CONCAT(COUNT(*), 'x') FROM orders");
        c.q("SELECT ROUND(AVG(amount), 1) FROM orders");
        c.q("SELECT status, GROUP_CONCAT(order_id ORDER BY order_id) g FROM orders WHERE user_id < 20 GROUP BY status ORDER BY g");
        c.q("SELECT COUNT(*) FROM orders WHERE user_id < 50 HAVING STDDEV_POP(user_id) > 1");
        c.q("SELECT STDDEV(amount), VAR_SAMP(amount) FROM orders");
        c.q("SELECT user_id, VARIANCE(amount) FROM orders WHERE user_id < 30 GROUP BY user_id");
        c.q("SELECT DISTINCT o.* FROM orders o WHERE o.user_id < 8");
        c.q("SELECT (SELECT COUNT(*) FROM sbtest1 WHERE sbtest1.k < 100), sbtest1.k + 1 FROM sbtest1 WHERE id < 3");

        // events lives on ds0 only, promotions on ds1: the coordinator (ds1, promotions' backend) gets a copy of
        // events made from the definition of one of its nodes (SHOW CREATE TABLE on ds0)
        c.category("federated-spread");
        c.q("SELECT e.id FROM events e JOIN promotions p ON p.id = e.id");
        c.q("SELECT p.code, COUNT(e.id) FROM promotions p LEFT JOIN events e ON e.id % 10 = p.id GROUP BY p.code ORDER BY p.code");
        c.q("SELECT COUNT(*), COUNT(DISTINCT kind) FROM events WHERE id IN (SELECT id * 7 FROM promotions)");
        c.q("SELECT p.id, e.created_at, ROW_NUMBER() OVER (ORDER BY e.created_at DESC, e.id) rn FROM promotions p"
                + " JOIN events e ON e.id = p.id * 3");
        c.p("SELECT e.id, p.code FROM events e JOIN promotions p ON p.id = e.id WHERE e.id < ? ORDER BY e.id", 5L);
        c.q("SELECT p.code FROM promotions p WHERE EXISTS (SELECT 1 FROM events e WHERE e.id = p.id AND e.created_at >= '2025-01-01')"
                + " ORDER BY p.code");
        // a result far larger than the copies: it streams from the coordinator
        c.q("SELECT o.order_id, o.user_id, i.item_id, i.sku, i.quantity FROM orders o JOIN order_items i ON i.order_id = o.order_id");
        // one engine serves one logical schema; another schema is the default backend's, as the first tiers read it
        c.fails("SELECT COUNT(*) FROM orders WHERE user_id IN (SELECT user_id FROM no_such_schema_13.users)");

        c.category("federated-transaction");
        c.q("BEGIN");
        c.q("SELECT COUNT(*) FROM (SELECT DISTINCT user_id FROM orders) t");
        c.q("SELECT COUNT(*) FROM users WHERE user_id IN (SELECT user_id FROM orders WHERE amount > 500)");
        c.q("SELECT * FROM orders WHERE user_id IN (SELECT user_id FROM users WHERE name = 'bob') FOR UPDATE");
        c.q("SELECT u.name, COUNT(*) FROM users u JOIN orders o ON o.amount > u.user_id WHERE u.user_id < 5 GROUP BY u.name"
                + " ORDER BY u.name LOCK IN SHARE MODE");
        c.q("COMMIT");

        // what the copies' scans may leave out (columns, rows, whole nodes) and what they must not
        c.category("federated-pushdown");
        c.q("SELECT o.order_id, i.sku FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE o.user_id = 7 AND o.amount > 10"
                + " ORDER BY o.order_id, i.sku, i.item_id");
        c.q("SELECT o.order_id, i.quantity FROM orders o JOIN order_items i ON i.order_id = o.order_id AND i.quantity > 2"
                + " WHERE o.user_id IN (3, 8, 11) ORDER BY o.order_id, i.quantity, i.item_id");
        c.p("SELECT o.order_id, i.sku FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE o.user_id = ? AND i.price > ?"
                + " ORDER BY o.order_id, i.sku, i.item_id", 9L, new java.math.BigDecimal("5.00"));
        c.q("SELECT status, sku FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE amount > 500 AND quantity > 3"
                + " ORDER BY status, sku, i.item_id");
        c.fails("SELECT COUNT(*) FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE user_id = 3");
        c.q("SELECT u.user_id, o.order_id FROM users u LEFT JOIN orders o ON o.status = u.name WHERE o.amount IS NULL AND u.user_id < 20"
                + " ORDER BY u.user_id");
        c.q("SELECT u.user_id FROM orders o RIGHT JOIN users u ON o.order_id = u.user_id WHERE o.order_id IS NULL"
                + " AND u.user_id BETWEEN 3 AND 40 ORDER BY u.user_id");
        c.q("SELECT u.user_id, COUNT(o.order_id) FROM users u LEFT JOIN orders o ON o.order_id = u.user_id AND o.amount > 100"
                + " WHERE u.user_id < 50 GROUP BY u.user_id ORDER BY u.user_id");
        c.q("SELECT a.order_id, b.order_id FROM orders a JOIN orders b ON a.status = b.status AND a.order_id < b.order_id"
                + " WHERE a.amount > 900 AND b.user_id = 3 ORDER BY 1, 2");
        c.q("SELECT o.order_id FROM orders o JOIN order_items i ON i.order_id = o.order_id"
                + " WHERE o.user_id IN (SELECT user_id FROM users WHERE name = 'bob') AND i.quantity > 1 ORDER BY o.order_id");
        c.q("SELECT COUNT(*) FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE o.amount > RAND() * 0"
                + " AND o.created_at < NOW()");
        c.q("SELECT o.*, i.sku FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE o.user_id = 4 ORDER BY o.order_id, i.sku, i.item_id");
        c.q("SELECT COUNT(*) FROM users u WHERE EXISTS (SELECT * FROM orders o WHERE o.order_id = u.user_id AND o.amount > 50)");
        c.q("SELECT COUNT(*), SUM(quantity) FROM orders JOIN order_items USING (order_id) WHERE amount > 200");
        c.q("SELECT COUNT(*) FROM orders o JOIN order_items i ON i.order_id = o.order_id"
                + " WHERE o.created_at >= DATE('2025-03-01') - INTERVAL 30 DAY");
        c.q("SELECT o.order_id FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE o.status = 'PAID' ORDER BY o.order_id, i.item_id");
        c.q("SELECT COUNT(*) FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE o.user_id BETWEEN 10 AND 12");
        c.q("SELECT COUNT(*) FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE o.user_id IS NULL");
        c.q("SELECT COUNT(*) FROM events e JOIN orders o ON o.order_id = e.id WHERE e.created_at >= '2026-01-01'");
        c.q("SELECT order_id, ROW_NUMBER() OVER (ORDER BY order_id) FROM orders WHERE user_id < 30 AND amount > 100");
        c.q("SELECT o.user_id, LENGTH(o.status), UPPER(u.name) FROM orders o JOIN users u ON u.user_id = o.user_id + 0"
                + " WHERE (o.user_id) = 5 AND ((u.name) LIKE 'a%' OR u.name IS NULL) ORDER BY 1, 2, 3");
        // an OR of terms on several tables gives each table the OR of its own parts (TPC-H Q19), NULLs in
        // either; a table read twice under one name takes the OR of each reference's conjuncts (Q17, Q22)
        // a subquery grouped by (or filtering) the sharding key of a table bound with the copied one, and EXISTS /
        // NOT EXISTS correlated on it, answered by each node for its own keys (TPC-H Q18, Q21); NULLs in what they
        // compare, NOT IN / NOT EXISTS, and tables that are not co-located (sbtest1, promotions), which must not be
        c.category("federated-node-keys");
        c.q("SELECT u.user_id, o.order_id, o.amount FROM users u JOIN orders o ON u.user_id = o.user_id JOIN promotions p ON p.id = o.order_id % 5"
                + " WHERE o.user_id IN (SELECT user_id FROM order_items GROUP BY user_id HAVING SUM(quantity) > 6) ORDER BY 1, 2, 3");
        c.q("SELECT o.user_id, COUNT(*), SUM(i.quantity) FROM orders o, order_items i, promotions p WHERE o.user_id = i.user_id AND p.id = i.item_id % 4"
                + " AND o.user_id IN (SELECT user_id FROM orders GROUP BY user_id HAVING COUNT(amount) >= 2) GROUP BY o.user_id ORDER BY 1");
        c.q("SELECT o.order_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE o.user_id IN (SELECT i.user_id FROM order_items i"
                + " GROUP BY i.user_id, i.sku HAVING MAX(i.price) > 20) ORDER BY 1");
        c.q("SELECT o.order_id, o.status FROM orders o JOIN users u ON u.user_id = o.order_id WHERE o.user_id IN (SELECT user_id FROM orders"
                + " WHERE amount IS NULL OR status IS NULL) ORDER BY 1");
        c.q("SELECT COUNT(*) FROM orders o JOIN promotions p ON p.id = o.order_id % 3 WHERE o.user_id IN (SELECT DISTINCT o2.user_id FROM orders o2"
                + " WHERE o2.amount > 100)");
        c.q("SELECT o.order_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE o.user_id NOT IN (SELECT user_id FROM order_items"
                + " GROUP BY user_id HAVING SUM(quantity) > 6) ORDER BY 1");
        c.q("SELECT u.user_id FROM users u JOIN promotions p ON p.id = u.user_id % 4 WHERE u.name IS NULL OR u.user_id IN (SELECT user_id FROM orders"
                + " GROUP BY user_id HAVING AVG(amount) > 200) ORDER BY 1");
        c.q("SELECT o.order_id, (SELECT COUNT(*) FROM orders x WHERE x.user_id IN (SELECT user_id FROM orders GROUP BY user_id HAVING SUM(amount) IS NULL))"
                + " AS n FROM orders o JOIN users u ON u.user_id = o.order_id ORDER BY 1");
        c.q("SELECT COUNT(*), SUM(i.price) FROM order_items i, orders o, promotions p WHERE o.user_id = i.user_id AND p.id = i.item_id % 6"
                + " AND EXISTS (SELECT * FROM order_items i2 WHERE i2.user_id = i.user_id AND i2.sku <> i.sku)"
                + " AND NOT EXISTS (SELECT * FROM order_items i3 WHERE i3.user_id = i.user_id AND i3.sku <> i.sku AND i3.quantity > 3)");
        c.q("SELECT o.order_id, o.amount FROM orders o JOIN users u ON u.user_id = o.order_id WHERE o.amount > 10 AND EXISTS (SELECT 1 FROM order_items i"
                + " WHERE i.user_id = o.user_id AND i.order_id = o.order_id) ORDER BY 1");
        c.q("SELECT o.order_id, o.status FROM orders o JOIN users u ON u.user_id = o.order_id WHERE NOT EXISTS (SELECT 1 FROM orders o2"
                + " WHERE o2.user_id = o.user_id AND o2.order_id <> o.order_id AND o2.amount IS NULL) ORDER BY 1");
        c.q("SELECT o.order_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE EXISTS (SELECT COUNT(*) FROM order_items i"
                + " WHERE i.user_id = o.user_id HAVING COUNT(*) > 2) AND NOT EXISTS (SELECT 1 FROM users w WHERE w.user_id = o.user_id"
                + " AND w.name IS NULL) ORDER BY 1");
        c.q("SELECT o.order_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE NOT EXISTS (SELECT 1 FROM order_items i"
                + " WHERE i.user_id = o.user_id AND i.price > o.amount) ORDER BY 1");
        // not co-located: the subquery's table is sharded on its own (sbtest1) or a single table, or grouped by another column
        c.q("SELECT o.order_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE o.user_id IN (SELECT s.id FROM sbtest1 s GROUP BY s.id"
                + " HAVING COUNT(*) > 0) ORDER BY 1");
        c.q("SELECT o.order_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE o.user_id IN (SELECT p.id FROM promotions p) ORDER BY 1");
        c.q("SELECT o.order_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE o.user_id IN (SELECT i.quantity FROM order_items i"
                + " GROUP BY i.quantity HAVING COUNT(*) > 1) ORDER BY 1");
        c.q("SELECT o.order_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE EXISTS (SELECT 1 FROM sbtest1 s WHERE s.id = o.user_id"
                + " AND s.k > 0) AND NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id AND i.quantity > 4) ORDER BY 1");
        c.q("SELECT o.order_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE o.user_id IN (SELECT t.user_id FROM (SELECT user_id"
                + " FROM order_items GROUP BY user_id ORDER BY SUM(quantity) DESC, user_id LIMIT 2) t) ORDER BY 1");
        c.p("SELECT o.order_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE o.user_id IN (SELECT user_id FROM order_items"
                + " GROUP BY user_id HAVING SUM(quantity) > ?) AND EXISTS (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id AND i.price < ?)"
                + " ORDER BY 1", 3, new java.math.BigDecimal("50.00"));
        c.category("federated-pushdown-or");
        c.q("SELECT o.order_id, u.user_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE (o.status = 'paid' AND u.name IS NULL)"
                + " OR (o.amount IS NULL AND u.country_code = 'DE') OR (o.status IS NULL AND u.name LIKE 'a%') ORDER BY 1, 2");
        c.q("SELECT COUNT(*) FROM orders o JOIN users u ON u.user_id = o.order_id WHERE (o.amount > 100 AND u.country_code <> 'DE')"
                + " OR (o.status <> 'paid' AND u.name IS NOT NULL)");
        c.q("SELECT COUNT(*) FROM orders o JOIN users u ON u.user_id = o.order_id WHERE NOT ((o.amount > 100 AND u.country_code = 'DE')"
                + " OR (o.status = 'paid' AND u.name IS NULL))");
        c.q("SELECT o.order_id, i.item_id FROM orders o JOIN order_items i ON i.order_id = o.order_id AND (o.amount > 500 AND i.quantity > 3"
                + " OR o.status IS NULL AND i.quantity < 2) ORDER BY 1, 2");
        c.q("SELECT u.user_id, o.order_id FROM users u LEFT JOIN orders o ON o.status = u.name AND (o.amount > 100 OR u.user_id < 5"
                + " AND o.amount IS NULL) WHERE u.user_id < 40 ORDER BY 1, 2");
        c.p("SELECT o.order_id, u.user_id FROM orders o JOIN users u ON u.user_id = o.order_id WHERE (o.amount > ? AND u.name = ?)"
                + " OR (o.status = ? AND u.name IS NULL) ORDER BY 1, 2", new java.math.BigDecimal("50.00"), "alice", "paid");
        c.q("SELECT SUM(i.price * i.quantity) FROM order_items i JOIN orders o ON o.order_id = i.order_id WHERE"
                + " (o.status IN ('paid', 'new') AND i.quantity BETWEEN 1 AND 2 AND o.amount <= 100 + 100 AND i.sku LIKE 'A%')"
                + " OR (o.status = 'shipped' AND i.quantity >= 3 AND i.quantity <= 3 + 2 AND (o.amount IS NULL OR o.amount > 700))");
        c.q("SELECT order_id, amount FROM orders WHERE status = 'paid' AND amount > (SELECT AVG(amount) FROM orders"
                + " WHERE status IS NOT NULL AND user_id < 20) ORDER BY 1");
        c.q("SELECT COUNT(*) FROM orders WHERE amount IS NULL OR order_id IN (SELECT order_id FROM orders WHERE status IS NULL)");
        c.q("SELECT SUM(i.price) FROM order_items i JOIN orders o ON o.order_id = i.order_id WHERE o.status = 'paid'"
                + " AND i.quantity < (SELECT AVG(i.quantity) FROM order_items i WHERE i.order_id = o.order_id)");
        c.q("SELECT cc, COUNT(*), SUM(amount) FROM (SELECT LEFT(status, 1) cc, amount FROM orders WHERE LEFT(status, 1) IN ('p', 'n')"
                + " AND amount > (SELECT AVG(amount) FROM orders WHERE amount > 0 AND LEFT(status, 1) IN ('p', 'n'))"
                + " AND NOT EXISTS (SELECT * FROM order_items WHERE order_items.order_id = orders.order_id)) t GROUP BY cc ORDER BY cc");
        c.q("SELECT o.order_id FROM orders o WHERE o.amount IS NULL UNION ALL SELECT o.order_id FROM orders o WHERE o.status IS NULL ORDER BY 1");
        c.q("SELECT u.user_id, o.order_id FROM users u LEFT JOIN orders o ON o.order_id = u.user_id AND o.amount > 100 WHERE u.user_id < 30"
                + " AND u.user_id NOT IN (SELECT o.user_id FROM orders o WHERE o.status IS NULL) ORDER BY 1, 2");
        c.q("SELECT o.order_id FROM orders o WHERE o.status IS NULL AND EXISTS (SELECT 1 FROM orders p WHERE p.order_id = o.user_id"
                + " AND p.amount IS NULL) ORDER BY 1");
        // pushdown meets the other two: a copy made from another backend's definition (events, on the
        // coordinator ds1 of promotions) takes qualified conjuncts only; a locking read repeats its clause after
        // the pushed WHERE of each scan and local copy
        c.category("federated-pushdown-spread");
        c.q("SELECT e.id, p.code FROM events e JOIN promotions p ON p.id = e.id WHERE e.created_at >= '2025-06-01' AND kind IS NOT NULL"
                + " ORDER BY e.id");
        c.q("SELECT COUNT(*) FROM events e JOIN promotions p ON p.id = e.id % 10 WHERE e.id BETWEEN 3 AND 60 AND discount > 0");
        c.q("BEGIN");
        c.q("SELECT o.order_id, i.sku FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE o.user_id = 7 AND i.quantity > 1"
                + " ORDER BY o.order_id, i.sku, i.item_id FOR UPDATE");
        c.q("SELECT e.id, p.code FROM events e JOIN promotions p ON p.id = e.id WHERE e.id < 40 ORDER BY e.id LOCK IN SHARE MODE");
        c.q("COMMIT");

        c.category("federated-locking-autocommit");
        c.q("SELECT COUNT(*) FROM orders WHERE user_id IN (SELECT user_id FROM users WHERE name LIKE 'a%') FOR UPDATE");

        // a set operation's (a WITH's) labels come from its first branch: an item naming sbtest1, whose copy
        // is renamed (its nodes bear its name), keeps the user's text as its label
        c.category("federated-labels");
        c.q("SELECT (SELECT COUNT(*) FROM sbtest1 WHERE sbtest1.k < 500) UNION SELECT id FROM sbtest1 WHERE id < 3");
        c.q("(SELECT (SELECT MAX(id) FROM sbtest1), 'x') UNION ALL (SELECT 1, 'y') ORDER BY 2");
        c.q("WITH w AS (SELECT k FROM sbtest1 WHERE id < 4) SELECT (SELECT COUNT(*) FROM sbtest1), k + 0 FROM w");
        // a locking clause naming its tables: MariaDB cannot parse it (1064), in or out of a transaction
        c.category("federated-locking-named");
        c.fails("SELECT o.order_id FROM orders o WHERE o.user_id IN (SELECT user_id FROM users) FOR UPDATE OF o");
        c.q("BEGIN");
        c.fails("SELECT o.order_id FROM orders o WHERE o.user_id IN (SELECT user_id FROM users) FOR SHARE OF o NOWAIT");
        c.q("COMMIT");
    }

    /** Statements Shardwise refuses by design with 1235; they are not oracle statements. */
    static final List<String> UNSUPPORTED = List.of(
            // an unqualified SET column only a derived table has: MySQL writes through it or refuses it (1288) as its optimizer merges it or not
            "UPDATE sbtest1 s JOIN (SELECT quantity, price FROM order_items) d ON d.quantity = s.id SET price = 1");
}
