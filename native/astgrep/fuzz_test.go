//go:build cgo

package astgrep

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// fuzzLangs are the languages the fuzz targets pick from (by a byte).
var fuzzLangs = []string{"go", "javascript", "typescript", "tsx", "python", "rust", "c", "cpp", "java", "ruby", "json", "bash", "css", "html", "yaml", "php", "kotlin", "lua"}

func fuzzLang(b byte) string { return fuzzLangs[int(b)%len(fuzzLangs)] }

// FuzzCompile compiles arbitrary patterns (with an arbitrary rewrite) for
// every language: it must answer with a matcher or an error, never crash,
// and a compiled matcher must search a small source cleanly.
func FuzzCompile(f *testing.F) {
	f.Add(byte(0), "fmt.Errorf($$$A)", "errors.New($A)")
	f.Add(byte(1), "console.log($$$ARGS)", "")
	f.Add(byte(4), "def $F($$$A):\n    $$$B", "$F")
	f.Add(byte(5), "$A.unwrap()", "$A?")
	f.Add(byte(0), "$$$", "x")
	f.Add(byte(2), "$_", "$$$$")
	f.Add(byte(10), `{"a": $V}`, "")
	f.Fuzz(func(t *testing.T, li byte, pattern, rewrite string) {
		lang := fuzzLang(li)
		defer watchdog(lang, pattern, rewrite)()
		m, err := Compile(lang, []Rule{{Pattern: pattern, Rewrite: rewrite, HasRewrite: len(rewrite)%2 == 0}}, Strictness(int(li)%6))
		if err != nil {
			if strings.Contains(err.Error(), "panicked") {
				t.Fatalf("native panic compiling %q for %s: %v", pattern, lang, err)
			}
			return
		}
		defer m.Close()
		if _, err := m.Describe(); err != nil {
			t.Fatal(err)
		}
		res, err := m.Search([]Input{{Path: "x", Data: []byte(pattern + "\n" + pattern)}}, Options{Captures: true, Edits: true})
		if err != nil {
			t.Fatalf("search: %v", err)
		}
		checkResult(t, []byte(pattern+"\n"+pattern), res[0])
	})
}

