"""PyMySQL: LOAD DATA LOCAL INFILE, printed canonically (issue 14 item 7).

Run once through Shardwise and once against one backend; the outputs must be identical
(LoadDataIT compares them): each load's affected rows, MySQL's info string, its warnings, and the
rows it wrote. Usage: pymysql_load_data.py HOST PORT USER PASSWORD DB
The files are written to a temporary directory; every run first deletes what an earlier run loaded.
"""
import os
import sys
import tempfile

import pymysql

USERS = (b"user_id,name,email,country,created\n"
         b"770001,\"Smith, Jane\",jane@x.org,DE,2024-01-02 03:04:05\n"
         b"770002,\"multi\nline\",\\N,FR,2024-02-03\n"
         b"770003,plain,\"q\"\"uote\",USA,2024-13-45\n"
         b"770004,short\n"
         b"770005,a,b,c,2024-01-01,extra,\"fields\n"
         b"770006,\"esc\\,aped\",e\\tx,NULL,\\N\n"
         b"770007,,,,\n"
         b"770001,dup,dup@x,IT,2024-01-01\n"
         + b"".join(b"%d,n%d,e%d@x,SE,2023-05-05\n" % (770100 + i, i, i) for i in range(40))
         + b"770008,last,l@x,ES,2023-05-05")
COUNTRIES = b"XA\tXland\nXB\tX\\\\b\\nland\nDE\tGermany\nXC\n"
PROMOTIONS = b"junk line without the prefix\r\nxxx901||SPRING||5.5\r\nabcxxx902||FALL||7.255\r\nxxx903||\"Q\"||abc\r\n"
WHOLE_USERS = b"# comment\n# another\n770201\tAda\tada@x\tGB\t2022-02-02 02:02:02\n770202\t\\N\t\\N\t\\N\t\\N\n\n"


def show(c, label, sql, warnings=True):
    try:
        c.execute(sql)
    except pymysql.MySQLError as e:
        print("## %s: error %d %s" % (label, e.args[0], e.args[1]))
        return
    if c.description:
        print("## %s: rows %r" % (label, list(c.fetchall())))
    else:
        r = c._result
        print("## %s: affected %d info %r warnings %d" % (label, c.rowcount, r.message, r.warning_count))
        if warnings:
            show(c, label + " / warnings", "SHOW WARNINGS")


def main():
    host, port, user, password, db = sys.argv[1:6]
    d = tempfile.mkdtemp(prefix="shardwise-load-")
    files = {}
    for name, data in (("users.csv", USERS), ("countries.tsv", COUNTRIES), ("promotions.txt", PROMOTIONS),
                       ("whole_users.tsv", WHOLE_USERS), ("empty.txt", b"")):
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        files[name] = path
    conn = pymysql.connect(host=host, port=int(port), user=user, password=password, database=db,
                           charset="utf8mb4", autocommit=True, local_infile=True)
    with conn.cursor() as c:
        c.execute("DELETE FROM users WHERE user_id BETWEEN 770000 AND 779999 OR user_id = 0")
        c.execute("DELETE FROM countries WHERE code IN ('XA', 'XB', 'XC')")
        c.execute("DELETE FROM promotions WHERE id >= 900")
        show(c, "sharded csv", "LOAD DATA LOCAL INFILE '%s' INTO TABLE users CHARACTER SET utf8mb4"
                               " FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\\n'"
                               " IGNORE 1 LINES (user_id, name, @email, country_code, created_at) SET email = UPPER(@email)"
             % files["users.csv"])
        show(c, "loaded", "SELECT user_id, name, email, country_code, CAST(created_at AS CHAR) FROM users"
                          " WHERE user_id BETWEEN 770000 AND 779999 ORDER BY user_id")
        show(c, "replace", "LOAD DATA LOCAL INFILE '%s' REPLACE INTO TABLE users FIELDS TERMINATED BY ','"
                           " OPTIONALLY ENCLOSED BY '\"' IGNORE 1 LINES (user_id, name, email)" % files["users.csv"])
        show(c, "ignore", "LOAD DATA LOCAL INFILE '%s' IGNORE INTO TABLE users FIELDS TERMINATED BY ','"
                          " ENCLOSED BY '\"' IGNORE 3 ROWS (user_id, @skip, email)" % files["users.csv"])
        show(c, "after replace and ignore", "SELECT user_id, name, email FROM users WHERE user_id BETWEEN 770000 AND 779999 ORDER BY user_id")
        show(c, "broadcast", "LOAD DATA LOCAL INFILE '%s' REPLACE INTO TABLE countries" % files["countries.tsv"])
        show(c, "broadcast rows", "SELECT code, name FROM countries WHERE code IN ('XA', 'XB', 'XC', 'DE') ORDER BY code")
        show(c, "single", "LOAD DATA LOCAL INFILE '%s' INTO TABLE promotions FIELDS TERMINATED BY '||'"
                          " LINES STARTING BY 'xxx' TERMINATED BY '\\r\\n' (id, code, discount)" % files["promotions.txt"])
        show(c, "single rows", "SELECT id, code, discount FROM promotions WHERE id >= 900 ORDER BY id")
        show(c, "no column list", "LOAD DATA LOCAL INFILE '%s' INTO TABLE users IGNORE 2 LINES" % files["whole_users.tsv"])
        show(c, "no column list rows", "SELECT user_id, name, email, country_code, CAST(created_at AS CHAR) FROM users"
                                       " WHERE user_id BETWEEN 770201 AND 779999 ORDER BY user_id")
        show(c, "empty file", "LOAD DATA LOCAL INFILE '%s' INTO TABLE users" % files["empty.txt"])
        show(c, "in a transaction", "START TRANSACTION", warnings=False)
        show(c, "loaded in it", "LOAD DATA LOCAL INFILE '%s' INTO TABLE countries" % files["countries.tsv"])
        show(c, "rolled back", "ROLLBACK", warnings=False)
        show(c, "after rollback", "SELECT COUNT(*) FROM countries WHERE code IN ('XA', 'XB', 'XC')")
        show(c, "count", "SELECT COUNT(*) FROM users WHERE user_id BETWEEN 770000 AND 779999")
    conn.close()
    off = pymysql.connect(host=host, port=int(port), user=user, password=password, database=db,
                          charset="utf8mb4", autocommit=True, local_infile=False)
    with off.cursor() as c:
        show(c, "client without local infile", "LOAD DATA LOCAL INFILE '%s' INTO TABLE users" % files["empty.txt"])
        show(c, "still usable", "SELECT COUNT(*) FROM users WHERE user_id BETWEEN 770000 AND 779999")
    off.close()
    for path in files.values():
        os.remove(path)
    os.rmdir(d)


if __name__ == "__main__":
    main()
