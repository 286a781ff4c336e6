package find

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"

	"github.com/gopi-agent/gopi/core/tool/tooltest"
)

func TestGolden(t *testing.T) {
	t.Parallel()
	tooltest.RunDir(t, "testdata/golden", New)
}

// TestGoldenTimeout runs testdata/timeout/*.txtar with the time limit cut
// to a nanosecond, so every glob times out.
func TestGoldenTimeout(t *testing.T) {
	t.Parallel()
	tooltest.RunDir(t, "testdata/timeout", newHasty)
}

// newHasty returns a find tool whose time limit is a nanosecond.
func newHasty(env *tool.Env) tool.Tool { return &Tool{env: env, timeout: time.Nanosecond} }

func TestTimeout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), nil, 0o644)
	res, err := tool.Run(context.Background(), newHasty(tool.NewEnv(dir)), json.RawMessage(`{"paths":["*.go"]}`), nil)
	if err != nil || !res.IsError || res.FirstText() != "find timed out after 5s" {
		t.Fatalf("%v %v", res.FirstText(), err)
	}
}

func TestAbortAndProgress(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 50 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.go", i)), nil, 0o644)
	}
	var updates int
	res, err := tool.Run(context.Background(), New(tool.NewEnv(dir)), json.RawMessage(`{"paths":["."]}`), func(*tool.Result) { updates++ })
	if err != nil || res.IsError || updates < 1 || res.Details.(*Details).FileCount != 50 {
		t.Fatalf("%v %v updates=%d", res.FirstText(), err, updates)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tool.Run(ctx, New(tool.NewEnv(dir)), json.RawMessage(`{"paths":["."]}`), nil); !errors.Is(err, tool.ErrAborted) {
		t.Fatalf("abort: %v", err)
	}
}
