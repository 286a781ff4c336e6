package notebook

import (
	"fmt"
	"strings"
	"testing"
)

// TestTextJoin: sources given as one string or as a list join to
// the same text, and null sources are empty cells.
func TestTextJoin(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"cells": [{"cell_type": "code", "source": "a\nb\n"}]}`:                                     "# %% [code] cell:0\na\nb\n",
		`{"cells": [{"cell_type": "code", "source": ["a\n", "b\n"]}]}`:                               "# %% [code] cell:0\na\nb\n",
		`{"cells": [{"cell_type": "markdown", "source": null}, {"cell_type": "raw"}]}`:               "# %% [markdown] cell:0\n# %% [raw] cell:1",
		`{"cells": [{"cell_type": "code", "source": "x", "outputs": [{"text": "hidden"}]}], "x": 1}`: "# %% [code] cell:0\nx",
	} {
		got, err := Text([]byte(in))
		if err != nil || got != want {
			t.Errorf("%s:\n got %q, %v\nwant %q", in, got, err, want)
		}
	}
}

// outputsNotebook is a notebook of cells code cells, each with a source
// of a few lines and outputs much larger than the source.
func outputsNotebook(cells int) []byte {
	var b strings.Builder
	b.WriteString(`{"cells": [`)
	for i := range cells {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"cell_type": "code", "id": "c%d", "metadata": {"tags": ["t"]}, "execution_count": %d, "source": ["x = %d\n", "y = 1\n", "print(x)\n"], "outputs": [`, i, i, i)
		for j := range 30 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{"name": "stdout", "output_type": "stream", "text": ["line %d\n", "more\n"]}`, j)
		}
		b.WriteString("]}")
	}
	b.WriteString(`], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	return []byte(b.String())
}

// A notebook's outputs are skipped, not decoded: Text and Parse of a
// notebook with large outputs allocate a small fraction of what decoding
// the file does (a 14 MB notebook took seconds and hundreds of MB per
// edit when they were decoded three times over), and give the same text.
func TestOutputsNotDecoded(t *testing.T) {
	data := outputsNotebook(200)
	want, err := textDecoded(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Text(data); err != nil || got != want {
		t.Fatalf("Text differs from the decoded text: %v", err)
	}
	d, err := Parse(data)
	if err != nil || d.Text() != want {
		t.Fatalf("Parse differs from the decoded text: %v", err)
	}
	decoded := testing.AllocsPerRun(3, func() { textDecoded(data) })
	text := testing.AllocsPerRun(3, func() { Text(data) })
	parse := testing.AllocsPerRun(3, func() { Parse(data) })
	if text > decoded/10 || parse > decoded/10 {
		t.Errorf("allocations: Text %.0f, Parse %.0f, decoding the file %.0f", text, parse, decoded)
	}
}
