package notebook

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// Notebooks in the formats writers use: Jupyter's (indent 1, sorted keys,
// raw UTF-8, final newline), two-space indent with ASCII escapes and no
// final newline, JSON.stringify's one line, CRLF line breaks, string
// sources, an empty notebook.
var formats = map[string]string{
	"jupyter": `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "a1",
   "metadata": {},
   "source": [
    "# Données\n",
    "text"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 3,
   "id": "b2",
   "metadata": {
    "tags": []
   },
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "1\n"
     ]
    }
   ],
   "source": [
    "print(1)"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
`,
	"indent2ascii": "{\n  \"nbformat\": 4,\n  \"nbformat_minor\": 2,\n  \"metadata\": {},\n  \"cells\": [\n    {\n      \"cell_type\": \"markdown\",\n      \"metadata\": {},\n      \"source\": [\n        \"caf\\u00e9\"\n      ]\n    }\n  ]\n}",
	"oneline":      `{"cells":[{"cell_type":"code","metadata":{},"source":["a = 1\n","b = 2"],"execution_count":null,"outputs":[]}],"metadata":{},"nbformat":4,"nbformat_minor":4}`,
	"crlf":         "{\r\n \"cells\": [\r\n  {\r\n   \"cell_type\": \"raw\",\r\n   \"metadata\": {},\r\n   \"source\": \"x\\ny\"\r\n  }\r\n ],\r\n \"metadata\": {},\r\n \"nbformat\": 4,\r\n \"nbformat_minor\": 5\r\n}\r\n",
	"unsorted":     `{"cells":[{"source":["a"],"cell_type":"markdown","metadata":{}}],"metadata":{},"nbformat":4,"nbformat_minor":4}`,
	"empty":        "{\n \"cells\": [],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n",
}

// The text view written back unchanged gives the file byte for byte,
// and Doc.Text is read's Text.
func TestRoundTrip(t *testing.T) {
	for name, nb := range formats {
		d, err := Parse([]byte(nb))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, _ := Text([]byte(nb))
		if d.Text() != want {
			t.Errorf("%s: Doc.Text %q, Text %q", name, d.Text(), want)
		}
		out, err := d.Apply(d.Text())
		if err != nil || string(out) != nb {
			t.Errorf("%s: round trip gave %q, %v", name, out, err)
		}
	}
}

