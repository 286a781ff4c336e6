package prompthistory

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// busyTimeout is how long a statement waits for another process's lock
// on the file, omp's busy_timeout.
const busyTimeout = 5 * time.Second

// Entry is one stored prompt.
type Entry struct {
	ID      int64     // the row id, increasing
	Prompt  string    // the prompt as sent, trimmed
	Created time.Time // when it was stored (second precision)
	Cwd     string    // the directory gopi ran in; "" when unknown
}

// Store is an open history.db.
type Store struct {
	db   *sql.DB
	mu   sync.Mutex // guards last
	last string     // the prompt stored last, for skipping repeats
}

// schema is omp's history schema: the table, its recency index, the FTS5
// index over prompts and the trigger that fills it.
const schema = `
CREATE TABLE IF NOT EXISTS history (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	prompt TEXT NOT NULL,
	created_at INTEGER NOT NULL DEFAULT (CAST(strftime('%s','now') AS INTEGER)),
	cwd TEXT
);
CREATE INDEX IF NOT EXISTS idx_history_created_at ON history(created_at DESC);
CREATE VIRTUAL TABLE IF NOT EXISTS history_fts USING fts5(prompt, content='history', content_rowid='id');
CREATE TRIGGER IF NOT EXISTS history_ai AFTER INSERT ON history BEGIN
	INSERT INTO history_fts(rowid, prompt) VALUES (new.id, new.prompt);
END;`

// Open opens (creating when missing, with its directory) the history
// database at path. When the file is new and legacy names an older
// gopi's prompt-history.jsonl (one JSON string a line, oldest first),
// its prompts are imported first.
func Open(ctx context.Context, path, legacy string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("prompt history %s: %w", path, err)
	}
	_, statErr := os.Stat(path)
	fresh := errors.Is(statErr, os.ErrNotExist)
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("prompt history %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	s := &Store{db: db}
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("prompt history %s: %w (move the file away to start a new history)", path, err)
	}
	if fresh {
		_ = os.Chmod(path, 0o600)
		if legacy != "" {
			s.importJSONL(ctx, legacy)
		}
	}
	if err := db.QueryRowContext(ctx, "SELECT prompt FROM history ORDER BY id DESC LIMIT 1").Scan(&s.last); err != nil && !errors.Is(err, sql.ErrNoRows) {
		db.Close()
		return nil, fmt.Errorf("prompt history %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Add stores a prompt sent in cwd; a blank prompt, or the prompt stored
// last, is not stored.
func (s *Store) Add(ctx context.Context, prompt, cwd string) error {
	prompt = strings.TrimSpace(prompt)
	s.mu.Lock()
	defer s.mu.Unlock()
	if prompt == "" || prompt == s.last {
		return nil
	}
	if _, err := s.db.ExecContext(ctx, "INSERT INTO history (prompt, cwd) VALUES (?, ?)", prompt, nullable(cwd)); err != nil {
		return fmt.Errorf("prompt history: %w", err)
	}
	s.last = prompt
	return nil
}

// Recent returns the newest limit prompts, newest first.
func (s *Store) Recent(ctx context.Context, limit int) ([]Entry, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, prompt, created_at, cwd FROM history ORDER BY created_at DESC, id DESC LIMIT ?", max(0, limit))
	if err != nil {
		return nil, fmt.Errorf("prompt history: %w", err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var created int64
		var cwd sql.NullString
		if err := rows.Scan(&e.ID, &e.Prompt, &created, &cwd); err != nil {
			return nil, fmt.Errorf("prompt history: %w", err)
		}
		e.Created, e.Cwd = time.Unix(created, 0), cwd.String
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("prompt history: %w", err)
	}
	return out, nil
}

// importJSONL copies the prompts of an older gopi's history file, oldest
// first, in one transaction; an unreadable file or line is skipped.
func (s *Store) importJSONL(ctx context.Context, path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	prev := ""
	for sc.Scan() {
		var p string
		if json.Unmarshal(sc.Bytes(), &p) != nil {
			continue
		}
		if p = strings.TrimSpace(p); p == "" || p == prev {
			continue
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO history (prompt) VALUES (?)", p); err != nil {
			_ = tx.Rollback()
			return
		}
		prev = p
	}
	_ = tx.Commit()
}

// nullable is s, or SQL NULL when it is empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
