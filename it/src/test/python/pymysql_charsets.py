"""PyMySQL: character sets and collations a client chooses (issue 14, item 3), printed canonically.

Run once through Shardwise and once against one backend; the outputs must be identical
(CharsetsIT compares them). Usage: pymysql_charsets.py HOST PORT USER PASSWORD DB
Every SELECT runs twice: through Shardwise's packet relay the second run of a cached plan is relayed.
"""
import sys

import pymysql

VARS = "SELECT @@character_set_client, @@character_set_connection, @@character_set_results, @@collation_connection"


def twice(c, label, sql, args=None):
    for run in (1, 2):
        c.execute(sql, args)
        print("## %s (run %d): %r" % (label, run, list(c.fetchall())))


def attempt(c, label, sql):
    try:
        c.execute(sql)
        print("## %s: ok %r" % (label, list(c.fetchall())))
    except pymysql.MySQLError as e:
        print("## %s: error %d %s" % (label, e.args[0], e.args[1]))


def connect(host, port, user, password, db, charset):
    return pymysql.connect(host=host, port=int(port), user=user, password=password, database=db,
                           charset=charset, autocommit=True)


def main():
    host, port, user, password, db = sys.argv[1:6]
    setup = connect(host, port, user, password, db, "utf8mb4")
    with setup.cursor() as c:
        c.execute("DROP TABLE IF EXISTS charset_text")
        c.execute("CREATE TABLE charset_text (id INT PRIMARY KEY, s VARCHAR(32)) DEFAULT CHARSET utf8mb4")
    setup.close()

    # PyMySQL 1.0 names latin1 in its handshake (collation 8) only: no SET NAMES follows
    latin = connect(host, port, user, password, db, "latin1")
    with latin.cursor() as c:
        twice(c, "latin1 session", VARS)
        c.execute("INSERT INTO charset_text (id, s) VALUES (%s, %s)", (1, "é"))
        latin.query(b"INSERT INTO charset_text (id, s) VALUES (2, '\xe9t\xe9')")
        twice(c, "latin1 reads", "SELECT id, s, HEX(s), LENGTH(s), CHAR_LENGTH(s) FROM charset_text ORDER BY id")
        twice(c, "latin1 literal", "SELECT id, 'é', HEX('é'), CHARSET('é'), COLLATION('é') FROM charset_text WHERE id = 1")
        twice(c, "latin1 comparison", "SELECT id FROM charset_text WHERE s = %s ORDER BY id", ("é",))
        c.execute("SET NAMES latin1 COLLATE latin1_german1_ci")
        twice(c, "SET NAMES COLLATE", VARS)
        twice(c, "collation of a literal", "SELECT id, COLLATION('a') FROM charset_text WHERE id = 1")
        c.execute("SET NAMES utf8mb4")
        twice(c, "SET NAMES utf8mb4", VARS)
        c.execute("SET CHARACTER SET latin1")
        twice(c, "SET CHARACTER SET", VARS)
        c.execute("SET character_set_results = utf8mb4")
        twice(c, "character_set_results", VARS)
        twice(c, "utf8mb4 results", "SELECT id, HEX(s), s FROM charset_text WHERE id = 1")
        c.execute("SET character_set_connection = latin1, collation_connection = latin1_bin")
        twice(c, "character_set_connection", VARS)
        c.execute("SET character_set_results = NULL")
        twice(c, "results NULL", "SELECT @@character_set_results")
        attempt(c, "unknown character set", "SET NAMES nosuch")
        attempt(c, "unknown collation", "SET NAMES latin1 COLLATE nosuch_ci")
        attempt(c, "collation of another set", "SET NAMES latin1 COLLATE utf8mb4_bin")
        attempt(c, "unknown character_set_client", "SET character_set_client = nosuch")
        attempt(c, "unknown character_set_results", "SET character_set_results = 'nosuch'")
        attempt(c, "unknown collation_connection", "SET collation_connection = nosuch_ci")
        attempt(c, "unknown SET CHARACTER SET", "SET CHARACTER SET nosuch")
        twice(c, "after the refusals", VARS)
    latin.close()

    cleanup = connect(host, port, user, password, db, "utf8mb4")
    with cleanup.cursor() as c:
        c.execute("DROP TABLE charset_text")
    cleanup.close()


if __name__ == "__main__":
    main()