// Edits in each format: what changes is written in the file's style.
func TestApplyStyles(t *testing.T) {
	for _, c := range []struct {
		name, format, text, want string
	}{
		{"jupyter source", "jupyter", "# %% [markdown] cell:0\n# Données\ntext\n# %% [code] cell:1\nprint(2)\nprint(3)",
			strings.Replace(formats["jupyter"], `    "print(1)"`, "    \"print(2)\\n\",\n    \"print(3)\"", 1)},
		{"indent2 ascii", "indent2ascii", "# %% [markdown] cell:0\nnaïve 😀",
			strings.Replace(formats["indent2ascii"], `"caf\u00e9"`, `"na\u00efve \ud83d\ude00"`, 1)},
		{"oneline new cell", "oneline", "# %% [code] cell:0\na = 1\nb = 2\n# %% [markdown]\nhi",
			`{"cells":[{"cell_type":"code","metadata":{},"source":["a = 1\n","b = 2"],"execution_count":null,"outputs":[]},{"cell_type":"markdown","metadata":{},"source":["hi"]}],"metadata":{},"nbformat":4,"nbformat_minor":4}`},
		{"crlf string source", "crlf", "# %% [raw] cell:0\nz",
			strings.Replace(formats["crlf"], `"x\ny"`, `"z"`, 1)},
		{"empty gets a cell", "empty", "# %% [code]\nx",
			"{\n \"cells\": [\n  {\n   \"cell_type\": \"code\",\n   \"execution_count\": null,\n   \"id\": \"" + newID("x", map[string]bool{}) + "\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n    \"x\"\n   ]\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n"},
		{"all cells removed", "jupyter", "",
			strings.Replace(formats["jupyter"], formats["jupyter"][strings.Index(formats["jupyter"], "["):strings.Index(formats["jupyter"], "\n ],")+3], "[]", 1)},
		{"markdown to code in sorted place", "indent2ascii", "# %% [code] cell:0\nx",
			strings.Replace(formats["indent2ascii"], "\"cell_type\": \"markdown\",\n      \"metadata\": {},\n      \"source\": [\n        \"caf\\u00e9\"\n      ]",
				"\"cell_type\": \"code\",\n      \"execution_count\": null,\n      \"metadata\": {},\n      \"outputs\": [],\n      \"source\": [\n        \"x\"\n      ]", 1)},
		{"markdown to code at the end of unsorted keys", "unsorted", "# %% [code] cell:0\na",
			`{"cells":[{"source":["a"],"cell_type":"code","metadata":{},"execution_count":null,"outputs":[]}],"metadata":{},"nbformat":4,"nbformat_minor":4}`},
		{"code to markdown drops outputs", "oneline", "# %% [markdown] cell:0\na = 1\nb = 2",
			`{"cells":[{"cell_type":"markdown","metadata":{},"source":["a = 1\n","b = 2"]}],"metadata":{},"nbformat":4,"nbformat_minor":4}`},
	} {
		d, err := Parse([]byte(formats[c.format]))
		if err != nil {
			t.Fatal(err)
		}
		out, err := d.Apply(c.text)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if string(out) != c.want {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, out, c.want)
		}
		if !json.Valid(out) {
			t.Errorf("%s: not valid JSON", c.name)
		}
	}
}

// Markers naming cells the file does not have, and text before the
// first marker, are refused; a repeated number is a new cell.
func TestApplyRefuses(t *testing.T) {
	d, _ := Parse([]byte(formats["jupyter"]))
	var ce *CellError
	if _, err := d.Apply("# %% [code] cell:2\nx"); !errors.As(err, &ce) || ce.Index != 2 || ce.Cells != 2 || ce.Line != 1 {
		t.Errorf("cell:2 of 2: %v", err)
	}
	if _, err := d.Apply("# %% [code] cell:99999999999999999999999\nx"); !errors.As(err, &ce) {
		t.Errorf("huge cell number: %v", err)
	}
	if _, err := d.Apply("x\n# %% [code] cell:0"); err != errNoMarker {
		t.Errorf("text before the first marker: %v", err)
	}
	out, err := d.Apply("# %% [code] cell:1\nprint(1)\n# %% [code] cell:1\nprint(1)")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := Text(out)
	if want := "# %% [code] cell:0\nprint(1)\n# %% [code] cell:1\nprint(1)"; got != want {
		t.Errorf("repeated cell: %q", got)
	}
	if strings.Count(string(out), `"output_type"`) != 1 {
		t.Errorf("the copy of a cell has its outputs too:\n%s", out)
	}
}

// Notebooks where a key the view reads is there twice or in another
// case are refused for editing.
func TestParseAmbiguous(t *testing.T) {
	for _, nb := range []string{
		`{"cells": [{"cell_type": "code", "source": "a", "source": "b"}]}`,
		`{"cells": [{"cell_type": "code", "Source": "a"}]}`,
		`{"cells": [], "Cells": []}`,
	} {
		if _, err := Parse([]byte(nb)); err == nil {
			t.Errorf("%s: accepted", nb)
		}
	}
}

