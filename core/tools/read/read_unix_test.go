//go:build unix

package read

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// A FIFO (or a device) would block the read forever: it is refused.
func TestReadRefusesNonRegularFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no mkfifo:", err)
	}
	env := tool.NewEnv(dir)
	done := make(chan *tool.Result, 1)
	go func() {
		res, _ := tool.Run(context.Background(), New(env, nil), json.RawMessage(`{"path":"pipe"}`), nil)
		done <- res
	}()
	select {
	case res := <-done:
		if !res.IsError || !strings.Contains(res.FirstText(), "named pipe") {
			t.Fatalf("result %q", res.FirstText())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO hangs")
	}
}
