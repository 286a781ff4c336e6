package bash

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
)

func benchEnv(b *testing.B) *testEnv {
	env := withServices(tool.NewEnv(b.TempDir()))
	env.Settings.Shell.Path = "/bin/bash"
	env.Settings.Shell.Environ = []string{"PATH=/usr/bin:/bin"}
	env.Artifacts = artifact.NewStore(filepath.Join(b.TempDir(), "artifacts"))
	b.Cleanup(func() { env.Close() })
	return env
}

// BenchmarkRunEcho is one `echo hi` through Run: the session's persistent
// shell, an OutputSink and the result summary (target ≤ 2 ms).
func BenchmarkRunEcho(b *testing.B) {
	env := benchEnv(b)
	ctx := context.Background()
	for b.Loop() {
		o, err := Run(ctx, env.Env, env.shell, "echo hi", RunOptions{})
		if err != nil || o.Output.Output != "hi\n" {
			b.Fatal(o, err)
		}
	}
}

// BenchmarkRun1GB streams 1 GiB of command output (lines of `yes`)
// through the shell's pipe into the OutputSink and its artifact (target
// ≥ 500 MB/s; run under /usr/bin/time -v for the peak RSS, target under
// 64 MB).
func BenchmarkRun1GB(b *testing.B) {
	env := benchEnv(b)
	const size = 1 << 30
	b.SetBytes(size)
	for b.Loop() {
		o, err := Run(context.Background(), env.Env, env.shell, "yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c 1073741824", RunOptions{})
		if err != nil || o.Output.TotalBytes != size || o.Output.ArtifactID == "" {
			b.Fatal(o.Output.TotalBytes, err)
		}
	}
}
