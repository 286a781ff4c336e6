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
	o := Options{Root: root, Dir: filepath.Join(b.TempDir(), "ix"), Walk: Walk{Gitignore: true, NodeModules: true}}
	for range b.N {
		if _, err := Build(context.Background(), o); err != nil {
			b.Fatal(err)
		}
	}
}
