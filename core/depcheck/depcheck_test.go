package depcheck

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// fakeEnv finds only the programs in have, as executables that exit with
// the status given.
func fakeEnv(t *testing.T, have map[string]int) Env {
	dir := t.TempDir()
	paths := map[string]string{}
	for name, status := range have {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\nexit "+strconv.Itoa(status)+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return Env{LookPath: func(name string) (string, error) {
		if p, ok := paths[name]; ok {
			return p, nil
		}
		return "", errors.New("not found")
	}}
}

func TestCheckPython(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	ctx := context.Background()
	if py := CheckPython(ctx, fakeEnv(t, nil)); py.Available || py.Path != "" {
		t.Fatalf("%+v", py)
	}
	if py := CheckPython(ctx, fakeEnv(t, map[string]int{"python": 0})); !py.Available || filepath.Base(py.Path) != "python" {
		t.Fatalf("%+v", py)
	}
	if py := CheckPython(ctx, fakeEnv(t, map[string]int{"python3": 1})); py.Available || py.Path == "" {
		t.Fatalf("a failing interpreter: %+v", py)
	}
}

func TestCheckSTT(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	s := CheckSTT(context.Background(), fakeEnv(t, map[string]int{"ffmpeg": 0, "python3": 0}))
	// The fake python3 exits 0 for `import whisper` too.
	if !s.Recorder.Available || s.Recorder.Tool != "ffmpeg" || !s.Python.Available || !s.Whisper.Available || !s.Ready() {
		t.Fatalf("%+v", s)
	}
	s = CheckSTT(context.Background(), fakeEnv(t, nil))
	if s.Ready() || s.Recorder.Hint == "" || s.Whisper.Available {
		t.Fatalf("%+v", s)
	}
}
