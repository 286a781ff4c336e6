package autoqa

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

func TestListAndDelete(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	if _, err := Open(path, true); err != ErrNoDatabase {
		t.Fatalf("missing database: %v", err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE grievances (id INTEGER PRIMARY KEY AUTOINCREMENT, model TEXT NOT NULL, version TEXT NOT NULL, tool TEXT NOT NULL, report TEXT NOT NULL);
		INSERT INTO grievances (model, version, tool, report) VALUES ('m', '1', 'find', 'a'), ('m', '1', 'read', 'b'), ('m', '1', 'find', 'c');`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ctx := context.Background()
	q, err := Open(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	rows, err := q.List(ctx, 2, "")
	if err != nil || len(rows) != 2 || rows[0].ID != 3 || rows[1].Tool != "read" {
		t.Fatalf("%+v %v", rows, err)
	}
	if _, err := q.Delete(ctx, Selector{ID: 1, All: true}); err == nil {
		t.Fatal("two selectors accepted")
	}
	if n, err := q.Delete(ctx, Selector{Tool: "find"}); err != nil || n != 2 {
		t.Fatalf("%d %v", n, err)
	}
	if n, err := q.Delete(ctx, Selector{All: true}); err != nil || n != 1 {
		t.Fatalf("%d %v", n, err)
	}
}
