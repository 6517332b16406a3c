// Command goclient runs go-sql-driver/mysql against one MySQL-protocol endpoint and prints what it
// saw in a canonical text form. ClientCompatibilityIT runs it once through Shardwise and once against
// the unsharded copy of the same data and compares the outputs.
//
// Usage: goclient HOST PORT USER PASSWORD DB
//
// The driver sends a query without arguments as text (COM_QUERY) and a query with arguments as a
// server-side prepared statement (COM_STMT_PREPARE + COM_STMT_EXECUTE, binary rows): sections marked
// "[prepared]" exercise the second path.
package main

import (
	"database/sql"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/go-sql-driver/mysql"
)

const hscale = "SELECT id, category FROM small WHERE small.category='books' /* Added */ /* some */ /* comments */"

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: goclient HOST PORT USER PASSWORD DB")
		os.Exit(2)
	}
	cfg := mysql.NewConfig()
	cfg.Net = "tcp"
	cfg.Addr = os.Args[1] + ":" + os.Args[2]
	cfg.User = os.Args[3]
	cfg.Passwd = os.Args[4]
	cfg.DBName = os.Args[5]
	cfg.ParseTime = false
	cfg.AllowNativePasswords = true
	db, err := sql.Open("mysql", cfg.FormatDSN())
	must(err)
	defer db.Close()
	db.SetMaxOpenConns(4)
	must(db.Ping())

	rows("aggregates", false, db, "SELECT COUNT(*), SUM(amount), MIN(created_at), MAX(status) FROM orders")
	rows("HSCALE query (no ORDER BY: compared sorted)", true, db, hscale)
	rows("scatter ORDER BY with LIMIT", false, db, "SELECT order_id, amount FROM orders ORDER BY amount DESC, order_id LIMIT 5")
	rows("information_schema.TABLES", false, db,
		"SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME")
	rows("information_schema.STATISTICS", false, db,
		"SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS"+
			" WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX")
	rows("SHOW WARNINGS", false, db, "SHOW WARNINGS")

	// [prepared]: with arguments the driver prepares on the server
	rows("[prepared] point select", false, db,
		"SELECT order_id, user_id, status, amount, created_at FROM orders WHERE user_id = ? ORDER BY order_id", 7)
	rows("[prepared] range and IN", false, db,
		"SELECT user_id, COUNT(*), SUM(amount) FROM orders WHERE user_id IN (?, ?, ?) AND amount > ? GROUP BY user_id ORDER BY user_id",
		1, 2, 3, "10.00")

	tx, err := db.Begin()
	must(err)
	res, err := tx.Exec("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (?, ?, ?, ?, ?)",
		int64(910001), int64(31), "new", "3.25", "2026-03-04 05:06:07")
	must(err)
	n, _ := res.RowsAffected()
	fmt.Printf("## [prepared] insert in a transaction: affected %d\n", n)
	must(tx.Rollback())
	rows("after rollback", false, db, "SELECT COUNT(*) FROM orders WHERE order_id = 910001")

	tx, err = db.Begin()
	must(err)
	for i := int64(0); i < 4; i++ {
		_, err = tx.Exec("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (?, ?, ?, ?, ?)",
			910001+i, 40+i, "go", "1.50", "2026-04-05 06:07:08")
		must(err)
	}
	must(tx.Commit())
	rows("after commit", false, db,
		"SELECT order_id, user_id, status, amount FROM orders WHERE order_id BETWEEN 910001 AND 910004 ORDER BY order_id")
	res, err = db.Exec("UPDATE orders SET status = ? WHERE order_id BETWEEN ? AND ? AND user_id < ?", "done", 910001, 910004, 42)
	must(err)
	n, _ = res.RowsAffected()
	fmt.Printf("## [prepared] update: affected %d\n", n)
	res, err = db.Exec("DELETE FROM orders WHERE order_id BETWEEN 910001 AND 910004")
	must(err)
	n, _ = res.RowsAffected()
	fmt.Printf("## delete: affected %d\n", n)

	_, err = db.Query("SELECT * FROM no_such_table")
	if me, ok := err.(*mysql.MySQLError); ok {
		fmt.Printf("## missing table: error %d\n", me.Number)
	} else {
		fmt.Printf("## missing table: %v\n", err)
	}
}

// rows prints a statement's column names and rows as text; sorted when the statement has no order.
func rows(label string, sorted bool, db *sql.DB, query string, args ...any) {
	fmt.Printf("## %s\n", label)
	rs, err := db.Query(query, args...)
	if err != nil {
		fmt.Printf("error: %v\n", err)
		return
	}
	defer rs.Close()
	cols, err := rs.Columns()
	must(err)
	fmt.Printf("columns: %s\n", strings.Join(cols, ", "))
	values := make([]sql.RawBytes, len(cols))
	scan := make([]any, len(cols))
	for i := range values {
		scan[i] = &values[i]
	}
	var lines []string
	for rs.Next() {
		must(rs.Scan(scan...))
		parts := make([]string, len(values))
		for i, v := range values {
			if v == nil {
				parts[i] = "NULL"
			} else {
				parts[i] = string(v)
			}
		}
		lines = append(lines, strings.Join(parts, "\t"))
	}
	if err := rs.Err(); err != nil {
		fmt.Printf("error: %v\n", err)
	}
	if sorted {
		sort.Strings(lines)
	}
	for _, l := range lines {
		fmt.Println(l)
	}
	fmt.Printf("rows: %d\n", len(lines))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "goclient:", err)
		os.Exit(1)
	}
}
