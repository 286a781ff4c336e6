//go:build cgo

package rure

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// benchCorpusSize caps the benchmark buffer: big enough to be realistic,
// small enough for quick runs.
const benchCorpusSize = 4 << 20

var (
	corpusOnce  sync.Once
	asciiCorpus []byte // Go sources, non-ASCII bytes replaced by '?'
	mixedCorpus []byte // the same with a non-ASCII letter on every 64th line
)

// benchCorpora concatenates .go files from GOROOT/src into two buffers,
// one pure ASCII and one with sparse non-ASCII text.
func benchCorpora(b *testing.B) (ascii, mixed []byte) {
	corpusOnce.Do(func() {
		var buf bytes.Buffer
		root := filepath.Join(runtime.GOROOT(), "src")
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || buf.Len() >= benchCorpusSize {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".go") {
				data, err := os.ReadFile(path)
				if err == nil {
					buf.Write(data)
				}
			}
			return nil
		})
		data := buf.Bytes()[:min(buf.Len(), benchCorpusSize)]
		for i, c := range data {
			if c >= 0x80 {
				data[i] = '?'
			}
		}
		asciiCorpus = data
		lines := bytes.SplitAfter(data, []byte("\n"))
		for i, l := range lines {
			if i%64 == 0 {
				mixedCorpus = append(mixedCorpus, "// ünïcode "...)
			}
			mixedCorpus = append(mixedCorpus, l...)
		}
	})
	if len(asciiCorpus) < 1<<20 {
		b.Skip("GOROOT sources not found")
	}
	return asciiCorpus, mixedCorpus
}

var benchPatterns = []struct{ name, pattern string }{
	{"literal", `errors.New`},
	{"word", `\berr\b`},
	{"dense", `[a-z]+`}, // about a match per word: where per-match calls hurt
}

// BenchmarkPerMatchIter walks every match with rure's iterator: one cgo
// call per match.
func BenchmarkPerMatchIter(b *testing.B) {
	corpus, _ := benchCorpora(b)
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			re := MustCompile(p.pattern)
			defer re.Close()
			b.SetBytes(int64(len(corpus)))
			n := 0
			for b.Loop() {
				it := re.IterBytes(corpus)
				var m Match
				for n = 0; it.Next(&m); n++ {
				}
				it.Close()
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}

// BenchmarkFindLines finds the same matches, grouped by line with line
// numbers, in one cgo call per buffer.
func BenchmarkFindLines(b *testing.B) {
	corpus, _ := benchCorpora(b)
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			m, err := NewLineMatcher(p.pattern, LineOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			var h Hits
			b.SetBytes(int64(len(corpus)))
			for b.Loop() {
				h.Reset()
				m.FindLines(corpus, 0, &h)
			}
			b.ReportMetric(float64(len(h.Spans)), "matches")
		})
	}
}

// BenchmarkGoRegexpPerLine is the pure-Go reference, for scale.
func BenchmarkGoRegexpPerLine(b *testing.B) {
	corpus, _ := benchCorpora(b)
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			re := regexp.MustCompile("(?m)" + p.pattern)
			b.SetBytes(int64(len(corpus)))
			for b.Loop() {
				refFindLines(re, corpus, false)
			}
		})
	}
}

// BenchmarkWordBoundary compares Unicode \b (the general regex), the
// ASCII variant LineMatcher picks for pure-ASCII buffers, and an explicit
// (?-u:\b), on ASCII and on mixed text; plus rure's own Unicode and ASCII
// forms through FindAll-style iteration.
func BenchmarkWordBoundary(b *testing.B) {
	ascii, mixed := benchCorpora(b)
	corpora := []struct {
		name string
		buf  []byte
	}{{"ascii", ascii}, {"mixed", mixed}}
	matchers := []struct {
		name, pattern string
		opts          LineOptions
	}{
		{"unicode", `\b\w+Error\b`, LineOptions{noASCIIVariant: true}},
		{"auto", `\b\w+Error\b`, LineOptions{}},
		{"ascii", `(?-u:\b)\w+Error(?-u:\b)`, LineOptions{}},
	}
	for _, c := range corpora {
		for _, mc := range matchers {
			b.Run("lines/"+c.name+"/"+mc.name, func(b *testing.B) {
				m, err := NewLineMatcher(mc.pattern, mc.opts)
				if err != nil {
					b.Fatal(err)
				}
				defer m.Close()
				b.SetBytes(int64(len(c.buf)))
				for b.Loop() {
					m.CountLines(c.buf)
				}
			})
		}
		for _, rc := range []struct{ name, pattern string }{
			{"unicode", `\b\w+Error\b`}, {"ascii", `(?-u:\b)\w+Error(?-u:\b)`},
		} {
			b.Run("rure/"+c.name+"/"+rc.name, func(b *testing.B) {
				re := MustCompile(rc.pattern)
				defer re.Close()
				b.SetBytes(int64(len(c.buf)))
				for b.Loop() {
					it := re.IterBytes(c.buf)
					for it.Next(nil) {
					}
					it.Close()
				}
			})
		}
	}
}
