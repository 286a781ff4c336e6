package registry

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// memFiles is a tool.Files over a map, as an editor's buffers would be.
type memFiles struct {
	mu     sync.Mutex
	files  map[string]string
	writes []string
}

func (m *memFiles) ReadFile(_ context.Context, abs string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.files[abs]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: abs, Err: fs.ErrNotExist}
	}
	return []byte(s), nil
}

func (m *memFiles) WriteFile(_ context.Context, abs string, data []byte, _ fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[abs] = string(data)
	m.writes = append(m.writes, abs)
	return nil
}

// The file tools read and write through Env.Files when a front end sets
// it: the read tool shows the buffer, not the disk; edit and write change
// the buffer and leave the disk alone.
func TestToolsUseFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(p, []byte("on disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := tool.NewEnv(dir)
	svc := testServices(t, env)
	env.Settings.EditMode = tool.EditReplace
	files := &memFiles{files: map[string]string{p: "in the buffer\n"}}
	env.Files = files
	call := func(name string, args map[string]any) *tool.Result {
		t.Helper()
		tl, err := New(name, env, svc)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(args)
		res, err := tool.Run(context.Background(), tl, raw, nil)
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %s", name, err, res.FirstText())
		}
		return res
	}
	if got := call("read", map[string]any{"path": "a.txt"}).FirstText(); !strings.Contains(got, "in the buffer") || strings.Contains(got, "on disk") {
		t.Fatalf("read showed %q", got)
	}
	call("edit", map[string]any{"path": "a.txt", "edits": []any{map[string]any{"old_text": "in the buffer", "new_text": "edited"}}})
	call("write", map[string]any{"path": "b.txt", "content": "new file\n"})
	if files.files[p] != "edited\n" || files.files[filepath.Join(dir, "b.txt")] != "new file\n" {
		t.Fatalf("buffers %q", files.files)
	}
	if disk, _ := os.ReadFile(p); string(disk) != "on disk\n" {
		t.Fatalf("the disk changed: %q", disk)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("write touched the disk: %v", err)
	}
}
