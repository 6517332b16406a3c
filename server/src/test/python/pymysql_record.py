"""What PyMySQL sends, for the fuzz corpus (ProtocolFuzzTest records it through a relay).

Usage: pymysql_record.py PORT USER PASSWORD.
"""
import sys

import pymysql

c = pymysql.connect(host="127.0.0.1", port=int(sys.argv[1]), user=sys.argv[2], password=sys.argv[3], database="shop")
c.select_db("shop")  # COM_INIT_DB
c.ping(reconnect=False)  # COM_PING
with c.cursor() as cur:
    cur.execute("SELECT order_id, status FROM orders WHERE user_id = %s ORDER BY order_id", (3,))
    cur.fetchall()
    cur.execute("SELECT COUNT(*), SUM(amount) FROM orders")
    cur.fetchall()
    cur.execute("SHOW TABLES")
    cur.fetchall()
c.close()
