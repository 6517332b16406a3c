"""PyMySQL: user variables and LOCK TABLES, printed canonically.

Run once through Shardwise and once against one backend; the outputs must be identical
(UserVariablesIT compares them). Usage: pymysql_user_variables.py HOST PORT USER PASSWORD DB
Selects reading a variable run twice: through Shardwise's packet relay the second run of a cached
plan is relayed, with the variable read as a literal.
"""
import sys

import pymysql


def show(c, label, sql, types=False, runs=1):
    for run in range(1, runs + 1):
        try:
            c.execute(sql)
        except pymysql.MySQLError as e:
            print("## %s: error %d %s" % (label, e.args[0], e.args[1]))
            return
        meta = [(d[0], d[1]) for d in c.description] if types and c.description else None
        print("## %s (run %d): rows %r warnings %d%s" % (label, run, list(c.fetchall()) if c.description else c.rowcount,
                                                        c.connection.warning_count if hasattr(c.connection, "warning_count") else 0,
                                                        "" if meta is None else " columns %r" % meta))


def main():
    host, port, user, password, db = sys.argv[1:6]
    conn = pymysql.connect(host=host, port=int(port), user=user, password=password, database=db,
                           charset="utf8mb4", autocommit=True)
    with conn.cursor() as c:
        c.execute("SET @i = 7, @d = 1.50, @f = 1.5e0, @s = 'it''s', @n = NULL, @j = @i + 1, @@session.sql_notes = 1")
        show(c, "typed values", "SELECT @i, @d, @f, @s, @n, @j, @never", types=True)
        show(c, "a key read from a variable", "SELECT order_id, user_id, amount FROM orders WHERE user_id = @i ORDER BY order_id", runs=2)
        show(c, "in a list", "SELECT COUNT(*) FROM orders WHERE user_id IN (@i, @j)", runs=2)
        show(c, "a select item keeps its label", "SELECT @s, COUNT(*) FROM orders WHERE user_id = @j", runs=2)
        c.execute("SET @u = (SELECT MAX(user_id) FROM users)")
        show(c, "a subquery over every shard", "SELECT @u", types=True)
        show(c, "select into", "SELECT COUNT(*), SUM(amount) INTO @c, @sum FROM orders")
        show(c, "read back", "SELECT @c, @sum", types=True)
        show(c, "into without rows", "SELECT user_id INTO @c FROM orders WHERE user_id = -987654")
        show(c, "its warning", "SHOW WARNINGS")
        show(c, "unchanged", "SELECT @c")
        show(c, "into of several rows", "SELECT user_id INTO @c FROM orders")
        c.execute("/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */")
        c.execute("/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */")
        c.execute("/*!40103 SET TIME_ZONE='+00:00' */")
        show(c, "dump settings", "SELECT @@SQL_MODE, @@TIME_ZONE")
        c.execute("/*!40101 SET SQL_MODE=@OLD_SQL_MODE */")
        c.execute("/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */")
        show(c, "restored", "SELECT @@SQL_MODE = @OLD_SQL_MODE, @@TIME_ZONE = @OLD_TIME_ZONE")
        c.execute("SET @rn = 0")
        show(c, "rows numbered once across shards", "SELECT @rn := @rn + 1 AS rn, name FROM users ORDER BY user_id")
        show(c, "the last number", "SELECT @rn", types=True)
        show(c, "an aggregate assigned", "SELECT @m := MAX(amount) FROM orders", types=True)
        show(c, "its type", "SELECT @m, @m + 0.5", types=True)
        show(c, "assigned on one shard", "SELECT @o := COUNT(*) AS n FROM orders WHERE user_id = @i", runs=2)
        show(c, "its value", "SELECT @o", types=True)
        show(c, "a write on one shard", "UPDATE users SET name = (@was := name) WHERE user_id = @i")
        show(c, "what it read", "SELECT @was = (SELECT name FROM users WHERE user_id = @i)")
        c.execute("LOCK TABLES orders READ, countries AS c WRITE")
        show(c, "locked", "SELECT COUNT(*) FROM orders WHERE user_id = @i")
        show(c, "locked by alias", "SELECT COUNT(*) FROM countries c")
        show(c, "not locked", "SELECT COUNT(*) FROM users")
        show(c, "not locked under that name", "SELECT COUNT(*) FROM countries")
        c.execute("UNLOCK TABLES")
        show(c, "unlocked", "SELECT COUNT(*) FROM users")
    conn.close()


if __name__ == "__main__":
    main()
