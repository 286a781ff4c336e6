//go:build unix

package ast

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestNamedFIFOIsSkipped(t *testing.T) {
	t.Parallel()
	requireNative(t)
	dir := tree(t, map[string]string{"a.py": "f(1)\n"})
	fifo := filepath.Join(dir, "p.py")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	type outcome struct {
		res *SearchResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := Search(context.Background(), SearchRequest{Scope: Scope{Paths: []string{"p.py", "a.py"}, Cwd: dir}, Patterns: []string{"f($A)"}})
		done <- outcome{res, err}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-time.After(20 * time.Second):
		// Let a reader blocked on the pipe go before failing.
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		t.Fatal("search blocked on a named pipe")
	}
	if o.err != nil {
		t.Fatal(o.err)
	}
	if locations(o.res.Matches) != "a.py:1" || o.res.FilesSearched != 1 ||
		len(o.res.ParseIssues) != 1 || o.res.ParseIssues[0].String() != "p.py: not a regular file (named pipe); skipped" {
		t.Fatalf("matches %s, searched %d, issues %v", locations(o.res.Matches), o.res.FilesSearched, o.res.ParseIssues)
	}
	// Alone, it is no error either: nothing is searched and the issue says why.
	res := search(t, SearchRequest{Scope: Scope{Paths: []string{"p.py"}, Cwd: dir}, Patterns: []string{"f($A)"}})
	if len(res.Matches) != 0 || len(res.ParseIssues) != 1 {
		t.Fatalf("alone: %+v", res)
	}
	if _, err := os.Stat("/dev/null"); err == nil {
		res := search(t, SearchRequest{Scope: Scope{Paths: []string{"/dev/null"}, Cwd: dir}, Patterns: []string{"f($A)"}, Lang: "python"})
		if len(res.ParseIssues) != 1 || !strings.Contains(res.ParseIssues[0].Message, "not a regular file (device)") {
			t.Fatalf("device: %+v", res.ParseIssues)
		}
	}
}
