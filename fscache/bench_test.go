package fscache

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/boyter/gocodewalker"
)

// goroot returns $(go env GOROOT), or skips.
func goroot(tb testing.TB) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Skip("go env GOROOT:", err)
	}
	return strings.TrimSpace(string(out))
}

func gorootSrc(b *testing.B) string { return filepath.Join(goroot(b), "src") }

// BenchmarkWalkGoroot walks the Go source tree with the default grep-like
// policy (gitignore on, hidden off).
func BenchmarkWalkGoroot(b *testing.B) {
	root := gorootSrc(b)
	ctx := context.Background()
	n := 0
	for b.Loop() {
		es, err := Walk(ctx, root, Options{Gitignore: true, SkipNodeModules: true})
		if err != nil {
			b.Fatal(err)
		}
		n = len(es)
	}
	b.ReportMetric(float64(n), "entries")
}

// BenchmarkGocodewalkerGoroot is the reference: gocodewalker's own walk of
// the same tree (files only, no lstat of each entry).
func BenchmarkGocodewalkerGoroot(b *testing.B) {
	root := gorootSrc(b)
	n := 0
	for b.Loop() {
		q := make(chan *gocodewalker.File, 1024)
		w := gocodewalker.NewFileWalker(root, q)
		w.SetConcurrency(runtime.GOMAXPROCS(0))
		w.SetErrorHandler(func(error) bool { return true })
		go func() { _ = w.Start() }()
		n = 0
		for range q {
			n++
		}
	}
	b.ReportMetric(float64(n), "files")
}
