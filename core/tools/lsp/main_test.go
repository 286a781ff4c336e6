package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/testwait"
)

func TestMain(m *testing.M) {
	lsptest.RunFakeIfAsked()
	code := m.Run()
	goplsOnce.close()
	os.Exit(code)
}

// settleBound caps how long runUntil asks a real server again.
const settleBound = 3 * time.Minute

// runUntil is run for a query a real server answers correctly only once
// it has loaded the project (on a loaded machine gopls, pyright and
// typescript-language-server answer early with a timeout or a partial
// result): it asks again until the text holds every want, and fails with
// the last answer when it still does not after settleBound.
func runUntil(t *testing.T, tl tool.Tool, args map[string]any, want ...string) (string, Details) {
	t.Helper()
	raw, _ := json.Marshal(args)
	deadline := time.Now().Add(settleBound)
	if d := testwait.Deadline(t); d.Before(deadline) {
		deadline = d
	}
	for {
		res, err := tool.Run(context.Background(), tl, raw, nil)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		text := res.FirstText()
		d, _ := res.Details.(Details)
		missing := ""
		for _, w := range want {
			if !strings.Contains(text, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return text, d
		}
		if time.Now().After(deadline) {
			t.Fatalf("%v: missing %q after %v of asking; the last answer:\n%s", args, missing, settleBound, text)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// run calls the tool with args and returns its text and details.
func run(t *testing.T, tl tool.Tool, args map[string]any) (string, Details) {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := tool.Run(context.Background(), tl, raw, nil)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if res.IsError {
		t.Fatalf("%v: error result %q", args, res.FirstText())
	}
	d, _ := res.Details.(Details)
	return res.FirstText(), d
}

// writeFiles writes files (name → content) under root.
func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newTool returns the tool over a manager for root with opts.
func newTool(t testing.TB, root string, opts lsp.ManagerOptions) (*Tool, *lsp.Manager) {
	t.Helper()
	opts.Root = root
	if opts.Config == nil {
		opts.Config = &config.LSPConfig{Enabled: true, Path: os.Getenv("PATH")}
	}
	m := lsp.NewManager(opts)
	env := tool.NewEnv(root)
	return New(env, m).(*Tool), m
}

func contains(t *testing.T, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("missing %q in:\n%s", w, got)
		}
	}
}
