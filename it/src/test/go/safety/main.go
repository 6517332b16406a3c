// Command safety runs go-sql-driver/mysql's escaping and byte paths against one MySQL-protocol
// endpoint and prints what it saw. EscapingAndBytesIT runs it through Shardwise and against one
// backend and compares the outputs.
//
// Usage: safety HOST PORT USER PASSWORD DB
//
// Statements with arguments are server-side prepared (COM_STMT_EXECUTE sends a []byte and a string
// as MYSQL_TYPE_STRING bytes); the interpolating connection escapes values itself and must read
// SERVER_STATUS_NO_BACKSLASH_ESCAPES to do it right.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"github.com/go-sql-driver/mysql"

	"shardwise.io/it/goclient/clientout"
)

const injection = "é' OR 1=1 -- \\"

var raw = []byte{0x00, 0xff, 0x80}

func open(interpolate bool) *sql.DB {
	cfg := mysql.NewConfig()
	cfg.Net = "tcp"
	cfg.Addr = os.Args[1] + ":" + os.Args[2]
	cfg.User = os.Args[3]
	cfg.Passwd = os.Args[4]
	cfg.DBName = os.Args[5]
	cfg.AllowNativePasswords = true
	cfg.InterpolateParams = interpolate
	db, err := sql.Open("mysql", cfg.FormatDSN())
	clientout.Must(err)
	return db
}

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: safety HOST PORT USER PASSWORD DB")
		os.Exit(2)
	}
	ctx := context.Background()
	for _, interpolate := range []bool{false, true} {
		db := open(interpolate)
		conn, err := db.Conn(ctx)
		clientout.Must(err)
		label := fmt.Sprintf("interpolate=%v", interpolate)
		clientout.Exec(ctx, conn, "DROP TABLE IF EXISTS safety_go")
		clientout.Exec(ctx, conn, "CREATE TABLE safety_go (id INT PRIMARY KEY, v VARBINARY(64), s VARCHAR(64)) DEFAULT CHARSET utf8mb4")
		clientout.Exec(ctx, conn, "SET sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')")
		clientout.Exec(ctx, conn, "INSERT INTO safety_go (id, v, s) VALUES (?, ?, ?)", 1, raw, injection)
		clientout.Exec(ctx, conn, "INSERT INTO safety_go (id, v, s) VALUES (?, ?, ?)", 2, []byte(injection), "two")
		clientout.Show(ctx, conn, label+" NO_BACKSLASH_ESCAPES by argument", "SELECT id, HEX(v), s FROM safety_go WHERE s = ? OR v = ? ORDER BY id",
			injection, []byte(injection))
		clientout.Show(ctx, conn, label+" NO_BACKSLASH_ESCAPES text", "SELECT id, HEX(v), HEX(s) FROM safety_go ORDER BY id")
		clientout.Exec(ctx, conn, "SET sql_mode = DEFAULT")
		clientout.Exec(ctx, conn, "INSERT INTO safety_go (id, v, s) VALUES (?, ?, ?)", 3, raw, "it's \\ 3")
		clientout.Show(ctx, conn, label+" escapes on by argument", "SELECT id, HEX(v), s FROM safety_go WHERE v = ? ORDER BY id", raw)
		clientout.Show(ctx, conn, label+" escapes on text", "SELECT id, HEX(v), s FROM safety_go WHERE id = 3")
		clientout.Exec(ctx, conn, "DROP TABLE safety_go")
		clientout.Must(conn.Close())
		clientout.Must(db.Close())
	}
}
