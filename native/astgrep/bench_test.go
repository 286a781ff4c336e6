//go:build cgo

package astgrep

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goSource5000 returns a Go file of about 5,000 lines.
func goSource5000() []byte {
	var b strings.Builder
	b.WriteString("package bench\n\nimport \"fmt\"\n\n")
	for i := 0; b.Len() < 1 || strings.Count(b.String(), "\n") < 5000; i++ {
		fmt.Fprintf(&b, "func f%d(x int) error {\n\tif x > %d {\n\t\treturn fmt.Errorf(\"too big: %%d\", x)\n\t}\n\tfor i := range x {\n\t\t_ = i * %d\n\t}\n\treturn nil\n}\n\n", i, i, i)
	}
	return []byte(b.String())
}

// BenchmarkSearch5000Lines is the single-file target: one 5,000-line Go
// file searched (parse + match + result) in at most 10 ms.
func BenchmarkSearch5000Lines(b *testing.B) {
	src := goSource5000()
	for _, pat := range []string{"fmt.Errorf($$$A)", "if $C { return $$$ }"} {
		b.Run(pat, func(b *testing.B) {
			m, err := Compile("go", []Rule{{Pattern: pat}}, Smart)
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			in := []Input{{Path: "f.go", Data: src}}
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				res, err := m.Search(in, Options{Captures: true})
				if err != nil || len(res[0].Matches) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSearch5000LinesCached is the same search of the same file read
// from disk through the parse cache, as a repeated search in the agent
// finds it: the tree is parsed once, before the timer starts.
func BenchmarkSearch5000LinesCached(b *testing.B) {
	path := filepath.Join(b.TempDir(), "f.go")
	if err := os.WriteFile(path, goSource5000(), 0o644); err != nil {
		b.Fatal(err)
	}
	pc := NewParseCache(64 << 20)
	b.Cleanup(pc.Close)
	for _, pat := range []string{"fmt.Errorf($$$A)", "if $C { return $$$ }"} {
		b.Run(pat, func(b *testing.B) {
			m, err := Compile("go", []Rule{{Pattern: pat}}, Smart)
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			in := []Input{{Path: path}}
			opts := Options{Captures: true, Cache: pc}
			if res, err := m.Search(in, opts); err != nil || len(res[0].Matches) == 0 {
				b.Fatal(err)
			}
			for b.Loop() {
				res, err := m.Search(in, opts)
				if err != nil || len(res[0].Matches) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}
