"""PyMySQL: the OK packet's info string of writes over several shards, printed canonically.

Run once through Shardwise and once against one backend; the outputs must be identical
(WriteInfoIT compares them): each write's affected rows, MySQL's info string and warning count,
with CLIENT_FOUND_ROWS set (matched rows) and without it (changed rows).
PyMySQL's message keeps the info's length byte (it reads the packet's rest): both sides print it.
Usage: pymysql_write_info.py HOST PORT USER PASSWORD DB
"""
import sys

import pymysql
from pymysql.constants import CLIENT

STATEMENTS = [
    "UPDATE users SET name = CONCAT(name, '') WHERE user_id < 20",
    "UPDATE users SET name = 'pw' WHERE user_id BETWEEN 1 AND 9",
    "UPDATE users SET name = 'one' WHERE user_id = 3",
    "UPDATE IGNORE users SET country_code = CONCAT('P', user_id) WHERE user_id < 12",
    "UPDATE countries SET name = CONCAT(name, '') WHERE code < 'M'",
    "INSERT INTO users (user_id, name) VALUES (7101, 'a'), (7102, 'b'), (7103, 'c'), (7104, 'd'), (7108, 'e')",
    "INSERT IGNORE INTO users (user_id, name) VALUES (7101, 'a'), (7102, 'b'), (7105, 'n'), (7104, 'd'), (7112, 'x')",
    "REPLACE INTO users (user_id, name) VALUES (7101, 'r'), (7106, 'n'), (7103, 'c'), (7107, 'c')",
    "INSERT INTO users (user_id, name) VALUES (7102, 'o'), (7109, 'n'), (7104, 'p'), (7108, 'e')"
    " ON DUPLICATE KEY UPDATE name = VALUES(name)",
    "DELETE FROM users WHERE user_id BETWEEN 7100 AND 7199",
]


def main():
    host, port, user, password, db = sys.argv[1:6]
    for label, flags in (("found rows", CLIENT.FOUND_ROWS), ("changed rows", 0)):
        conn = pymysql.connect(host=host, port=int(port), user=user, password=password, database=db,
                               autocommit=True, client_flag=flags)
        try:
            with conn.cursor() as c:
                for sql in STATEMENTS:
                    c.execute(sql)
                    r = c._result
                    print("## %s: %s -> affected %d info %r warnings %d" % (label, sql, c.rowcount, r.message, r.warning_count))
        finally:
            conn.close()


if __name__ == "__main__":
    main()
