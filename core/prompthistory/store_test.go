package prompthistory

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func prompts(t *testing.T, s *Store, limit int) []string {
	t.Helper()
	es, err := s.Recent(context.Background(), limit)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Prompt)
	}
	return out
}

// Prompts survive a reopen, newest first; blanks and a repeat of the
// last prompt are not stored; omp's table and index exist.
func TestAddRecentAcrossOpens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "agent", "history.db")
	s, err := Open(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"first", "  second  ", "second", "", "third"} {
		if err := s.Add(ctx, p, "/work"); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, err = Open(ctx, path, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Add(ctx, "third", "/work"); err != nil {
		t.Fatal(err)
	}
	if got, want := prompts(t, s, 10), []string{"third", "second", "first"}; !slices.Equal(got, want) {
		t.Errorf("recent %q, want %q", got, want)
	}
	if got := prompts(t, s, 2); len(got) != 2 {
		t.Errorf("limit 2 gave %q", got)
	}
	es, _ := s.Recent(ctx, 1)
	if es[0].Cwd != "/work" || es[0].Created.IsZero() {
		t.Errorf("entry %+v", es[0])
	}
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM history_fts WHERE history_fts MATCH 'sec*'").Scan(&n); err != nil || n != 1 {
		t.Errorf("the FTS index: %d rows, %v", n, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v", fi.Mode(), err)
	}
}

// A new store takes over an older gopi's prompt-history.jsonl; an
// existing store does not import it again.
func TestImportsLegacyHistory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	legacy := filepath.Join(dir, "prompt-history.jsonl")
	if err := os.WriteFile(legacy, []byte("\"old one\"\nnot json\n\"old two\"\n\"old two\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "history.db")
	s, err := Open(ctx, path, legacy)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := prompts(t, s, 10), []string{"old two", "old one"}; !slices.Equal(got, want) {
		t.Errorf("imported %q, want %q", got, want)
	}
	if err := s.Add(ctx, "old two", ""); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, path, legacy)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := prompts(t, s, 10); len(got) != 2 {
		t.Errorf("after reopening: %q", got)
	}
}

// A file that is not a database is an error naming the way out.
func TestOpenBadFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "history.db")
	if err := os.WriteFile(path, []byte("this is not sqlite, but long enough to look like a header............"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), path, ""); err == nil {
		t.Fatal("no error for a file that is not a database")
	}
}