// FuzzEditRoundTrip: for any notebook Parse accepts whose view is
// unambiguous (no source line looks like a marker), writing the view
// back unchanged gives the file byte for byte; adding a cell and
// changing the first one give valid JSON whose view is the edited text,
// with the other cells' bytes kept.
func FuzzEditRoundTrip(f *testing.F) {
	for _, nb := range formats {
		f.Add([]byte(nb))
	}
	f.Add([]byte(`{"cells": [{"cell_type": "code", "source": null}, {"cell_type": "raw"}], "metadata": {"x": "\u2028"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data)
		if err != nil {
			return
		}
		text := d.Text()
		if want, err := Text(data); err != nil || want != text {
			t.Fatalf("Doc.Text %q, Text %q %v", text, want, err)
		}
		for _, c := range d.parsed {
			for _, l := range strings.Split(c.source, "\n") {
				if markerRE.MatchString(l) {
					return
				}
			}
		}
		out, err := d.Apply(text)
		if err != nil || string(out) != string(data) {
			t.Fatalf("round trip of %q gave %q, %v", data, out, err)
		}
		added := text + "\n# %% [markdown]\nadded"
		if text == "" {
			added = "# %% [markdown]\nadded"
		}
		out, err = d.Apply(added)
		if err != nil {
			t.Fatalf("adding a cell to %q: %v", data, err)
		}
		want := strings.Replace(added, "# %% [markdown]\nadded", marker("markdown", d.Cells())+"\nadded", 1)
		if got, err := Text(out); err != nil || got != want || !json.Valid(out) {
			t.Fatalf("adding a cell to %q gave %q: view %q, %v; want %q", data, out, got, err, want)
		}
		if d.Cells() > 0 {
			changed := marker("code", 0) + "\nchanged \"ü\"\n" + strings.TrimPrefix(text, cellText(d.parsed[0].kind, 0, d.parsed[0].source))
			out, err = d.Apply(changed)
			if err != nil {
				t.Fatalf("changing cell 0 of %q: %v", data, err)
			}
			if got, err := Text(out); err != nil || got != changed || !json.Valid(out) {
				t.Fatalf("changing cell 0 of %q gave %q: view %q, %v; want %q", data, out, got, err, changed)
			}
			if len(d.elems) > 1 && !strings.HasSuffix(string(out), string(data[d.elems[1].start:])) {
				t.Fatalf("changing cell 0 of %q changed what follows it: %q", data, out)
			}
		}
	})
}

// FuzzApply applies any edited text to a Jupyter notebook: it is refused
// with one of Apply's errors, or gives valid JSON whose text view shows
// the edited cells (their markers numbered in order), and which Parse
// takes again.
func FuzzApply(f *testing.F) {
	for _, s := range []string{
		"# %% [markdown] cell:0\n# Données\ntext\n# %% [code] cell:1\nprint(1)",
		"# %% [code] cell:1\nx\n# %% [raw]\n\n# %% [markdown] cell:0\n",
		"", "x", "# %% [code] cell:7", "# %% [code] cell:1\n# %% [code] cell:1\n\"\\\u00e9\t\x01",
	} {
		f.Add(s)
	}
	d, err := Parse([]byte(formats["jupyter"]))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		out, err := d.Apply(text)
		var ce *CellError
		if err != nil {
			if !errors.As(err, &ce) && err != errNoMarker {
				t.Fatalf("Apply(%q): unexpected error %v", text, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Apply(%q) is not JSON: %q", text, out)
		}
		if !utf8.ValidString(text) {
			return // the model's text comes from JSON: always UTF-8
		}
		cells, err := parseView(text)
		if err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(cells))
		for i, c := range cells {
			parts[i] = cellText(c.kind, i, c.source)
		}
		want := strings.Join(parts, "\n")
		got, err := Text(out)
		if err != nil || got != want {
			t.Fatalf("Apply(%q): view %q, %v; want %q", text, got, err, want)
		}
		if data, view, err := d.ApplyView(text); err != nil || view != want || string(data) != string(out) {
			t.Fatalf("ApplyView(%q): view %q, %v; want %q", text, view, err, want)
		}
		if _, err := Parse(out); err != nil {
			t.Fatalf("Apply(%q) does not parse again: %v", text, err)
		}
	})
}
