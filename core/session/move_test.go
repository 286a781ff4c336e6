package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// MoveTo renames the file and its artifacts into the new directory,
// rewrites the header's cwd, and keeps appending there.
func TestMoveTo(t *testing.T) {
	opts := testOptions(t)
	m, err := Create(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	m.AppendMessage(user("hello"))
	m.AppendMessage(assistant("hi"))
	old := m.File()
	if err := os.MkdirAll(strings.TrimSuffix(old, ".jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(strings.TrimSuffix(old, ".jsonl"), "1.bash.log"), []byte("out"), 0o600)
	dir := filepath.Join(filepath.Dir(filepath.Dir(old)), EncodeCwd("/work/other"))
	if err := m.MoveTo(dir, "/work/other"); err != nil {
		t.Fatal(err)
	}
	moved := m.File()
	if moved != filepath.Join(dir, filepath.Base(old)) {
		t.Fatalf("moved to %s", moved)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the old file remains: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(strings.TrimSuffix(moved, ".jsonl"), "1.bash.log")); err != nil || string(data) != "out" {
		t.Errorf("artifacts: %q %v", data, err)
	}
	m.AppendMessage(user("after the move"))
	data, _ := os.ReadFile(moved)
	first, _, _ := strings.Cut(string(data), "\n")
	if !strings.Contains(first, `"cwd":"/work/other"`) || !strings.Contains(string(data), "hello") || !strings.Contains(string(data), "after the move") {
		t.Errorf("moved file:\n%s", data)
	}
	if m.Header().Cwd != "/work/other" {
		t.Errorf("header cwd %q", m.Header().Cwd)
	}
	// A file of that name in the target is never overwritten.
	back := filepath.Dir(old)
	os.WriteFile(filepath.Join(back, filepath.Base(old)), []byte("someone else's"), 0o600)
	if err := m.MoveTo(back, "/work/project"); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("move over an existing file: %v", err)
	}
	if m.File() != moved {
		t.Error("a failed move changed the file")
	}
}

// A session not written yet only takes its new place; an in-memory one
// only the cwd.
func TestMoveToUnwritten(t *testing.T) {
	opts := testOptions(t)
	m, err := Create(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	dir := filepath.Join(t.TempDir(), "other")
	if err := m.MoveTo(dir, "/work/other"); err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(m.File()) != dir {
		t.Errorf("file %s", m.File())
	}
	if _, err := os.Stat(m.File()); !os.IsNotExist(err) {
		t.Errorf("an unwritten session was written: %v", err)
	}
	mem := InMemory("/a")
	if err := mem.MoveTo("/ignored", "/b"); err != nil || mem.Header().Cwd != "/b" || mem.File() != "" {
		t.Errorf("in memory: %v %q %q", err, mem.Header().Cwd, mem.File())
	}
}
