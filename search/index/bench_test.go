package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkBuild indexes the tree named by GOPI_INDEX_BENCH_TREE (the
// bench script's corpus; skipped when unset).
func BenchmarkBuild(b *testing.B) {
	root := os.Getenv("GOPI_INDEX_BENCH_TREE")
	if root == "" {
		b.Skip("set GOPI_INDEX_BENCH_TREE to a tree to index")
	}
	o := Options{Root: root, Dir: filepath.Join(b.TempDir(), "ix"), Walk: Walk{Hidden: true, Gitignore: true, NodeModules: true}}
	for range b.N {
		if _, err := Build(context.Background(), o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuery opens the index of GOPI_INDEX_BENCH_TREE (built once,
// or the one already in GOPI_INDEX_BENCH_DIR) and answers one selective
// query, as one gopi grep process does; with a watcher running for that
// index (gopi index --watch), through it.
func BenchmarkQuery(b *testing.B) {
	root := os.Getenv("GOPI_INDEX_BENCH_TREE")
	if root == "" {
		b.Skip("set GOPI_INDEX_BENCH_TREE to a tree to index")
	}
	o := Options{Root: root, Dir: os.Getenv("GOPI_INDEX_BENCH_DIR"), Walk: Walk{Hidden: true, Gitignore: true, NodeModules: true}}
	if o.Dir == "" {
		o.Dir = filepath.Join(b.TempDir(), "ix")
		if _, err := Build(context.Background(), o); err != nil {
			b.Fatal(err)
		}
	}
	for _, p := range []string{"NativeLibStamp", "CONFIG_SND_SOC_TLV320AIC3X", `EXPORT_SYMBOL_GPL\(kvm_`, `spin_lock_irqsave\(&[a-z]+->lock`} {
		q, _ := Plan(p, false)
		b.Run(p, func(b *testing.B) {
			for range b.N {
				ix, err := Open(context.Background(), o)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ix.Candidates(context.Background(), q, Scope{NoHidden: true}); err != nil {
					b.Fatal(err)
				}
				ix.Close()
			}
		})
	}
}

// BenchmarkAddPairs extracts the trigrams of the files under
// GOPI_INDEX_BENCH_TREE/drivers/net (read once, up to 64 MiB), as a
// build worker does; b.SetBytes makes it report MB/s of text.
func BenchmarkAddPairs(b *testing.B) {
	root := os.Getenv("GOPI_INDEX_BENCH_TREE")
	if root == "" {
		b.Skip("set GOPI_INDEX_BENCH_TREE to a tree to index")
	}
	var texts [][]byte
	total := 0
	_ = filepath.WalkDir(filepath.Join(root, "drivers", "net"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || total > 64<<20 {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			texts = append(texts, data)
			total += len(data)
		}
		return nil
	})
	s := newTrigramSet()
	var h pairHist
	pairs := make([]uint64, 0, 1<<20)
	b.SetBytes(int64(total))
	b.ResetTimer()
	n := 0
	for range b.N {
		n = 0
		for i, t := range texts {
			pairs = s.addPairs(t, pairs[:0], uint64(i), &h)
			n += len(pairs)
		}
	}
	b.ReportMetric(float64(n)/float64(total), "pairs/byte")
}
