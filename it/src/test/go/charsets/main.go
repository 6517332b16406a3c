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

	"shardwise.io/it/goclient/clientout"
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
	clientout.Must(err)
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
	clientout.Must(err)
	_, err = setup.ExecContext(ctx, "CREATE TABLE charset_go (id INT PRIMARY KEY, s VARCHAR(32)) DEFAULT CHARSET utf8mb4")
	clientout.Must(err)
	clientout.Must(setup.Close())

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
		clientout.Must(err)
		clientout.Exec(ctx, conn, "DELETE FROM charset_go")
		clientout.Show(ctx, conn, c.label+" variables", vars)
		clientout.Exec(ctx, conn, "INSERT INTO charset_go (id, s) VALUES (?, ?)", 1, "\xe9t\xe9")
		clientout.Exec(ctx, conn, "INSERT INTO charset_go (id, s) VALUES (2, '\xe9')")
		clientout.Show(ctx, conn, c.label+" rows", "SELECT id, s, HEX(s), CHAR_LENGTH(s) FROM charset_go ORDER BY id")
		clientout.Show(ctx, conn, c.label+" by argument", "SELECT id FROM charset_go WHERE s = ? ORDER BY id", "\xe9")
		clientout.Show(ctx, conn, c.label+" literal", "SELECT id, '\xe9', HEX('\xe9'), COLLATION('\xe9') FROM charset_go WHERE id = 2")
		attempt(ctx, conn, c.label+" unknown character set", "SET NAMES nosuch")
		attempt(ctx, conn, c.label+" unknown collation", "SET collation_connection = nosuch_ci")
		clientout.Show(ctx, conn, c.label+" variables after", vars)
		clientout.Must(conn.Close())
		clientout.Must(db.Close())
	}
	cleanup := open(nil, "", false)
	_, err = cleanup.ExecContext(ctx, "DROP TABLE charset_go")
	clientout.Must(err)
	clientout.Must(cleanup.Close())
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
