package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/search/index"
)

// TestSearchWithIndex: with a search index of the tree, the tool answers
// as it does by walking (the same text), and does read the index: a file
// rewritten behind its back with the same size and time is not found
// through it.
func TestSearchWithIndex(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 30 {
		write(fmt.Sprintf("src/f%02d.go", i), fmt.Sprintf("package src\n\nfunc Handler%d() error { return nil }\n", i))
	}
	write(".hidden/h.go", "func Handler7() {}\n")
	write("node_modules/m.js", "Handler7\n")
	ixDir := t.TempDir()
	finder := index.NewFinder(func(root string) string { return filepath.Join(ixDir, "ix") })
	o, err := finder.Options(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := index.Build(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	search := func(withIndex bool, args string) string {
		t.Helper()
		env := tool.NewEnv(dir)
		env.Settings = tool.DefaultSettings()
		if withIndex {
			env.Caches = &tool.Caches{Index: finder}
		}
		res, err := tool.Run(context.Background(), New(env), json.RawMessage(args), nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.FirstText()
	}
	for _, args := range []string{
		`{"pattern":"Handler7","paths":["."]}`, `{"pattern":"func Handler1[0-9]\\(","paths":["src"]}`,
		`{"pattern":"handler2","paths":["."],"i":true}`, `{"pattern":"nothing here","paths":["."]}`,
		`{"pattern":"Handler7","paths":["**/*.go"]}`, `{"pattern":"Handler","paths":["*.js"]}`, `{"pattern":"Handler7","paths":["node_modules/*"]}`,
	} {
		if got, want := search(true, args), search(false, args); got != want {
			t.Errorf("%s: with the index\n%s\nwalking\n%s", args, got, want)
		}
	}
	p := filepath.Join(dir, "src/f03.go")
	info, _ := os.Stat(p)
	write("src/f03.go", "package src\n\nfunc Hidden03() error { return nil }\n")
	os.Chtimes(p, time.Time{}, info.ModTime())
	if got := search(true, `{"pattern":"Hidden03","paths":["."]}`); got == search(false, `{"pattern":"Hidden03","paths":["."]}`) {
		t.Errorf("the index was not read: %q", got)
	}
}

// TestSessionWatcherKeepsIndexFresh: a session's finder (Watch) starts a
// watcher at its first indexed search; a file written afterwards is
// found through the index with nothing stat'ed, the answers equal the
// walk's, and closing the finder stops the watcher.
func TestSessionWatcherKeepsIndexFresh(t *testing.T) {
	dir := t.TempDir()
	for i := range 20 {
		p := filepath.Join(dir, fmt.Sprintf("src/f%02d.go", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("package src\n\nfunc Handler%d() {}\n", i)), 0o644)
	}
	ixDir := t.TempDir()
	finder := index.NewFinder(func(root string) string { return filepath.Join(ixDir, "ix") })
	finder.Watch = true
	o, err := finder.Options(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := index.Build(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	search := func(withIndex bool, args string) string {
		t.Helper()
		env := tool.NewEnv(dir)
		env.Settings = tool.DefaultSettings()
		if withIndex {
			env.Caches = &tool.Caches{Index: finder}
		}
		res, err := tool.Run(context.Background(), New(env), json.RawMessage(args), nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.FirstText()
	}
	search(true, `{"pattern":"Handler3","paths":["."]}`)
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, err := index.ReadStatus(context.Background(), o)
		if err == nil && st.Watched {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no watcher after the first search: %+v %v", st, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	os.WriteFile(filepath.Join(dir, "src/f04.go"), []byte("package src\n\nfunc Renamed04() {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "src/new.go"), []byte("package src\n\nfunc Renamed99() {}\n"), 0o644)
	args := `{"pattern":"Renamed","paths":["."]}`
	if got, want := search(true, args), search(false, args); got != want {
		t.Errorf("watched: with the index\n%s\nwalking\n%s", got, want)
	}
	finder.Close()
	if st, err := index.ReadStatus(context.Background(), o); err != nil || st.Watched {
		t.Errorf("after Close: %+v %v, want no watcher", st, err)
	}
}
