"""PyMySQL: no statement poisons a connection, and read-only transactions refuse writes (issue 14, items 5 and 6).

Usage: pymysql_errors.py HOST PORT USER PASSWORD DB. Exits 1 on the first violation:
- an error with errno outside MySQL's server range (1000..5999, so never 0) or with Java text in it;
- a statement on the same connection right after an error that does not succeed;
- a read-only outcome other than MariaDB's (1792 for each write, reads answered).
Prints one line per read-only step, which ErrorsAndReadOnlyIT compares with one backend's output.
Every statement runs twice: through Shardwise's packet relay the second run of a cached SELECT is relayed.
"""
import sys

import pymysql

ANY = "any"

# (statement, expected): None = succeeds, ANY = may fail (Shardwise refuses what one server answers), int = that errno
ERRORS = [
    ("SELECT ''", None),
    ("SELECT '' AS e, 1", None),
    ("SELECT %s", None),  # bound to "" below, interpolated by PyMySQL
    ("SELEC 1", 1064),
    ("SELECT * FROM no_such_table", 1146),
    ("SELECT no_such_column FROM countries", 1054),
    ("SELECT code FROM countries WHERE code = (SELECT 1 UNION SELECT 2)", ANY),
    ("SELECT code, IF(code > 'm', (SELECT 1 UNION SELECT 2), 0) FROM countries", ANY),  # after some rows
    ("SELECT o.order_id FROM orders o JOIN users u ON u.name = o.status WINDOW w AS ()", ANY),
    ("SELECT GROUP_CONCAT(status ORDER BY status) FROM orders", ANY),
    ("INSERT INTO countries (code, name) VALUES ('zz', NULL)", 1048),
    ("", ANY),
    ("USE no_such_database", 1049),
    ("SET @@session.no_such_variable = 1", ANY),
    ("SELECT 1 FROM orders WHERE user_id = 'x' AND ", 1064),
]

READ_ONLY = [
    "SET SESSION TRANSACTION READ WRITE",
    "START TRANSACTION READ ONLY",
    "SELECT @@transaction_read_only",
    "INSERT INTO countries (code, name) VALUES ('zz', 'Zedland')",
    "UPDATE countries SET name = name WHERE code = 'zz'",
    "DELETE FROM countries WHERE code = 'zz'",
    "SELECT COUNT(*) > 0 FROM countries",
    "COMMIT",
    "SET TRANSACTION READ ONLY",
    "SELECT @@transaction_read_only",
    "START TRANSACTION",
    "REPLACE INTO countries (code, name) VALUES ('zz', 'Zedland')",
    "ROLLBACK",
    "INSERT INTO countries (code, name) VALUES ('zz', 'Zedland')",
    "DELETE FROM countries WHERE code = 'zz'",
    "SET SESSION TRANSACTION READ ONLY",
    "SELECT @@transaction_read_only",
    "DELETE FROM countries WHERE code = 'zz'",
    "CREATE TABLE ro_never (a INT)",
    "SELECT COUNT(*) > 0 FROM countries",
    "SET transaction_read_only = 0",
    "SELECT @@transaction_read_only",
    "DELETE FROM countries WHERE code = 'zz'",
    "SET transaction_read_only = 1",
    "SELECT @@transaction_read_only",
    "UPDATE orders SET status = status",
    "SET SESSION TRANSACTION READ WRITE",
]


def fail(message):
    print("VIOLATION: " + message)
    sys.exit(1)


def run(c, sql, args=None):
    """('OK', rows) or ('ERR', errno); checks every error's number and text."""
    try:
        c.execute(sql, args)
        return "OK", list(c.fetchall())
    except pymysql.err.MySQLError as e:
        errno, text = e.args[0], str(e.args[1]) if len(e.args) > 1 else ""
        if not 1000 <= errno < 6000:
            fail("%r: errno %r (%s)" % (sql, errno, text))
        for java in ("Exception", "java.", "io.shardwise", "com.mysql", "[BUG]"):
            if java in text:
                fail("%r: Java text in %d %s" % (sql, errno, text))
        return "ERR", errno


def main():
    host, port, user, password, db = sys.argv[1:6]
    conn = pymysql.connect(host=host, port=int(port), user=user, password=password, database=db,
                           charset="utf8mb4", autocommit=True)
    with conn.cursor() as c:
        for sql, expected in ERRORS:
            for attempt in (1, 2):
                outcome, value = run(c, sql, ("",) if "%s" in sql else None)
                if expected is None and outcome != "OK":
                    fail("%r failed with %r" % (sql, value))
                if isinstance(expected, int) and (outcome, value) != ("ERR", expected):
                    fail("%r: expected %d, got %s %r" % (sql, expected, outcome, value))
                after = run(c, "SELECT 'next'")
                if after != ("OK", [("next",)]):
                    fail("after %r (%s %r) the next statement got %r" % (sql, outcome, value, after))
        print("## errors: every connection usable")
        for sql in READ_ONLY:
            outcome, value = run(c, sql)
            print("%s -> %s %s" % (sql, outcome, value if outcome == "ERR" or sql.startswith("SELECT") else ""))
        conn.ping(reconnect=False)
    conn.close()


if __name__ == "__main__":
    main()
