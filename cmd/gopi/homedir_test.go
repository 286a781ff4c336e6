package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// Started in the home directory, the agent works in ~/tmp (omp's rule);
// --allow-home keeps it in the home directory. --plugin-dir is accepted.
func TestAllowHome(t *testing.T) {
	r := newAgentRig(t, mockllm.Turn{Blocks: []mockllm.Block{text("one")}}, mockllm.Turn{Blocks: []mockllm.Block{text("two")}})
	homeTmp := filepath.Join(r.Home, "tmp")
	if err := os.MkdirAll(homeTmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(r.Home)
	// runIn runs the agent and returns the working directories of the
	// sessions stored so far, sorted.
	runIn := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), environ: r.Environ}
		if code := run(context.Background(), env, args); code != 0 {
			t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
		}
		var cwds []string
		for _, f := range r.SessionFiles() {
			s, err := session.Open(f, session.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cwds = append(cwds, s.Header().Cwd)
		}
		sort.Strings(cwds)
		return strings.Join(cwds, " ")
	}
	if got := runIn("-p", "--model", "mock/mock-model", "--plugin-dir", r.Project, "hi"); got != homeTmp {
		t.Fatalf("sessions in %q, want %q", got, homeTmp)
	}
	if got := runIn("-p", "--model", "mock/mock-model", "--allow-home", "hi"); got != r.Home+" "+homeTmp {
		t.Fatalf("sessions in %q, want %q and %q", got, r.Home, homeTmp)
	}
}
