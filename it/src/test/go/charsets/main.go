// Command charsets runs go-sql-driver/mysql with a latin1 connection (the charset parameter sends
// SET NAMES latin1; the collation parameter names one in the handshake only) against one
// MySQL-protocol endpoint and prints what it saw. CharsetsIT runs it through Shardwise and against
// one backend and compares the outputs.
//
// Usage: charsets HOST PORT USER PASSWORD DB
package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"

	"github.com/go-sql-driver/mysql"
)

const vars = "SELECT @@character_set_client, @@character_set_connection, @@character_set_results, @@collation_connection"

func open(params map[string]string, collation string, interpolate bool) *sql.DB {
	cfg := mysql.NewConfig()
	cfg.Net = "tcp"
	cfg.Addr = os.Args[1] + ":" + os.Args[2]
	cfg.User = os.Args[3]
	cfg.Passwd = os.Args[4]
	cfg.DBName = os.Args[5]
	cfg.AllowNativePasswords = true
	cfg.InterpolateParams = interpolate
	cfg.Params = params
	if collation != "" {
		cfg.Collation = collation
	}
	db, err := sql.Open("mysql", cfg.FormatDSN())
	must(err)
	return db
}

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: charsets HOST PORT USER PASSWORD DB")
		os.Exit(2)
	}
	ctx := context.Background()
	setup := open(nil, "", false)
	_, err := setup.ExecContext(ctx, "DROP TABLE IF EXISTS charset_go")
	must(err)
	_, err = setup.ExecContext(ctx, "CREATE TABLE charset_go (id INT PRIMARY KEY, s VARCHAR(32)) DEFAULT CHARSET utf8mb4")
	must(err)
	must(setup.Close())

	for _, c := range []struct {
		label       string
		params      map[string]string
		collation   string
		interpolate bool
	}{
		{"charset=latin1", map[string]string{"charset": "latin1"}, "", false},
		{"charset=latin1 interpolated", map[string]string{"charset": "latin1"}, "", true},
		{"handshake latin1_german1_ci", nil, "latin1_german1_ci", false},
	} {
		db := open(c.params, c.collation, c.interpolate)
		conn, err := db.Conn(ctx)
		must(err)
		exec(ctx, conn, "DELETE FROM charset_go")
		show(ctx, conn, c.label+" variables", vars)
		exec(ctx, conn, "INSERT INTO charset_go (id, s) VALUES (?, ?)", 1, "\xe9t\xe9")
		exec(ctx, conn, "INSERT INTO charset_go (id, s) VALUES (2, '\xe9')")
		show(ctx, conn, c.label+" rows", "SELECT id, s, HEX(s), CHAR_LENGTH(s) FROM charset_go ORDER BY id")
		show(ctx, conn, c.label+" by argument", "SELECT id FROM charset_go WHERE s = ? ORDER BY id", "\xe9")
		show(ctx, conn, c.label+" literal", "SELECT id, '\xe9', HEX('\xe9'), COLLATION('\xe9') FROM charset_go WHERE id = 2")
		attempt(ctx, conn, c.label+" unknown character set", "SET NAMES nosuch")
		attempt(ctx, conn, c.label+" unknown collation", "SET collation_connection = nosuch_ci")
		show(ctx, conn, c.label+" variables after", vars)
		must(conn.Close())
		must(db.Close())
	}
	cleanup := open(nil, "", false)
	_, err = cleanup.ExecContext(ctx, "DROP TABLE charset_go")
	must(err)
	must(cleanup.Close())
}

func exec(ctx context.Context, conn *sql.Conn, query string, args ...any) {
	_, err := conn.ExecContext(ctx, query, args...)
	must(err)
}

func attempt(ctx context.Context, conn *sql.Conn, label, query string) {
	_, err := conn.ExecContext(ctx, query)
	var e *mysql.MySQLError
	if errors.As(err, &e) {
		fmt.Printf("## %s: error %d %s\n", label, e.Number, e.Message)
	} else {
		fmt.Printf("## %s: %v\n", label, err)
	}
}

func show(ctx context.Context, conn *sql.Conn, label, query string, args ...any) {
	for run := 1; run <= 2; run++ {
		rows, err := conn.QueryContext(ctx, query, args...)
		must(err)
		cols, err := rows.Columns()
		must(err)
		fmt.Printf("## %s (run %d)\n", label, run)
		for rows.Next() {
			values := make([]sql.RawBytes, len(cols))
			pointers := make([]any, len(cols))
			for i := range values {
				pointers[i] = &values[i]
			}
			must(rows.Scan(pointers...))
			line := ""
			for i, v := range values {
				if i > 0 {
					line += " | "
				}
				line += fmt.Sprintf("%q", string(v))
			}
			fmt.Println(line)
		}
		must(rows.Err())
		must(rows.Close())
	}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
