package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/fuzzy"
	"github.com/gopi-agent/gopi/search/glob"
	"github.com/gopi-agent/gopi/search/grep"
)

// The in-process benchmarks measure the engines the way a long-lived agent
// uses them: the scan cache is warm (untimed calls fill it, the content
// cache and the page cache), so each timed iteration is the filter-and-search work alone. They
// run over two corpora, GOROOT/src and the generated tree of bench/_work/gen
// (made by cmd/gentree; `make bench` creates it), and skip a corpus that is
// missing. Options follow the CLI's defaults: hidden files skipped, ignore
// files honoured.
//
//	go test ./bench -run '^$' -bench . -benchtime 20x

// TestMain builds the benchmarks' scan cache with the policy the CLI would
// use, the TTL raised to an hour unless FS_SCAN_CACHE_TTL_MS sets it, so
// the cache stays warm for a whole benchmark run, and their content cache
// with the default budget (an agent session's caches).
func TestMain(m *testing.M) {
	cfg, err := config.Load(config.LoadOptions{NoFiles: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	p := cfg.ScanCachePolicy()
	if cfg.Env.Get(config.EnvScanCacheTTL) == "" {
		p.TTL = time.Hour
	}
	scanCache = fscache.New(p)
	contentCache = grep.NewContentCache(0)
	os.Exit(m.Run())
}

// The caches every benchmark of the process shares, as the tools of one
// session do (built by TestMain).
var (
	scanCache    *fscache.Cache
	contentCache *grep.ContentCache
)

// corpus is one tree to benchmark over.
type corpus struct {
	name, root string
}

// corpora returns the corpora present on this machine, in a fixed order.
func corpora(b *testing.B) []corpus {
	var out []corpus
	if goroot := goRoot(); goroot != "" {
		if dir := filepath.Join(goroot, "src"); isDir(dir) {
			out = append(out, corpus{"goroot", dir})
		}
	}
	if dir, err := filepath.Abs(filepath.Join("_work", "gen")); err == nil && isDir(dir) {
		out = append(out, corpus{"gen", dir})
	}
	if len(out) == 0 {
		b.Skip("no corpus: neither GOROOT/src nor bench/_work/gen exists")
	}
	return out
}

// goRoot finds GOROOT from the environment or the go command.
func goRoot() string {
	if r := os.Getenv("GOROOT"); r != "" {
		return r
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func loadPatterns(b *testing.B) []Pattern {
	pats, err := LoadPatterns("patterns.tsv")
	if err != nil {
		b.Fatal(err)
	}
	return pats
}

// grepOptions returns the CLI's options for p over root, with the scan
// cache and the content cache on (what a long-lived agent process uses).
func grepOptions(p Pattern, root string, mode grep.Mode) grep.Options {
	o := grep.DefaultOptions(p.Regex, root)
	o.IgnoreCase = p.IgnoreCase
	o.Hidden = false
	o.Gitignore = true
	o.Cache = true
	o.ScanCache = scanCache
	o.ContentCache = contentCache
	o.Mode = mode
	return o
}

// benchGrep times grep.Search for every pattern and corpus in one mode and
// reports the matching line count as the "lines" metric, which bench/search.sh
// compares with ripgrep's.
func benchGrep(b *testing.B, mode grep.Mode) {
	ctx := context.Background()
	pats := loadPatterns(b)
	for _, c := range corpora(b) {
		for _, p := range pats {
			b.Run(c.name+"/"+p.Name, func(b *testing.B) {
				opts := grepOptions(p, c.root, mode)
				// Two untimed searches: the first caches part of the tree
				// and measures it, the second caches the rest (see
				// search/grep/contentscope.go).
				var warm *grep.Result
				for range 2 {
					var err error
					if warm, err = grep.Search(ctx, opts); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				for b.Loop() {
					res, err := grep.Search(ctx, opts)
					if err != nil {
						b.Fatal(err)
					}
					if res.TotalMatches != warm.TotalMatches {
						b.Fatalf("matching lines changed between runs: %d then %d", warm.TotalMatches, res.TotalMatches)
					}
				}
				b.ReportMetric(float64(warm.TotalMatches), "lines")
				b.ReportMetric(float64(warm.FilesSearched), "files")
			})
		}
	}
}

// BenchmarkGrepWarm is `gopi grep -c` in process: per-file counts only.
func BenchmarkGrepWarm(b *testing.B) { benchGrep(b, grep.ModeCount) }

// BenchmarkGrepWarmContent is `gopi grep` in process: every matching line
// with its text and spans.
func BenchmarkGrepWarmContent(b *testing.B) { benchGrep(b, grep.ModeContent) }

// BenchmarkGlobWarm lists every .go file (`gopi find '**/*.go'`) from the
// cached scan.
func BenchmarkGlobWarm(b *testing.B) {
	ctx := context.Background()
	for _, c := range corpora(b) {
		b.Run(c.name, func(b *testing.B) {
			opts := glob.Options{Pattern: "**/*.go", Gitignore: true, Cache: true, Scanner: scanCache}
			warm, err := glob.Find(ctx, c.root, opts)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := glob.Find(ctx, c.root, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(warm.Matches)), "paths")
		})
	}
}

// BenchmarkFuzzyWarm ranks every path of the cached scan against a short
// and a longer query.
func BenchmarkFuzzyWarm(b *testing.B) {
	ctx := context.Background()
	queries := []struct{ name, q string }{{"short", "srch"}, {"long", "handler/session.go"}}
	for _, c := range corpora(b) {
		for _, q := range queries {
			b.Run(c.name+"/"+q.name, func(b *testing.B) {
				opts := fuzzy.Options{Query: q.q, Gitignore: true, Cache: true, Scanner: scanCache}
				warm, err := fuzzy.Find(ctx, c.root, opts)
				if err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for b.Loop() {
					if _, err := fuzzy.Find(ctx, c.root, opts); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(warm.TotalMatches), "matches")
			})
		}
	}
}