// FuzzMatch matches random patterns against random sources and checks
// the result's invariants, and that the literal prefilter and the pruned
// tree walk (the fast path) never change the answer against parsing every
// input and walking every node (the reference).
func FuzzMatch(f *testing.F) {
	f.Add(byte(0), "f($A)", "package p\nvar x = f(1) + f(f(2))\n")
	f.Add(byte(0), "f($A)", "package p\n\nimport \"x\"\n\nfunc a() {\n\tf(1)\n}\n\nfunc b() {}\n\nvar s = `\nfunc c() { f(2) }\n`\n\ntype T struct{}\n\nfunc (T) m() { g(f(3)) }\n")
	f.Add(byte(0), "errors.Is($E, $T)", "package p\n\nfunc a() {\n\tif errors.Is(err, x) {}\n}\n\nfunc b() {\nerrors.Is(a, b)\n\nfunc c() {}\n")
	f.Add(byte(1), "$A === $A", "if (a === a && b === c) {}\n")
	f.Add(byte(4), "print($$$A)", "print(1, 2)\nprint()\ndef (:\n")
	f.Add(byte(5), "let $X = $Y;", "fn main() { let a = 1; let b = vec![1]; }")
	f.Add(byte(2), "$E as any", "const é = (x as any) as any;\n")
	f.Add(byte(3), "<div $$$P>$$$C</div>", "const a = <div id=\"x\">hi<b/></div>;\n")
	f.Add(byte(6), "malloc($N)", strings.Repeat("{", 500)+"malloc(1)"+strings.Repeat("}", 500))
	f.Fuzz(func(t *testing.T, li byte, pattern, src string) {
		lang := fuzzLang(li)
		defer watchdog(lang, pattern, src)()
		m, err := Compile(lang, []Rule{{Pattern: pattern, Rewrite: "$A", HasRewrite: true}}, Smart)
		if err != nil {
			return
		}
		defer m.Close()
		in := []Input{{Path: "x", Data: []byte(src)}}
		fast, err := m.Search(in, Options{Captures: true, Edits: true})
		if err != nil {
			t.Fatal(err)
		}
		slow, err := m.Search(in, Options{Captures: true, Edits: true, NoPrefilter: true})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, []byte(src), fast[0])
		checkResult(t, []byte(src), slow[0])
		if fast[0].Status == Skipped {
			if len(slow[0].Matches) != 0 {
				t.Fatalf("prefilter skipped a source with %d matches: %q in %q", len(slow[0].Matches), pattern, src)
			}
			return
		}
		if len(fast[0].Matches) != len(slow[0].Matches) {
			t.Fatalf("prefilter changed the match count %d -> %d", len(slow[0].Matches), len(fast[0].Matches))
		}
		// The pruned walk must find the very same nodes as the full one.
		for i, fm := range fast[0].Matches {
			sm := slow[0].Matches[i]
			if fm.Start != sm.Start || fm.End != sm.End || fm.Text != sm.Text || len(fm.Captures) != len(sm.Captures) {
				t.Fatalf("match %d differs with the prefilter: %+v, without: %+v", i, fm, sm)
			}
		}
		// Without edits a Go source may be parsed declaration by
		// declaration (only those holding the literals): the same nodes.
		parts, err := m.Search(in, Options{Captures: true})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, []byte(src), parts[0])
		if parts[0].Status == Skipped {
			return
		}
		if len(parts[0].Matches) != len(slow[0].Matches) {
			t.Fatalf("parsing by parts changed the match count %d -> %d: %q in %q", len(slow[0].Matches), len(parts[0].Matches), pattern, src)
		}
		for i, pm := range parts[0].Matches {
			sm := slow[0].Matches[i]
			if pm.Start != sm.Start || pm.End != sm.End || pm.Text != sm.Text || len(pm.Captures) != len(sm.Captures) {
				t.Fatalf("match %d differs parsed by parts: %+v, whole: %+v", i, pm, sm)
			}
		}
	})
}

// watchdog crashes the fuzz worker when one input runs longer than 20 s,
// so the fuzzer records a hang as a failing input instead of stalling.
func watchdog(lang, a, b string) (stop func()) {
	t := time.AfterFunc(20*time.Second, func() {
		panic(fmt.Sprintf("input ran for over 20s: lang %s, %q, %q", lang, a, b))
	})
	return func() { t.Stop() }
}

// checkResult verifies a result's invariants against its source.
func checkResult(t *testing.T, src []byte, r FileResult) {
	t.Helper()
	if r.Status != Searched {
		return
	}
	if !utf8.Valid(src) {
		t.Fatalf("non-UTF-8 source searched")
	}
	prev := -1
	for _, m := range r.Matches {
		if m.Start.Offset < 0 || m.End.Offset < m.Start.Offset || m.End.Offset > len(src) {
			t.Fatalf("match range %d-%d outside source of %d bytes", m.Start.Offset, m.End.Offset, len(src))
		}
		if string(src[m.Start.Offset:m.End.Offset]) != m.Text {
			t.Fatalf("match text %q is not the source range %q", m.Text, src[m.Start.Offset:m.End.Offset])
		}
		if !strings.Contains(m.Lines, m.Text) {
			t.Fatalf("lines %q do not contain the match %q", m.Lines, m.Text)
		}
		if m.Start.Offset < prev {
			t.Fatalf("matches not sorted")
		}
		prev = m.Start.Offset
		for _, c := range m.Captures {
			if c.Transformed { // a transform's result: text only
				if len(c.Nodes) != 1 || c.Nodes[0].Start.Offset != 0 || c.Nodes[0].End.Offset != 0 {
					t.Fatalf("transformed capture %s: %+v", c.Name, c.Nodes)
				}
				continue
			}
			for _, n := range c.Nodes {
				if n.End.Offset > len(src) || string(src[n.Start.Offset:n.End.Offset]) != n.Text {
					t.Fatalf("capture %s text %q does not match its range", c.Name, n.Text)
				}
			}
		}
		if m.Edit != nil && (m.Edit.Start < 0 || m.Edit.End > len(src) || m.Edit.Start > m.Edit.End) {
			t.Fatalf("edit range %d-%d outside the source", m.Edit.Start, m.Edit.End)
		}
	}
}

