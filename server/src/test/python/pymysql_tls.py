"""PyMySQL over TLS to the server: one login per TLS version, each running a query inside the tunnel.

Usage: pymysql_tls.py PORT CA_FILE. Prints one line per login: the version, whether the socket is
TLS, and the query's answer. The first login verifies the server's certificate against CA_FILE.
"""
import ssl
import sys

import pymysql

port, ca = int(sys.argv[1]), sys.argv[2]
for version in (ssl.TLSVersion.TLSv1_3, ssl.TLSVersion.TLSv1_2):
    context = ssl.create_default_context(cafile=ca)
    context.check_hostname = False  # the configured test certificate names no host
    context.minimum_version = context.maximum_version = version
    conn = pymysql.connect(host="127.0.0.1", port=port, user="app", password="app", database="shop", ssl=context)
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT COUNT(*) FROM orders")
            count = cur.fetchone()[0]
        sock = conn._sock
        print(sock.version(), isinstance(sock, ssl.SSLSocket), count)
    finally:
        conn.close()
