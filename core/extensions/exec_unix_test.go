//go:build unix

package extensions

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A cancelled tool call stops pi.exec's program and what it started in
// the background (its process group), leaving nothing running.
func TestExecCancelEndsTheGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	path := writeExt(t, dir, "slow.js", `export default (pi) => ({
		name: "slow", description: "starts a background sleeper and waits",
		async execute(_id, _params, _onUpdate, _ctx, signal) {
			const r = await pi.exec("sh", ["-c", "sleep 300 & echo $! > `+pidFile+`; wait"], { signal });
			return "killed=" + r.killed;
		},
	});`)
	r := Load(context.Background(), []Entry{{Path: path, Name: "slow", CustomTool: true}}, Options{})
	defer r.Close()
	if errs := r.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := r.Tools()[0].Execute(ctx, nil, nil)
		done <- err
	}()
	var pid int
	for deadline := time.Now().Add(20 * time.Second); pid == 0; {
		if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if time.Now().After(deadline) {
			t.Fatal("the background sleeper never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	waitGone(t, pid, "the cancelled call")
}
