package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tools/read/readtest"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// The model reads a zip member, a SQLite table and a local web page
// through the agent (print mode, mock LLM); each result reaches the next
// request as the read tool renders it.
func TestReadThroughTheAgent(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<html><head><title>Docs</title><script>evil()</script></head><body><h1>Release notes</h1><p>Version <b>2.1</b> fixes the parser.</p></body></html>"))
	}))
	defer page.Close()
	call := func(path string) mockllm.Turn {
		args, _ := json.Marshal(map[string]string{"path": path})
		return mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("read", string(args))}}
	}
	r := newAgentRig(t,
		call("bundle.zip:src/main.go"),
		call("app.db:users"),
		call(page.URL+"/notes"),
		mockllm.Turn{Blocks: []mockllm.Block{text("read all three")}},
	)
	zipData, err := readtest.Zip([]byte("== src/main.go ==\npackage main\n\nfunc main() { println(\"zipped\") }\n== README.md ==\nhello\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Project, "bundle.zip"), zipData, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := readtest.ExecSQLite(filepath.Join(r.Project, "app.db"), "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users VALUES (1, 'ada'), (2, 'grace');"); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := r.run("", "-p", "look at the bundle, the users and the notes")
	if code != 0 || !strings.Contains(out, "read all three") {
		t.Fatalf("exit %d %q %q", code, out, stderr)
	}
	reqs := r.Srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, want := range []string{`println(\"zipped\")`, "grace", "Release notes"} {
		if !strings.Contains(string(reqs[i+1].Body), want) {
			t.Errorf("request %d lacks %q: %.600s", i+1, want, reqs[i+1].Body)
		}
	}
	if strings.Contains(string(reqs[3].Body), "evil()") {
		t.Error("the page's script reached the model")
	}
}
