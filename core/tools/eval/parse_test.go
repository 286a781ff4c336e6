package eval

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// cellString is a cell's canonical form for the table below.
func cellString(c Cell) string {
	return fmt.Sprintf("%s explicit=%v title=%q t=%s rst=%v code=%q", c.Language, c.Explicit, c.Title, c.Timeout, c.Reset, c.Code)
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
		aborted  bool
	}{
		{"canonical", "*** Cell py:\"load\" t:10s rst\nx = 1\n\n*** Cell js:\"\"\nconsole.log(1)\n", []string{
			`python explicit=true title="load" t=10s rst=true code="x = 1"`,
			`js explicit=true title="" t=30s rst=false code="console.log(1)"`,
		}, false},
		{"no header, sniffed js", "const a = 1;\nconsole.log(a)", []string{`js explicit=false title="" t=30s rst=false code="const a = 1;\nconsole.log(a)"`}, false},
		{"no header, default python", "1 + 1", []string{`python explicit=false title="" t=30s rst=false code="1 + 1"`}, false},
		{"fence", "```js\nlet x = 2\n```", []string{`js explicit=true title="" t=30s rst=false code="let x = 2"`}, false},
		{"aliases and order", "**cell  TITLE:'a b' timeout:2m reset:yes python\nprint(1)\n*** End\n", []string{`python explicit=true title="a b" t=2m0s rst=true code="print(1)"`}, false},
		{"positional title and duration", "*** Cell js my step 500ms\nx", []string{`js explicit=true title="my step" t=1s rst=false code="x"`}, false},
		{"clamped", "*** Cell py t:20m\nx", []string{`python explicit=true title="" t=10m0s rst=false code="x"`}, false},
		{"sniffed header-less cell", "*** Cell t:5s\ndef f():\n    pass", []string{`python explicit=false title="" t=5s rst=false code="def f():\n    pass"`}, false},
		{"abort drops the cut cell", "*** Cell py\na = 1\n*** End\n*** Cell py\nb =\n*** Abort\n", []string{`python explicit=true title="" t=30s rst=false code="a = 1"`}, true},
		{"crlf", "*** Cell py\r\nx = 1\r\n", []string{`python explicit=true title="" t=30s rst=false code="x = 1"`}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := Parse(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range in.Cells {
				got = append(got, cellString(c))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") || in.Aborted != tc.aborted {
				t.Fatalf("got\n%s\naborted=%v\nwant\n%s", strings.Join(got, "\n"), in.Aborted, strings.Join(tc.want, "\n"))
			}
		})
	}
}

// Values that cannot be understood are refused with the header, the
// expected form and the canonical header.
func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"*** Cell py t:soon\nx":   `eval: cell header "*** Cell py t:soon" (line 1): timeout "soon" is not a duration; write t:<digits> with an optional ms, s or m unit, such as t:500ms, t:45s or t:2m (a header reads *** Cell py:"title" t:30s rst)`,
		"x\n":                     "",
		"*** Cell py rst:maybe\n": `eval: cell header "*** Cell py rst:maybe" (line 1): rst value "maybe" is not a boolean; write rst alone, or rst:true / rst:false (a header reads *** Cell py:"title" t:30s rst)`,
	} {
		_, err := Parse(in)
		if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func TestSniff(t *testing.T) {
	for code, want := range map[string]Language{
		"#!/usr/bin/env python3\nx":     Python,
		"#!/usr/bin/env node\nx":        JS,
		"import os\nprint(os.getcwd())": Python,
		"const x = require('fs')":       JS,
		"x + 1":                         "",
	} {
		if got, _ := Sniff(code); got != want {
			t.Errorf("%q: %q, want %q", code, got, want)
		}
	}
	if ClampTimeout(0) != time.Second {
		t.Error("clamp")
	}
}

// FuzzParse: any input parses or fails with a one-line message; cells
// keep timeouts in bounds, and in input that starts with a header no
// cell holds a header line.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"*** Cell py:\"a\" t:1s rst\nx=1\n*** Cell js\ny\n*** End", "```py\nx\n```", "** cell 'unclosed\nx\n*** Abort", "*** Cell t:99999999999999999999999m\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in, err := Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		headed := false
		for _, l := range strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n") {
			if strings.TrimSpace(l) != "" {
				headed = cellLine().MatchString(l)
				break
			}
		}
		for _, c := range in.Cells {
			if c.Timeout < MinTimeout || c.Timeout > MaxTimeout {
				t.Fatalf("timeout %v", c.Timeout)
			}
			for _, l := range strings.Split(c.Code, "\n") {
				if !headed {
					break // input without a leading header is one cell, whatever it holds
				}
				if cellLine().MatchString(l) {
					t.Fatalf("a header in the code: %q", c.Code)
				}
			}
		}
	})
}
