package glob

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/fscache"
)

func goroot(b *testing.B) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT:", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

func BenchmarkFindGoroot(b *testing.B) {
	root := goroot(b)
	for _, cache := range []bool{true, false} {
		name := "cold"
		if cache {
			name = "warm"
		}
		b.Run(name, func(b *testing.B) {
			// A private cache with a long TTL, so "warm" stays warm for
			// the whole run (the default 1s TTL would rescan mid-loop).
			c := fscache.New(fscache.Policy{TTL: time.Hour, EmptyRecheck: time.Hour, MaxEntries: 4})
			opts := Options{Pattern: "**/*.go", Gitignore: true, Cache: cache, Scanner: c}
			r, err := Find(context.Background(), root, opts)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(r.Matches)), "matches")
			b.ResetTimer()
			for b.Loop() {
				if _, err := Find(context.Background(), root, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMatch(b *testing.B) {
	paths := []string{
		"net/http/server.go", "net/http/server_test.go", "cmd/compile/internal/ssa/rewriteAMD64.go",
		"README.md", "crypto/tls/testdata/Client-TLSv13-ECDSA", "go/build/testdata/multi/file.c",
	}
	for _, pat := range []string{"**/*.go", "*.go", "{net,crypto}/**/*_test.go", "**/testdata/**", "**/[A-Z]*"} {
		p := MustCompile(pat)
		b.Run(pat, func(b *testing.B) {
			for b.Loop() {
				for _, s := range paths {
					p.Match(s)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)), "ns/path")
		})
	}
}
