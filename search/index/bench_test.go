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

// BenchmarkQuery opens the index of GOPI_INDEX_BENCH_TREE (built once)
// and answers one selective query, as one gopi grep process does.
func BenchmarkQuery(b *testing.B) {
	root := os.Getenv("GOPI_INDEX_BENCH_TREE")
	if root == "" {
		b.Skip("set GOPI_INDEX_BENCH_TREE to a tree to index")
	}
	o := Options{Root: root, Dir: filepath.Join(b.TempDir(), "ix"), Walk: Walk{Hidden: true, Gitignore: true, NodeModules: true}}
	if _, err := Build(context.Background(), o); err != nil {
		b.Fatal(err)
	}
	q, _ := Plan("NativeLibStamp", false)
	b.ResetTimer()
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
}
