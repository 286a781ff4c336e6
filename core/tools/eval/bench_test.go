package eval

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/gopi-agent/gopi/core/eval/jscell"
	"github.com/gopi-agent/gopi/core/eval/pykernel"
	"github.com/gopi-agent/gopi/core/tool"
)

// benchCall runs one eval call of input per iteration through the whole
// tool: parse, backend, output sink, result.
func benchCall(b *testing.B, backends Backends, input string) {
	raw, _ := json.Marshal(map[string]string{"input": input})
	tl := New(tool.NewEnv(b.TempDir()), backends)
	if res, err := tool.Run(context.Background(), tl, raw, nil); err != nil || res.IsError {
		b.Fatal(err, res.FirstText())
	}
	for b.Loop() {
		if res, err := tool.Run(context.Background(), tl, raw, nil); err != nil || res.IsError {
			b.Fatal(err, res.FirstText())
		}
	}
}

// BenchmarkToolPythonCell is a later Python cell through the tool.
func BenchmarkToolPythonCell(b *testing.B) {
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("python3 is not installed")
	}
	p := pykernel.NewPool(pykernel.Options{Environ: os.Environ()})
	defer p.Close()
	benchCall(b, Backends{Python: p.Session(b.TempDir(), nil)}, "*** Cell py\nx = 1")
}

// BenchmarkToolJSCell is a JavaScript cell through the tool.
func BenchmarkToolJSCell(b *testing.B) {
	benchCall(b, Backends{JS: jscell.New(jscell.Options{})}, "*** Cell js\nvar x = 1")
}
