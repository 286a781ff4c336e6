package mermaid

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/gopi-agent/gopi/internal/golden"
)

// Each case is a txtar file: the Mermaid input, optional options (JSON
// of Options, over DefaultOptions), and the expected drawing in
// box-drawing characters and in ASCII, or the expected error.
func TestCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "cases", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatal("no cases", err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar := golden.ReadArchive(t, path)
			o := DefaultOptions()
			if f := ar.Section("options"); f != nil {
				if err := json.Unmarshal(f.Data, &o); err != nil {
					t.Fatal(err)
				}
			}
			src := string(ar.Section("input").Data)
			out, err := Render(src, o)
			if err != nil {
				ar.Check(t, "error", err.Error()+"\n")
			} else {
				ar.Check(t, "unicode", out+"\n")
				o.UseASCII = true
				ascii, err := Render(src, o)
				if err != nil {
					t.Fatal(err)
				}
				ar.Check(t, "ascii", ascii+"\n")
			}
			ar.Save(t)
		})
	}
}

// A label with characters of several code points (a ZWJ emoji family, a
// flag, a skin tone, a combining accent) takes the columns the terminal
// gives it, as the TUI measures text: each box's lines are equally wide.
func TestGraphemeLabels(t *testing.T) {
	out, err := Render("graph LR\nA[👨\u200d👩\u200d👧 family] --> B[cafe\u0301 🇫🇷 👍🏽]", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	for _, l := range lines[1:] {
		if l != "" && ansi.StringWidth(l) != ansi.StringWidth(lines[0]) {
			t.Fatalf("rows of different widths:\n%s", out)
		}
	}
	if !strings.Contains(out, "│ 👨\u200d👩\u200d👧 family ├") {
		t.Fatalf("the family is not one character in its box:\n%s", out)
	}
}

// Sources that all go to the same targets share one crossing row (a bus,
// as omp draws it): 40 nodes each pointing at the same 40 others draw
// one bus with an arrowhead into every target, not a row per source whose
// lines merge into every other source's.
func TestCompleteBipartiteBus(t *testing.T) {
	var b strings.Builder
	b.WriteString("graph TD\n")
	for i := range 40 {
		for j := range 40 {
			fmt.Fprintf(&b, "A%d --> B%d\n", i, j)
		}
	}
	out, err := Render(b.String(), DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if len(lines) > 16 || strings.Count(out, "▼") != 40 {
		t.Fatalf("%d rows, %d arrowheads:\n%s", len(lines), strings.Count(out, "▼"), out)
	}
}

// Options out of range are brought back into it rather than drawing a
// huge canvas.
func TestOptionsClamped(t *testing.T) {
	out, err := Render("graph TD; A-->B", Options{PaddingX: -5, PaddingY: 1 << 30, BoxBorderPadding: -1})
	if err != nil || strings.Count(out, "\n") > 110 {
		t.Fatalf("%v\n%s", err, out)
	}
}

func FuzzRender(f *testing.F) {
	f.Add("graph TD; A-->B")
	f.Add("flowchart LR\n a([x]) -- text --> b{y} & c\n c -.-> a\n b <--> b")
	f.Add("sequenceDiagram\nA->>B: hi\nloop x\nB-->>A: yo\nelse\nend\nNote over A,B: n")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		for _, ascii := range []bool{false, true} {
			o := DefaultOptions()
			o.UseASCII = ascii
			out, err := Render(src, o)
			if err == nil && len(out) > 4*MaxCells {
				t.Fatalf("drawing of %d bytes", len(out))
			}
		}
	})
}
