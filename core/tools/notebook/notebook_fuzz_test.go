package notebook

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// FuzzNotebook checks the notebook converter against a reference written
// differently (generic JSON values instead of typed decoding): both accept
// the same files and give the same text. The text of an accepted file also
// survives being written back as a notebook of string sources and
// converted again.
func FuzzNotebook(f *testing.F) {
	for _, s := range []string{
		`{"cells": [{"cell_type": "code", "source": "a\nb\n"}]}`,
		`{"cells": [{"cell_type": "code", "source": ["a\n", "b\n"]}], "metadata": {}, "nbformat": 4}`,
		`{"cells": [{"cell_type": "markdown", "source": null}, {"cell_type": "raw"}]}`,
		`{"cells": [{"cell_type": "code", "source": "x", "outputs": [{"text": "hidden"}]}], "x": 1}`,
		`{"cells": []}`, `{"worksheets": []}`, `[]`, `{"cells": [1]}`, `{"cells": [{"source": "x"}]}`,
		`{"cells": [{"cell_type": "heading", "source": "x"}]}`, `{"cells": [{"cell_type": "code", "source": 3}]}`,
		`{"cells": [{"cell_type": "code", "source": ["a", null, "b"]}]}`, `{"cells": [{"cell_type": 1}]}`,
		"{\"cells\": [{\"cell_type\": \"code\", \"source\": \"\xff\"}]}", `{"cells": {}}`, `{"cells": [`,
		`{"cells": [{"cell_type": "code", "source": "a"}], "cells": [{"cell_type": "raw", "source": "b"}]}`,
		`{"Cells": [{"cell_type": "code", "source": "a"}], "cells": []}`, `{"cells": [{"cell_type": 1, "cell_type": "code", "Source": "x"}]}`,
		`{"cells": [{"cell\u005ftype": "code", "source": ["a\u00e9\n", "\ud83d\ude00"]}]}`, `{"cells": [null]}`,
		`{"cells": [{"cell_type": "code", "source": [ "a\tb\/\"c\\" , null,"\b\f\r", "é😀"]}]}`, `{"cells": [{"cell_type": "raw", "source": "\u00e9\t"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Text(data)
		if fast, ok := textFast(data); ok {
			// The fast conversion gives what decoding the whole file gives.
			if slow, err := textDecoded(data); err != nil || slow != fast {
				t.Fatalf("textFast(%q) = %q; decoding the file gives %q, %v", data, fast, slow, err)
			}
		}
		if ambiguousKeys(data) {
			return
		}
		want, ok := referenceNotebookText(data)
		if ok != (err == nil) {
			t.Fatalf("Text(%q) = %q, %v; the reference accepts it: %v (%q)", data, got, err, ok, want)
		}
		if err != nil {
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatal("empty error")
			}
			return
		}
		if got != want {
			t.Fatalf("Text(%q) = %q, the reference says %q", data, got, want)
		}
		again, err := Text(rewriteNotebook(t, data))
		if err != nil || again != got {
			t.Fatalf("written back, %q converts to %q, %v; want %q", rewriteNotebook(t, data), again, err, got)
		}
	})
}

// referenceNotebookText converts a notebook from generic JSON values:
// "cells" must be a list of objects whose "cell_type" is code, markdown
// or raw and whose "source" (null or absent: empty) is a string or a list
// of strings (a null item counts as empty).
func referenceNotebookText(data []byte) (string, bool) {
	var top any
	if json.Unmarshal(data, &top) != nil {
		return "", false
	}
	obj, ok := top.(map[string]any)
	if !ok {
		return "", false
	}
	cells, ok := obj["cells"].([]any)
	if !ok {
		return "", false
	}
	var b strings.Builder
	for i, c := range cells {
		cell, ok := c.(map[string]any)
		if !ok {
			return "", false
		}
		kind, _ := cell["cell_type"].(string)
		if kind != "code" && kind != "markdown" && kind != "raw" {
			return "", false
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("# %% [" + kind + "] cell:" + strconv.Itoa(i))
		var src strings.Builder
		switch v := cell["source"].(type) {
		case nil:
		case string:
			src.WriteString(v)
		case []any:
			for _, part := range v {
				switch p := part.(type) {
				case nil:
				case string:
					src.WriteString(p)
				default:
					return "", false
				}
			}
		default:
			return "", false
		}
		if src.Len() > 0 {
			b.WriteString("\n" + src.String())
		}
	}
	return b.String(), true
}

// rewriteNotebook writes an accepted notebook back out with each cell's
// source as one string and nothing else.
func rewriteNotebook(t *testing.T, data []byte) []byte {
	var nb struct {
		Cells []cell `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("an accepted notebook does not decode: %v", err)
	}
	type cell struct {
		CellType string `json:"cell_type"`
		Source   string `json:"source"`
	}
	out := struct {
		Cells []cell `json:"cells"`
	}{Cells: []cell{}}
	for _, c := range nb.Cells {
		out.Cells = append(out.Cells, cell{*c.CellType, string(c.Source)})
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ambiguousKeys reports whether an object of data has a key that equals
// one of the keys the converter reads (cells, cell_type, source) only when
// case is ignored, or has one of them twice: there the typed decoding
// (case-insensitive, first type error kept) and the generic one (exact,
// last value wins) may part ways on what is a broken file anyway.
func ambiguousKeys(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type container struct {
		object bool
		seen   map[string]bool
	}
	var stack []container
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				stack = append(stack, container{object: v == '{', seen: map[string]bool{}})
				expectKey = v == '{'
				continue
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			if expectKey {
				top := stack[len(stack)-1]
				for _, k := range []string{"cells", "cell_type", "source"} {
					if strings.EqualFold(v, k) {
						if v != k || top.seen[k] {
							return true
						}
						top.seen[k] = true
					}
				}
				expectKey = false
				continue
			}
		}
		// A value ended: in an object, a key comes next.
		expectKey = len(stack) > 0 && stack[len(stack)-1].object
	}
}