// FuzzRuleDocument compiles arbitrary ast-grep rule documents (the YAML
// ast-grep's rule engine reads, from untrusted rule files) for a language
// and runs them over a source: an error or a result, never a native panic
// or crash, and a result whose ranges and edits fit the source.
func FuzzRuleDocument(f *testing.F) {
	f.Add(byte(0), "id: r\nlanguage: go\nrule:\n  kind: call_expression\n  inside: {kind: for_statement, stopBy: end}\nfix: g()\n", "package p\nfunc f() { for { h() } }\n")
	f.Add(byte(4), "id: r\nlanguage: python\nrule:\n  pattern: print($$$A)\n  not: {inside: {kind: if_statement, stopBy: end}}\nconstraints:\n  A: {kind: integer}\nfix: log($$$A)\n", "print(1)\nif x:\n    print(2)\n")
	f.Add(byte(1), `{"id": "r", "language": "javascript", "rule": {"kind": "number", "inside": {"kind": "arguments"}}, "fix": {"template": "", "expandEnd": {"regex": ","}}}`, "f(1, 2)\n")
	f.Add(byte(5), "id: r\nlanguage: rust\nrule:\n  any: [{pattern: todo!()}, {kind: macro_invocation, has: {kind: identifier, regex: ^un}}]\n", "fn main() { todo!(); unimplemented!() }\n")
	f.Add(byte(4), "id: r\nlanguage: python\nrule: {pattern: $N = $V}\ntransform:\n  U: {convert: {source: $N, toCase: upperCase}}\nutils:\n  u: {kind: integer}\nconstraints:\n  V: {matches: u}\nfix: $U = $V\n", "a = 1\n")
	f.Add(byte(0), "id: r\nlanguage: go\nrule: {nthChild: {position: 2, ofRule: {kind: identifier}}, kind: identifier}\n", "package p\nvar a, b, c = 1, 2, 3\n")
	f.Add(byte(0), "rule: [", "")
	f.Fuzz(func(t *testing.T, li byte, doc, src string) {
		lang := fuzzLang(li)
		defer watchdog(lang, doc, src)()
		m, err := Compile(lang, []Rule{{Pattern: "r", Config: doc}}, Smart)
		if err != nil {
			if strings.Contains(err.Error(), "panicked") {
				t.Fatalf("native panic compiling %q for %s: %v", doc, lang, err)
			}
			return
		}
		defer m.Close()
		in := []Input{{Path: "x", Data: []byte(src)}}
		res, err := m.Search(in, Options{Captures: true, Edits: true})
		if err != nil {
			t.Fatalf("search: %v", err)
		}
		checkResult(t, []byte(src), res[0])
		// The literal prefilter must not change the answer.
		all, err := m.Search(in, Options{Captures: true, Edits: true, NoPrefilter: true})
		if err != nil {
			t.Fatalf("search: %v", err)
		}
		checkResult(t, []byte(src), all[0])
		if res[0].Status == Skipped && len(all[0].Matches) > 0 || res[0].Status != Skipped && len(res[0].Matches) != len(all[0].Matches) {
			t.Fatalf("prefilter changed the result: %d matches (%s), without: %d", len(res[0].Matches), res[0].Status, len(all[0].Matches))
		}
	})
}
