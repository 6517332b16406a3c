"""PyMySQL: escaping under NO_BACKSLASH_ESCAPES and statements that are bytes, printed canonically.

Run once through Shardwise and once against one backend; the outputs must be identical
(EscapingAndBytesIT compares them). Usage: pymysql_safety.py HOST PORT USER PASSWORD DB
Every SELECT runs twice: through Shardwise's packet relay the second run of a cached plan is relayed.
"""
import sys

import pymysql

INJECTION = "é' OR 1=1 -- \\"
RAW = b"\x00\xff\x80"


def twice(c, label, sql, args=None):
    for run in (1, 2):
        c.execute(sql, args)  # bytes go out as they are
        print("## %s (run %d): %r" % (label, run, list(c.fetchall())))


def status(conn, label):
    print("## %s: NO_BACKSLASH_ESCAPES flag %s" % (label, bool(conn.server_status & 0x0200)))


def main():
    host, port, user, password, db = sys.argv[1:6]
    conn = pymysql.connect(host=host, port=int(port), user=user, password=password, database=db,
                           charset="utf8mb4", autocommit=True)
    with conn.cursor() as c:
        c.execute("DROP TABLE IF EXISTS safety_bytes")
        c.execute("CREATE TABLE safety_bytes (id INT PRIMARY KEY, v VARBINARY(64), s VARCHAR(64)) "
                  "DEFAULT CHARSET utf8mb4")
        status(conn, "default mode")
        c.execute("SET sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')")
        status(conn, "after SET")
        c.execute("SELECT @@sql_mode LIKE '%NO_BACKSLASH_ESCAPES%', @@SESSION.sql_mode LIKE '%NO_BACKSLASH%'")
        print("## @@sql_mode: %r" % (c.fetchall(),))
        # PyMySQL escapes by the status flag: doubled quotes here, or the value would become SQL
        c.execute("INSERT INTO safety_bytes (id, v, s) VALUES (%s, %s, %s)", (1, INJECTION.encode("utf-8"), INJECTION))
        print("## injection insert: %d" % c.rowcount)
        twice(c, "injection read back", "SELECT id, s, HEX(v) FROM safety_bytes WHERE s = %s ORDER BY id", (INJECTION,))
        twice(c, "a backslash is an ordinary character", "SELECT id, 'a\\b', LENGTH('\\\\') FROM safety_bytes WHERE id = 1")
        c.execute("INSERT INTO safety_bytes (id, v, s) VALUES (%s, %s, %s)", (2, RAW, "two"))
        twice(c, "bytes parameter under NO_BACKSLASH_ESCAPES", "SELECT id, HEX(v) FROM safety_bytes WHERE id = 2")
        c.execute("SET sql_mode = DEFAULT")
        status(conn, "after SET DEFAULT")
        c.execute("INSERT INTO safety_bytes (id, v, s) VALUES (%s, %s, %s)", (3, RAW, "it's \\ 3"))
        twice(c, "bytes and backslashes with escapes on", "SELECT id, HEX(v), s FROM safety_bytes WHERE id = 3")
        # the statement itself carries raw bytes that are no UTF-8
        conn.query(b"INSERT INTO safety_bytes (id, v, s) VALUES (4, _binary'" + RAW + b"', 'raw')")
        conn.query(b"INSERT INTO safety_bytes (id, v, s) VALUES (5, '" + RAW + b"', 'plain')")
        conn.query(b"INSERT INTO safety_bytes (id, v, s) VALUES (6, X'00FF80', _latin1'\xc3\xa9')")
        twice(c, "raw bytes in statements", "SELECT id, HEX(v), HEX(s) FROM safety_bytes WHERE id >= 4 ORDER BY id")
        twice(c, "raw bytes in a relayable SELECT",
              b"SELECT id FROM safety_bytes WHERE v = _binary'" + RAW + b"' ORDER BY id")
    conn.close()

    latin = pymysql.connect(host=host, port=int(port), user=user, password=password, database=db,
                            charset="latin1", autocommit=True)
    with latin.cursor() as c:
        latin.query(b"INSERT INTO safety_bytes (id, v, s) VALUES (7, _binary'\xe9', '\xe9')")
        twice(c, "a latin1 client's bytes", "SELECT id, HEX(v), HEX(s) FROM safety_bytes WHERE id = 7")
        c.execute("DROP TABLE safety_bytes")
    latin.close()


if __name__ == "__main__":
    main()
