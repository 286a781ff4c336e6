// Package autoqa reads and cleans the grievances database omp's automated
// QA fills (autoqa.db in the agent directory: one row per issue a model
// reported about a tool through report_tool_issue), for `gopi grievances`.
// gopi has no report_tool_issue tool, so the database it finds is
// usually omp's.
package autoqa

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// FileName is the database's name in an agent directory.
const FileName = "autoqa.db"

// Grievance is one reported tool issue.
type Grievance struct {
	ID      int64  `json:"id"`
	Model   string `json:"model"`
	Version string `json:"version"`
	Tool    string `json:"tool"`
	Report  string `json:"report"`
}

// DB is an open grievances database.
type DB struct{ sql *sql.DB }

// ErrNoDatabase is returned by Open when the file does not exist.
var ErrNoDatabase = errors.New("no grievances database")

// Open opens the database at path (never creating it); readOnly opens it
// for reading only.
func Open(path string, readOnly bool) (*DB, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoDatabase
	} else if err != nil {
		return nil, err
	}
	mode := "rw"
	if readOnly {
		mode = "ro"
	}
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode="+mode+"&_pragma=busy_timeout(5000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return &DB{db}, nil
}

// Close closes the database.
func (d *DB) Close() error { return d.sql.Close() }

// List returns the most recent grievances, newest first, at most limit,
// only those of tool when tool is not "".
func (d *DB) List(ctx context.Context, limit int, tool string) ([]Grievance, error) {
	q := "SELECT id, model, version, tool, report FROM grievances"
	args := []any{}
	if tool != "" {
		q += " WHERE tool = ?"
		args = append(args, tool)
	}
	q += " ORDER BY id DESC LIMIT ?"
	args = append(args, limit)
	rows, err := d.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read grievances: %w", err)
	}
	defer rows.Close()
	out := []Grievance{}
	for rows.Next() {
		var g Grievance
		if err := rows.Scan(&g.ID, &g.Model, &g.Version, &g.Tool, &g.Report); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// Selector says which grievances Delete removes: exactly one of ID, Tool
// or All.
type Selector struct {
	ID   int64 // one grievance (0: not this selector)
	Tool string
	All  bool
}

// Delete removes the selected grievances and returns how many.
func (d *DB) Delete(ctx context.Context, s Selector) (int64, error) {
	n := 0
	for _, set := range []bool{s.ID != 0, s.Tool != "", s.All} {
		if set {
			n++
		}
	}
	if n != 1 {
		return 0, errors.New("give exactly one of --id, --tool or --all")
	}
	var res sql.Result
	var err error
	switch {
	case s.ID != 0:
		res, err = d.sql.ExecContext(ctx, "DELETE FROM grievances WHERE id = ?", s.ID)
	case s.Tool != "":
		res, err = d.sql.ExecContext(ctx, "DELETE FROM grievances WHERE tool = ?", s.Tool)
	default:
		res, err = d.sql.ExecContext(ctx, "DELETE FROM grievances")
	}
	if err != nil {
		return 0, fmt.Errorf("delete grievances: %w", err)
	}
	return res.RowsAffected()
}
