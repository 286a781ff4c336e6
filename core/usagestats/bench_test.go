package usagestats

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkScan10000 adds up 10,000 session files (writeFixture10000).
// Run with -benchtime=5x; one op is one `gopi stats` scan (the files are in
// the page cache after the first). With GOPI_STATS_FIXTURE set, the
// sessions TestWriteFixture10000 wrote there are scanned instead.
func BenchmarkScan10000(b *testing.B) {
	root := filepath.Join(os.Getenv("GOPI_STATS_FIXTURE"), "sessions")
	if os.Getenv("GOPI_STATS_FIXTURE") == "" {
		root = b.TempDir()
		b.SetBytes(writeFixture10000(b, root))
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := Scan(context.Background(), Options{Dirs: []string{root}})
		if err != nil || r.Sessions != 10_000 {
			b.Fatal(r, err)
		}
	}
}

// BenchmarkScan10000Cached is BenchmarkScan10000 after a first run filled
// the cache: what every later `gopi stats` costs when no session changed.
func BenchmarkScan10000Cached(b *testing.B) {
	root := filepath.Join(os.Getenv("GOPI_STATS_FIXTURE"), "sessions")
	if os.Getenv("GOPI_STATS_FIXTURE") == "" {
		root = b.TempDir()
		writeFixture10000(b, root)
	}
	cache := filepath.Join(b.TempDir(), "stats-cache.gob")
	if _, err := Scan(context.Background(), Options{Dirs: []string{root}, Cache: cache}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := Scan(context.Background(), Options{Dirs: []string{root}, Cache: cache})
		if err != nil || r.Sessions != 10_000 || r.Cached != 10_000 {
			b.Fatal(r, err)
		}
	}
}
