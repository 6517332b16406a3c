"""PyMySQL against one MySQL-protocol endpoint, printing what it saw in a canonical text form.

Run once through Shardwise and once against the unsharded copy of the same data; the outputs must
be identical (ClientCompatibilityIT compares them). Usage: pymysql_client.py HOST PORT USER PASSWORD DB
Every statement's rows are printed in a deterministic order (ORDER BY, or sorted here).
"""
import sys

import pymysql
import pymysql.cursors

HSCALE = ("SELECT id, category FROM small WHERE small.category='books' "
          "/* Added */ /* some */ /* comments */")


def show(label, cursor, rows=None, ordered=True):
    rows = list(cursor.fetchall() if rows is None else rows)
    if not ordered:
        rows = sorted(rows, key=repr)
    names = [d[0] for d in cursor.description] if cursor.description else []
    print("## %s" % label)
    print("columns: %s" % names)
    for row in rows:
        print(repr(row))
    print("rowcount: %d" % len(rows))


def main():
    host, port, user, password, db = sys.argv[1:6]
    conn = pymysql.connect(host=host, port=int(port), user=user, password=password, database=db,
                           charset="utf8mb4", autocommit=False)
    try:
        with conn.cursor() as c:
            c.execute("SELECT COUNT(*), SUM(amount), MIN(created_at), MAX(status) FROM orders")
            show("aggregates", c)
            c.execute("SELECT order_id, user_id, status, amount, created_at FROM orders WHERE user_id = %s "
                      "ORDER BY order_id", (7,))
            show("point select with a client-side parameter", c)
            c.execute("SELECT user_id, COUNT(*) AS n, SUM(amount) AS total FROM orders WHERE user_id IN %s "
                      "GROUP BY user_id ORDER BY user_id", ((1, 2, 3, 4, 5, 6, 7, 8),))
            show("IN list and GROUP BY", c)
            c.execute(HSCALE)
            show("the HSCALE query (no ORDER BY: compared sorted)", c, ordered=False)
            c.execute("SELECT order_id, amount FROM orders ORDER BY amount DESC, order_id LIMIT 5 OFFSET 3")
            show("scatter ORDER BY with LIMIT/OFFSET", c)

            c.execute("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES "
                      "(%s, %s, %s, %s, %s)", (900001, 11, "new", "12.50", "2026-01-02 03:04:05"))
            print("## insert: affected %d" % c.rowcount)
            conn.rollback()
            c.execute("SELECT COUNT(*) FROM orders WHERE order_id = 900001")
            show("after rollback", c)
            c.executemany("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES "
                          "(%s, %s, %s, %s, %s)",
                          [(900001 + i, 20 + i, "bulk", "1.00", "2026-02-03 04:05:06") for i in range(6)])
            print("## executemany: affected %d" % c.rowcount)
            conn.commit()
            c.execute("SELECT order_id, user_id, status FROM orders WHERE order_id BETWEEN 900001 AND 900006 "
                      "ORDER BY order_id")
            show("after commit", c)
            c.execute("UPDATE orders SET status = 'done' WHERE order_id BETWEEN 900001 AND 900006 AND user_id < 23")
            print("## update: affected %d" % c.rowcount)
            c.execute("DELETE FROM orders WHERE order_id BETWEEN 900001 AND 900006")
            print("## delete: affected %d" % c.rowcount)
            conn.commit()

            c.execute("SHOW WARNINGS")
            show("SHOW WARNINGS", c)
            c.execute("SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES "
                      "WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME")
            show("information_schema.TABLES", c)
            c.execute("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, COLUMN_KEY FROM information_schema.COLUMNS "
                      "WHERE TABLE_SCHEMA = %s AND TABLE_NAME = %s ORDER BY ORDINAL_POSITION", (db, "orders"))
            show("information_schema.COLUMNS", c)
            try:
                c.execute("SELECT * FROM no_such_table")
                print("## missing table: no error")
            except pymysql.MySQLError as e:
                print("## missing table: error %d" % e.args[0])
        with conn.cursor(pymysql.cursors.DictCursor) as c:
            c.execute("SELECT code, name FROM countries ORDER BY code LIMIT 3")
            print("## DictCursor")
            for row in c.fetchall():
                print(sorted(row.items()))
        with conn.cursor(pymysql.cursors.SSCursor) as c:
            c.execute("SELECT order_id, user_id FROM orders ORDER BY order_id")
            n = 0
            checksum = 0
            for order_id, user_id in c:
                n += 1
                checksum = (checksum * 31 + order_id * 7 + user_id) % 1000000007
            print("## SSCursor (unbuffered) over all orders: %d rows, checksum %d" % (n, checksum))
        # the server's identity: the handshake's version, and what the variables say (issue 14, item 8)
        print("## server info: %s" % conn.get_server_info())
        with conn.cursor() as c:
            c.execute("SELECT VERSION(), @@version, @@version_comment")
            show("version variables", c)
            # executable comments run as the server runs them; a statement that is only one too (item 12)
            c.execute("/*!40101 SET NAMES utf8mb4 */")
            c.execute("/*!99999 SELECT 1 */")
            print("## skipped executable comment: rowcount %d" % c.rowcount)
            c.execute("SELECT COUNT(*) /*!40101 , 2 */ /*!50700 , 3 */ /*M!100000 , 4 */ FROM orders")
            show("versioned executable comments", c)
    finally:
        conn.close()


if __name__ == "__main__":
    main()
