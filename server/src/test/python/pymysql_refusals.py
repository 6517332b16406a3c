"""PyMySQL meets the server's refusals: prints one line "case errno message" per case.

Usage: pymysql_refusals.py PORT. The server serves schema shop to user app (password app) with at
most 2 connections, a 4 KiB max packet and 2 connect errors (HostileClientsTest starts it so).
"""
import sys

import pymysql

PORT = int(sys.argv[1])


def connect(**kw):
    args = dict(host="127.0.0.1", port=PORT, user="app", password="app", database="shop", connect_timeout=10)
    args.update(kw)
    return pymysql.connect(**args)


def report(case, action):
    try:
        action()
        print(case, "ok")
    except pymysql.MySQLError as e:
        print(case, e.args[0], e.args[1] if len(e.args) > 1 else "")


report("wrong-password", lambda: connect(password="guess").close())
report("unknown-database", lambda: connect(database="nope").close())


def too_large():
    c = connect()
    try:
        with c.cursor() as cur:
            cur.execute("SELECT '" + "x" * 5000 + "'")
    finally:
        c.close()


report("packet-too-large", too_large)


def too_many():
    held = [connect(), connect()]
    try:
        connect().close()
    finally:
        for c in held:
            c.close()


report("too-many-connections", too_many)
# the server blocks an address after 2 failed attempts in a row
for attempt in (1, 2, 3):
    report("from-127.0.0.2-attempt-%d" % attempt, lambda: connect(password="guess", bind_address="127.0.0.2").close())
