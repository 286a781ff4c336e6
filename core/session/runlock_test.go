package session

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestRunLock(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	a, err := LockRun(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = LockRun(path)
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), strconv.Itoa(os.Getpid())) {
		t.Fatalf("second lock: %v", err)
	}
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	b, err := LockRun(path)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	b.Release()
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 0 {
		t.Errorf("lock file left behind: %v", entries)
	}
}
