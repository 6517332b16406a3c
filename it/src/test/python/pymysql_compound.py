"""PyMySQL: compound statements and CALL (issue 14, item 4), printed in a canonical text form.

Usage: pymysql_compound.py HOST PORT USER PASSWORD DB. Run once against one backend and once through
Shardwise; CompoundStatementsIT compares the outputs. The connection sends several statements per
query (CLIENT_MULTI_STATEMENTS) as clients do: stored programs whose BEGIN ... END bodies hold ';'
must reach the server whole, and every result of a CALL (each result set, then its OK) must come
back with the SERVER_MORE_RESULTS_EXISTS flag where MySQL sets it.
"""
import sys

import pymysql
from pymysql.constants import CLIENT, SERVER_STATUS

SETUP = """DROP PROCEDURE IF EXISTS report; DROP PROCEDURE IF EXISTS nothing_back; DROP FUNCTION IF EXISTS twice;
DROP TABLE IF EXISTS notes"""

PROGRAMS = """CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(64), n INT);
CREATE PROCEDURE report(IN upto INT)
COMMENT 'BEGIN; END'
reading: BEGIN
  DECLARE total INT DEFAULT 0;
  DECLARE CONTINUE HANDLER FOR SQLSTATE '23000' BEGIN SET total = -1; END;
  SELECT id, body FROM notes WHERE id <= upto ORDER BY id;
  IF upto > 1 THEN
    SELECT COUNT(*) AS c, 'a;b' AS s, "END IF;" AS e, CASE WHEN upto > 2 THEN 'big' ELSE 'small' END AS size FROM notes;
  ELSEIF upto < 0 THEN
    LEAVE reading;
  END IF;
  counting: WHILE total < upto DO
    SET total = total + 1;
  END WHILE counting;
  UPDATE notes SET n = total WHERE id <= upto;
END reading;
CREATE PROCEDURE nothing_back() BEGIN DECLARE x INT; SET x = 1; END;
CREATE FUNCTION twice(x INT) RETURNS INT DETERMINISTIC RETURN IF(x > 0, x * 2, REPEAT('0', 1));
CREATE TRIGGER notes_bi BEFORE INSERT ON notes FOR EACH ROW
BEGIN
  IF NEW.body IS NULL THEN SET NEW.body = 'none; END'; END IF;
END;
INSERT INTO notes (id, body) VALUES (1, 'one'), (2, NULL), (3, 'three');
SELECT twice(21) AS t, twice(-1) AS z"""

STATEMENTS = [
    "SELECT id, body, n FROM notes ORDER BY id",
    "CALL report(2)",
    "CALL report(0)",
    "CALL report(-1)",
    "CALL report(5); SELECT 'after' AS a",
    "CALL nothing_back()",
    "SELECT id, body, n FROM notes ORDER BY id",
    "CALL no_such_procedure()",
    "SELECT 'still usable' AS s",
    "BEGIN; INSERT INTO notes (id, body) VALUES (9, 'nine'); ROLLBACK; SELECT COUNT(*) AS n FROM notes",
    "CALL report(3)",
]


def run(conn, cur, sql):
    print(">> " + " ".join(sql.split()))
    try:
        cur.execute(sql)
    except pymysql.err.MySQLError as e:
        print("ERR %s" % e.args[0])
        return
    while True:
        more = bool(conn.server_status & SERVER_STATUS.SERVER_MORE_RESULTS_EXISTS)
        if cur.description:
            print("  columns %s" % [(d[0], d[1]) for d in cur.description])
            for row in cur.fetchall():
                print("  row %r" % (row,))
        else:
            print("  ok affected=%d" % cur.rowcount)
        print("  more=%s" % more)
        try:
            if not cur.nextset():
                break
        except pymysql.err.MySQLError as e:
            print("ERR %s" % e.args[0])
            break


def main():
    host, port, user, password, db = sys.argv[1:6]
    conn = pymysql.connect(host=host, port=int(port), user=user, password=password, database=db, charset="utf8mb4",
                           autocommit=True, client_flag=CLIENT.MULTI_STATEMENTS)
    try:
        cur = conn.cursor()
        run(conn, cur, SETUP)
        run(conn, cur, PROGRAMS)
        for sql in STATEMENTS:
            run(conn, cur, sql)
    finally:
        conn.close()


if __name__ == "__main__":
    main()
