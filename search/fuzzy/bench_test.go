package fuzzy

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/fscache"
)

func BenchmarkFuzzyGoroot(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT:", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	// A private cache with a long TTL, so the scan stays warm for the whole
	// run (the default 1s TTL would rescan mid-loop).
	c := fscache.New(fscache.Policy{TTL: time.Hour, EmptyRecheck: time.Hour, MaxEntries: 4})
	for _, q := range []string{"httpserver", "rwamd64", "x"} {
		b.Run(q, func(b *testing.B) {
			opts := Options{Query: q, Gitignore: true, Cache: true, Scanner: c}
			r, err := Find(context.Background(), root, opts)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(r.TotalMatches), "matches")
			b.ResetTimer()
			for b.Loop() {
				if _, err := Find(context.Background(), root, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkScore(b *testing.B) {
	m := NewMatcher("httpserver")
	var sc Scratch
	paths := []string{"net/http/server.go", "net/http/httptest/server.go", "cmd/compile/internal/ssa/rewriteAMD64.go", "README.md"}
	for b.Loop() {
		for _, p := range paths {
			m.Score(p, &sc)
		}
	}
}
