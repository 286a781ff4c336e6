//go:build cgo

package astgrep

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func mustCompile(t testing.TB, lang string, rules ...Rule) *Matcher {
	t.Helper()
	m, err := Compile(lang, rules, Smart)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func searchOne(t testing.TB, m *Matcher, src string, opts Options) FileResult {
	t.Helper()
	res, err := m.Search([]Input{{Path: "buf", Data: []byte(src)}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res[0]
}

func TestSearchCapturesAndEdits(t *testing.T) {
	m := mustCompile(t, "javascript", Rule{Pattern: "console.log($A, $$$REST)", Rewrite: "log($A)", HasRewrite: true})
	r := searchOne(t, m, "let x;\n  console.log(a, b, c);\n", Options{Captures: true, Edits: true})
	if r.Status != Searched || len(r.Matches) != 1 {
		t.Fatalf("got %+v", r)
	}
	got := r.Matches[0]
	if got.Start != (Pos{Line: 1, Column: 2, Offset: 9}) || got.Text != "console.log(a, b, c)" || got.Lines != "  console.log(a, b, c);" {
		t.Fatalf("match %+v", got)
	}
	if len(got.Captures) != 2 || got.Captures[0].Name != "A" || got.Captures[0].Nodes[0].Text != "a" {
		t.Fatalf("captures %+v", got.Captures)
	}
	rest := got.Captures[1]
	if rest.Name != "REST" || !rest.Multi || len(rest.Nodes) < 2 {
		t.Fatalf("multi capture %+v", rest)
	}
	if got.Edit == nil || got.Edit.Replacement != "log(a)" || got.Edit.Start != 9 || got.Edit.End != 29 {
		t.Fatalf("edit %+v", got.Edit)
	}
}

func TestCompileErrors(t *testing.T) {
	cases := []struct{ lang, pat, want string }{
		{"klingon", "x", "not linked"},
		{"javascript", "a; b", "Multiple AST nodes"},
		{"go", "", "empty pattern"},
		{"python", "$$$A", "Standalone multi meta variable"},
	}
	for _, c := range cases {
		_, err := Compile(c.lang, []Rule{{Pattern: c.pat}}, Smart)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: err %v, want %q", c.lang, c.pat, err, c.want)
		}
	}
	_, err := Compile("go", []Rule{{Pattern: "f($A)"}, {Pattern: "a; b"}}, Smart)
	var ce *CompileError
	if !errors.As(err, &ce) || ce.Rule != 1 || ce.Pattern != "a; b" {
		t.Fatalf("err %#v", err)
	}
}

func TestGoAmbiguousCall(t *testing.T) {
	m := mustCompile(t, "go", Rule{Pattern: "fmt.Errorf($$$A)"})
	info, err := m.Describe()
	if err != nil || len(info) != 2 || info[0].RootKind != "type_conversion_expression" || info[1].RootKind != "call_expression" {
		t.Fatalf("describe %+v %v", info, err)
	}
	src := "package p\n\nfunc f() error {\n\tif x {\n\t\treturn fmt.Errorf(\"a %d\", 1)\n\t}\n\treturn fmt.Errorf(\"b\")\n}\n"
	r := searchOne(t, m, src, Options{})
	if len(r.Matches) != 2 || r.Matches[0].Start.Line != 4 || r.Matches[1].Start.Line != 6 {
		t.Fatalf("matches %+v", r.Matches)
	}
}

func TestFileStatuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.py", "print(1)\n")
	skip := write("skip.py", "x = 1\n")
	bin := write("bin.py", "print(1)\x00\n")
	bad := write("bad.py", "print(1) \xff\n")
	// The error is in the declaration that holds the match: a declaration
	// without the pattern's literals may not be parsed at all.
	syntax := write("syntax.py", "print(2)\nx = (:\n")
	big := write("big.py", "print(3)\n"+strings.Repeat("#\n", 100))
	m := mustCompile(t, "python", Rule{Pattern: "print($A)"})
	in := []Input{{Path: ok}, {Path: skip}, {Path: bin}, {Path: bad}, {Path: syntax}, {Path: big}, {Path: filepath.Join(dir, "missing.py")}}
	res, err := m.Search(in, Options{MaxFileSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	want := []Status{Searched, Skipped, Binary, NotUTF8, Searched, TooLarge, ReadError}
	for i, w := range want {
		if res[i].Status != w {
			t.Errorf("%s: status %v (%s), want %v", in[i].Path, res[i].Status, res[i].Message, w)
		}
	}
	if !res[4].SyntaxError || len(res[4].Matches) != 1 || !strings.Contains(res[4].Message, "line 2") {
		t.Errorf("syntax file: %+v", res[4])
	}
	// Without the prefilter the skipped file is parsed (and has no match).
	res, _ = m.Search(in[1:2], Options{NoPrefilter: true})
	if res[0].Status != Searched || len(res[0].Matches) != 0 {
		t.Errorf("no prefilter: %+v", res[0])
	}
}

func TestCancelAndTimeout(t *testing.T) {
	m := mustCompile(t, "javascript", Rule{Pattern: "foo($A)"})
	big := []byte(strings.Repeat("foo(a + b * c - d);\n", 200000))
	c := NewCanceller()
	defer c.Close()
	c.Cancel()
	res, err := m.Search([]Input{{Path: "a", Data: big}, {Path: "b", Data: big}}, Options{Cancel: c})
	if !errors.Is(err, ErrCancelled) || res[1].Status != Stopped {
		t.Fatalf("cancel: %v %+v", err, res[0].Status)
	}
	start := time.Now()
	_, err = m.Search([]Input{{Path: "a", Data: big}, {Path: "b", Data: big}}, Options{Timeout: time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("timeout: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("timeout took %v", d)
	}
}

func TestConcurrentSearch(t *testing.T) {
	m := mustCompile(t, "rust", Rule{Pattern: "println!($$$A)"})
	src := []byte("fn main() { println!(\"a\"); println!(\"{}\", 1); }\n")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				res, err := m.Search([]Input{{Path: "x", Data: src}}, Options{Captures: true})
				if err != nil || len(res[0].Matches) != 2 {
					t.Errorf("got %v %+v", err, res)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestNoLeaks(t *testing.T) {
	before := liveObjects()
	for i := range 300 {
		m, err := Compile("go", []Rule{{Pattern: "f($A)", Rewrite: "g($A)", HasRewrite: true}}, Smart)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Search([]Input{{Path: "x", Data: []byte("package p\nvar x = f(1)\n")}}, Options{Captures: true, Edits: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Describe(); err != nil {
			t.Fatal(err)
		}
		m.Close()
		if _, err := Compile("go", []Rule{{Pattern: "a; b; c("}}, Smart); err == nil && i == 0 {
			t.Log("pattern accepted")
		}
		c := NewCanceller()
		c.Close()
		_ = Languages()
	}
	if after := liveObjects(); after != before {
		t.Fatalf("live native objects %d -> %d", before, after)
	}
}

func TestPanicDoesNotCrossBoundary(t *testing.T) {
	if msg := nativePanic(); !strings.Contains(msg, "panicked") {
		t.Fatalf("message %q", msg)
	}
}

func TestLanguages(t *testing.T) {
	langs := Languages()
	if len(langs) < 25 || langs[0] != "bash" {
		t.Fatalf("languages %v", langs)
	}
}

func TestDecodeRejectsCorruptBuffers(t *testing.T) {
	m := mustCompile(t, "go", Rule{Pattern: "f($A)"})
	_ = m
	for _, b := range [][]byte{nil, {1, 0, 0, 0}, {1, 0, 0, 0, 0, 0, 255, 255, 255, 255}} {
		if _, err := decodeResults(b, 1); err == nil {
			t.Errorf("%v decoded", b)
		}
	}
}

// TestCancelWhileClosing cancels from another goroutine while the flag is
// being closed, as a context callback can when a search ends at its
// deadline; run under -race it checks Cancel and Close are ordered.
func TestCancelWhileClosing(t *testing.T) {
	for range 200 {
		c := NewCanceller()
		done := make(chan struct{})
		go func() {
			c.Cancel()
			close(done)
		}()
		c.Close()
		<-done
		c.Cancel() // after Close: nothing to do, no crash
		c.Close()
	}
}

// TestClosedMatcherErrors checks a closed Matcher answers with errors
// instead of handing the library a freed pointer.
func TestClosedMatcherErrors(t *testing.T) {
	m := mustCompile(t, "go", Rule{Pattern: "f($A)"})
	m.Close()
	if _, err := m.Describe(); err == nil {
		t.Fatal("Describe on a closed Matcher succeeded")
	}
	if _, err := m.Search([]Input{{Path: "x.go", Data: []byte("package p")}}, Options{}); err == nil {
		t.Fatal("Search on a closed Matcher succeeded")
	}
}

// TestMinifiedLineStaysLinear searches a one-line file with thousands of
// matches: the line's text must be sent and decoded once, not once per
// match (which cost memory quadratic in the line length), and columns on
// the long line must still be exact.
func TestMinifiedLineStaysLinear(t *testing.T) {
	const calls = 5000
	src := []byte(strings.Repeat("a(1);", calls) + "\n")
	m := mustCompile(t, "javascript", Rule{Pattern: "a($A)"})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := searchOne(t, m, string(src), Options{Captures: true})
	runtime.ReadMemStats(&after)
	if len(r.Matches) != calls {
		t.Fatalf("%d matches, want %d", len(r.Matches), calls)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 20<<20 {
		t.Errorf("decoding allocated %d MB for a %d-byte file", grown>>20, len(src))
	}
	for i, mt := range r.Matches {
		if mt.Start.Column != 5*i || mt.Start.Offset != 5*i || mt.Lines != string(src[:len(src)-1]) {
			t.Fatalf("match %d at column %d offset %d", i, mt.Start.Column, mt.Start.Offset)
		}
		if c := mt.Captures[0].Nodes[0]; c.Start.Column != 5*i+2 {
			t.Fatalf("capture of match %d at column %d", i, c.Start.Column)
		}
	}
}

// TestNestedMatchesStayLinear searches a file of deeply nested blocks,
// where every match holds all the matches inside it: each text used to be
// copied out of the native side on its own, which took memory quadratic in
// the depth (20,000 nested ifs took 7 GB). The source is now sent once and
// every text is a substring of it.
func TestNestedMatchesStayLinear(t *testing.T) {
	const depth = 2000
	src := "package p\nfunc f() {\n" + strings.Repeat("if x {\n", depth) + strings.Repeat("}\n", depth) + "}\n"
	m := mustCompile(t, "go", Rule{Pattern: "if $C { $$$B }"})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := searchOne(t, m, src, Options{Captures: true})
	runtime.ReadMemStats(&after)
	if len(r.Matches) != depth {
		t.Fatalf("%d matches, want %d", len(r.Matches), depth)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 4<<20 {
		t.Errorf("decoding allocated %d MB for a %d-byte file", grown>>20, len(src))
	}
	checkResult(t, []byte(src), r)
}

// TestDecodeRejectsBadTextRanges checks that a match whose text lies
// outside the source segments the buffer carries is refused.
func TestDecodeRejectsBadTextRanges(t *testing.T) {
	le32 := func(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }
	le64 := func(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }
	pos := func(b []byte, off uint64) []byte { return le64(le32(le32(b, 0), uint32(off)), off) }
	build := func(segOff uint64, seg string, start, end, linesLo, linesHi uint64) []byte {
		b := le32(nil, 1)
		b = append(b, 0, 0) // status, syntax error
		b = le32(b, 0)      // message
		b = le32(b, 1)      // one match
		b = le32(b, 1)      // one segment
		b = le64(b, segOff)
		b = le32(b, uint32(len(seg)))
		b = append(b, seg...)
		b = le32(b, 0) // rule
		b = pos(b, start)
		b = pos(b, end)
		b = le64(b, linesLo)
		b = le64(b, linesHi)
		b = le32(b, 0) // captures
		return append(b, 0)
	}
	good := build(10, "f(x)", 10, 14, 10, 14)
	res, err := decodeResults(good, 1)
	if err != nil || res[0].Matches[0].Text != "f(x)" || res[0].Matches[0].Lines != "f(x)" {
		t.Fatalf("good buffer: %+v, %v", res, err)
	}
	for name, b := range map[string][]byte{
		"text before the segment": build(10, "f(x)", 9, 12, 10, 14),
		"text past the segment":   build(10, "f(x)", 11, 15, 10, 14),
		"lines reversed":          build(10, "f(x)", 10, 14, 14, 10),
		"no segment below":        build(10, "f(x)", 2, 3, 10, 14),
	} {
		if _, err := decodeResults(b, 1); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

// TestPathsAreBytes searches a file whose name is not UTF-8 next to an
// ordinary one: both are searched (the name used to fail the whole batch),
// and a FIFO is refused at once instead of blocking the read.
func TestPathsAreBytes(t *testing.T) {
	dir := t.TempDir()
	odd := filepath.Join(dir, "caf\xe9.py")
	plain := filepath.Join(dir, "a.py")
	for _, p := range []string{odd, plain} {
		if err := os.WriteFile(p, []byte("print(1)\n"), 0o644); err != nil {
			t.Skipf("cannot create %q here: %v", p, err)
		}
	}
	in := []Input{{Path: odd}, {Path: plain}}
	fifo := filepath.Join(dir, "pipe.py")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		in = append(in, Input{Path: fifo})
	}
	m := mustCompile(t, "python", Rule{Pattern: "print($A)"})
	done := make(chan struct{})
	var res []FileResult
	var err error
	go func() {
		res, err = m.Search(in, Options{})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("search blocked on a FIFO")
	}
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if res[i].Status != Searched || len(res[i].Matches) != 1 {
			t.Errorf("%q: status %v, %d matches", in[i].Path, res[i].Status, len(res[i].Matches))
		}
	}
	if len(in) == 3 && res[2].Status != ReadError {
		t.Errorf("FIFO: status %v (%s)", res[2].Status, res[2].Message)
	}
}
