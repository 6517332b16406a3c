"""PyMySQL: SHOW statements that name no logical table, session settings and session functions
(issue 14, items 9 and 11), printed canonically.

Run once through Shardwise and once against one backend; the outputs must be identical
(SessionSettingsIT compares them). Usage: pymysql_session.py HOST PORT USER PASSWORD DB
"""
import sys
import time

import pymysql


def show(c, label, sql, rows=True):
    for run in (1, 2):
        c.execute(sql)
        names = [d[0] for d in c.description]
        got = list(c.fetchall())
        print("## %s (run %d): %r %s" % (label, run, names, got if rows else "%d rows" % len(got)))


def attempt(c, label, sql):
    try:
        c.execute(sql)
        print("## %s: ok %r" % (label, list(c.fetchall())))
    except pymysql.MySQLError as e:
        print("## %s: error %d" % (label, e.args[0]))


def main():
    host, port, user, password, db = sys.argv[1:6]
    conn = pymysql.connect(host=host, port=int(port), user=user, password=password, database=db,
                           charset="utf8mb4", autocommit=True)
    with conn.cursor() as c:
        # item 9: answered from the backend, not refused
        show(c, "plugins", "SHOW PLUGINS")
        show(c, "engines", "SHOW ENGINES")
        show(c, "storage engines", "SHOW STORAGE ENGINES")
        show(c, "charset", "SHOW CHARSET LIKE 'latin1'")
        show(c, "character set", "SHOW CHARACTER SET WHERE Charset = 'utf8mb4'")
        show(c, "collation", "SHOW COLLATION LIKE 'latin1_s%'")
        show(c, "privileges", "SHOW PRIVILEGES", rows=False)
        show(c, "status", "SHOW GLOBAL STATUS LIKE 'Aborted_connects%'", rows=False)
        # item 11: SHOW VARIABLES spelled as the server spells them
        show(c, "performance_schema", "SHOW VARIABLES LIKE 'performance_schema'")
        show(c, "autocommit shown", "SHOW SESSION VARIABLES LIKE 'autocommit'")
        c.execute("SET SESSION sql_auto_is_null = 1, wait_timeout = 30")
        show(c, "set variables shown", "SHOW VARIABLES WHERE Variable_name IN ('sql_auto_is_null', 'wait_timeout')")
        # item 11: a select mixing variables the session knows and ones it does not
        show(c, "mixed select", "SELECT @@max_connections, DATABASE(), @@wait_timeout AS w")
        show(c, "mixed select 2", "SELECT @@session.max_join_size, SCHEMA(), @@sql_auto_is_null")
        c.execute("DROP TABLE IF EXISTS session_ai")
        c.execute("CREATE TABLE session_ai (id INT AUTO_INCREMENT PRIMARY KEY, v INT)")
        c.execute("INSERT INTO session_ai (v) VALUES (1), (2)")
        show(c, "last_insert_id", "SELECT LAST_INSERT_ID()")
        c.execute("INSERT INTO session_ai (v) VALUES (3)")
        c.execute("UPDATE session_ai SET v = v + 1 WHERE id = 1")
        show(c, "last_insert_id mixed", "SELECT LAST_INSERT_ID(), @@max_connections, DATABASE()")
        c.execute("DROP TABLE session_ai")
        attempt(c, "unknown variable among known", "SELECT @@no_such_variable, DATABASE()")
        # item 10: information_schema tables drivers read for routines (Connector/J's getProcedures)
        show(c, "routines", "SELECT ROUTINE_SCHEMA, ROUTINE_NAME, ROUTINE_TYPE FROM information_schema.ROUTINES"
                            " WHERE ROUTINE_SCHEMA = DATABASE() ORDER BY ROUTINE_NAME")
        show(c, "parameters", "SELECT COUNT(*) FROM information_schema.PARAMETERS WHERE SPECIFIC_SCHEMA = DATABASE()")
        # item 10: 1049 only for a database that exists nowhere
        attempt(c, "USE a database nowhere", "USE no_such_database_anywhere")
    conn.close()

    # item 11: wait_timeout set by the client closes its idle connection
    idle = pymysql.connect(host=host, port=int(port), user=user, password=password, database=db, autocommit=True)
    with idle.cursor() as c:
        c.execute("SET wait_timeout = 1")
        show(c, "wait_timeout", "SELECT @@wait_timeout")
        show(c, "a relayed select", "SELECT code FROM countries ORDER BY code LIMIT 2")  # its second run relays
        time.sleep(3)
        try:
            c.execute("SELECT 1")
            print("## idle connection: still open")
        except pymysql.MySQLError:
            print("## idle connection: closed")


if __name__ == "__main__":
    main()
