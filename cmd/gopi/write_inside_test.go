package main

import (
	"archive/zip"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tools/read/readtest"
	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// The model writes a member of a zip archive and a row of a SQLite table
// with the write tool, as an omp model would: both land on disk, and the
// next request carries omp's answers for both.
func TestWriteIntoZipAndSQLite(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{
			agentrig.ToolCall("write", map[string]any{"path": "bundle.zip:conf/app.ini", "content": "port = 8080\n"}),
			agentrig.ToolCall("write", map[string]any{"path": "app.db:users", "content": "{name: 'Ada', age: 36}"}),
		}},
		mockllm.Turn{Blocks: []mockllm.Block{text("Both written.")}},
	)
	zipData, err := readtest.Zip([]byte("== README.md ==\nhello\n"))
	if err != nil {
		t.Fatal(err)
	}
	r.Write("bundle.zip", string(zipData))
	db := filepath.Join(r.Project, "app.db")
	if err := readtest.ExecSQLite(db, "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, age INTEGER);"); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := r.run("", "-p", "--model", "mock/mock-model", "set the port and add Ada")
	if code != 0 || out != "Both written.\n" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	msgs := agentrig.MustMarshal(t, r.RequestMessages(1))
	for _, want := range []string{"Successfully wrote 12 bytes to bundle.zip:conf/app.ini", "Inserted row into users"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("the model was not told %q: %s", want, msgs)
		}
	}
	zr, err := zip.OpenReader(filepath.Join(r.Project, "bundle.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for name, want := range map[string]string{"README.md": "hello\n", "conf/app.ini": "port = 8080\n"} {
		f, err := zr.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(f)
		f.Close()
		if string(b) != want {
			t.Errorf("%s = %q, want %q", name, b, want)
		}
	}
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var name string
	var age int64
	if err := conn.QueryRow("SELECT name, age FROM users").Scan(&name, &age); err != nil || name != "Ada" || age != 36 {
		t.Errorf("users: %q %d %v", name, age, err)
	}
	if _, err := os.Stat(filepath.Join(r.Project, "app.db:users")); err == nil {
		t.Error("a plain file app.db:users was written")
	}
}
