package main

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/buildinfo"
	"github.com/gopi-agent/gopi/native/astgrep"
	"github.com/gopi-agent/gopi/native/rure"
)

// TestVersionReport checks that `gopi --version` and `gopi version` name the
// version, commit, build date, Go version, target, CPU variant and the
// status of each native engine, and that link-time values win over the
// toolchain's stamps.
func TestVersionReport(t *testing.T) {
	t.Parallel()
	stamp := &buildinfo.Stamp{Version: "v1.2.3", Commit: "0123abcd", Date: "2026-01-02T03:04:05Z", CPUVariant: "modern"}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		var out, errOut bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &errOut, build: stamp}
		if code := run(context.Background(), env, args); code != exitMatch {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errOut.String())
		}
		got := out.String()
		if first, _, _ := strings.Cut(got, "\n"); first != "gopi v1.2.3" {
			t.Errorf("%v: first line %q, want %q", args, first, "gopi v1.2.3")
		}
		want := []string{
			"commit:  0123abcd\n",
			"built:   2026-01-02T03:04:05Z\n",
			"go:      " + runtime.Version() + "\n",
			"target:  " + runtime.GOOS + "/" + runtime.GOARCH + "\n",
			"cpu:     modern",
		}
		if rure.Available {
			want = append(want, "regex:   native (Rust regex)\n")
		} else {
			want = append(want, "regex:   pure Go")
		}
		if astgrep.Available {
			want = append(want, "ast:     native (ast-grep, ")
		} else {
			want = append(want, "ast:     unavailable")
		}
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%v: output lacks %q:\n%s", args, w, got)
			}
		}
	}
}
