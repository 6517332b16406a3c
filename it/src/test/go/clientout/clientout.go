// Package clientout prints what a go-sql-driver/mysql connection saw, in the form the integration
// tests compare between Shardwise and one backend: the same lines from both means the same answers.
package clientout

import (
	"context"
	"database/sql"
	"fmt"
	"os"
)

// Exec runs a statement whose result is not printed; an error ends the program.
func Exec(ctx context.Context, conn *sql.Conn, query string, args ...any) {
	_, err := conn.ExecContext(ctx, query, args...)
	Must(err)
}

// Show prints a query's rows twice (run 1 and run 2: a prepared statement's second execution
// must read as its first), each value quoted with its raw bytes.
func Show(ctx context.Context, conn *sql.Conn, label, query string, args ...any) {
	for run := 1; run <= 2; run++ {
		rows, err := conn.QueryContext(ctx, query, args...)
		Must(err)
		cols, err := rows.Columns()
		Must(err)
		fmt.Printf("## %s (run %d)\n", label, run)
		for rows.Next() {
			values := make([]sql.RawBytes, len(cols))
			pointers := make([]any, len(cols))
			for i := range values {
				pointers[i] = &values[i]
			}
			Must(rows.Scan(pointers...))
			line := ""
			for i, v := range values {
				if i > 0 {
					line += " | "
				}
				line += fmt.Sprintf("%q", string(v))
			}
			fmt.Println(line)
		}
		Must(rows.Err())
		Must(rows.Close())
	}
}

// Must ends the program with the error on stderr; the test then shows it.
func Must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
