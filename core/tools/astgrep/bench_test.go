package astgrep

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/fscache"
	native "github.com/gopi-agent/gopi/native/astgrep"
)

// BenchmarkToolRepeated times the ast_grep tool over a whole tree
// (GOPI_BENCH_AST_TREE, default $GOROOT/src): "first" with empty scan and
// parse caches before every call, "repeat" with both warm, as a second
// search of the same tree in one session finds them. bench/ast.sh runs it.
func BenchmarkToolRepeated(b *testing.B) {
	if !native.Available {
		b.Skip("native library not linked")
	}
	dir := os.Getenv("GOPI_BENCH_AST_TREE")
	if dir == "" {
		dir = filepath.Join(runtime.GOROOT(), "src")
	}
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no tree to search: %v", err)
	}
	env := tool.NewEnv(dir)
	env.Settings = tool.DefaultSettings()
	env.Caches = &tool.Caches{Scan: fscache.New(fscache.DefaultPolicy), Parse: ast.NewParseCache(0)}
	t := New(env)
	b.Cleanup(func() { env.Caches.Close() })
	for _, pat := range []string{`$A.Lock()`, `errors.Is($ERR, $TARGET)`, `if err != nil { return $$$ }`} {
		args, _ := json.Marshal(map[string]any{"pat": pat, "paths": []string{"."}})
		run := func(b *testing.B) {
			if _, err := tool.Run(context.Background(), t, args, nil); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(pat+"/first", func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				env.Caches.Scan.Clear()
				env.Caches.Parse.Invalidate("")
				b.StartTimer()
				run(b)
			}
		})
		b.Run(pat+"/repeat", func(b *testing.B) {
			run(b)
			b.ResetTimer()
			for b.Loop() {
				run(b)
			}
			s := env.Caches.Parse.Stats()
			b.ReportMetric(float64(s.Bytes)/(1<<20), "cacheMB")
		})
	}
}
