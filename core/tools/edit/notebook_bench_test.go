package edit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
)

// hugeNotebook is a notebook of cells code cells of 21 source lines, each
// with a stream output, in Jupyter's layout (one-space indentation,
// sources as lists of lines): 20,000 cells make 14 MB and a text view of
// 460,000 lines (a marker, 21 lines and an empty line per cell).
func hugeNotebook(cells int) []byte {
	var b strings.Builder
	b.WriteString("{\n \"cells\": [\n")
	out := strings.Repeat("o", 200)
	for i := range cells {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "  {\n   \"cell_type\": \"code\",\n   \"execution_count\": %d,\n   \"id\": \"%08x\",\n   \"metadata\": {},\n", i, i*2654435761%(1<<32))
		fmt.Fprintf(&b, "   \"outputs\": [\n    {\n     \"name\": \"stdout\",\n     \"output_type\": \"stream\",\n     \"text\": [\n      %q\n     ]\n    }\n   ],\n", out)
		fmt.Fprintf(&b, "   \"source\": [\n    \"v%d = %d\\n\"", i, i)
		for range 20 {
			b.WriteString(",\n    \"y=1\\n\"")
		}
		b.WriteString("\n   ]\n  }")
	}
	b.WriteString("\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n")
	return []byte(b.String())
}

// BenchmarkNotebookHashlineEdit is a hashline edit of one source line in
// the middle of a 20,000-cell (14 MB) notebook: read, view, anchors
// checked, the one cell written back. On the 2-core shared machine (load
// about 20) it went from 22.9 s, 686 MB and 12.0M allocations per edit
// (the file decoded into generic values three times over) to 3-4 s,
// 247 MB and 0.62M; gopi edit's CPU time from 3.4 s to 0.85 s.
func BenchmarkNotebookHashlineEdit(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "huge.ipynb")
	data := hugeNotebook(20000)
	env := tool.NewEnv(dir)
	tl := NewMode(env, tool.EditHashline)
	// Cell 10000's first source line is line 10000*23+2 of the view (a
	// marker, 21 lines, the empty line the final newline leaves per cell).
	line := 10000*23 + 2
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		raw, _ := json.Marshal(map[string]string{"input": fmt.Sprintf("@@ huge.ipynb\n= %s..%s\n~v10000 = %d\n", hashline.Anchor(line, "v10000 = 10000"), hashline.Anchor(line, "v10000 = 10000"), -i)})
		b.StartTimer()
		res, err := tool.Run(context.Background(), tl, raw, nil)
		if err != nil || res.IsError {
			b.Fatalf("%v %s", err, res.FirstText())
		}
	}
}
