//go:build cgo

package rure

import (
	"errors"
	"strings"
	"testing"
)

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		pattern string
		flags   uint32
		pos     int
		msg     string // substring of Message
	}{
		{`ab(cd`, FlagDefault, 2, "unclosed group"},
		{`abc)`, FlagDefault, 3, "unopened group"},
		{`x[b-a]`, FlagDefault, 2, "invalid character class range"},
		{`a{3,1}`, FlagDefault, 1, "invalid repetition count range"},
		{`*a`, FlagDefault, 0, "repetition operator missing expression"},
		{`xy\pQ`, FlagDefault, 2, "Unicode property not found"},
		{`(?z)`, FlagDefault, 2, "unrecognized flag"},
		{`\1`, FlagDefault, 0, "backreferences are not supported"},
		{`é(`, FlagDefault, 2, "unclosed group"}, // byte offset, not rune
		{`a  # (`, FlagDefault | FlagSpace, -1, ""},
		{"a\xffb", FlagDefault, 1, "not valid UTF-8"},
		{`(?-u:\xff)`, FlagDefault, -1, ""}, // valid: bytes regex
	}
	for _, tt := range tests {
		re, err := CompileOptions(tt.pattern, tt.flags, nil)
		if tt.pos < 0 {
			if err != nil {
				t.Errorf("%q: unexpected error %v", tt.pattern, err)
			} else {
				re.Close()
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: error %v (%T), want *Error", tt.pattern, err, err)
		}
		if e.Kind != KindSyntax || e.Pos != tt.pos || !strings.Contains(e.Message, tt.msg) || e.Pattern != tt.pattern {
			t.Errorf("%q: got %+v, want pos %d message containing %q", tt.pattern, *e, tt.pos, tt.msg)
		}
		if !strings.HasPrefix(err.Error(), "regex parse error") || !strings.Contains(err.Error(), "byte ") {
			t.Errorf("%q: error text %q lacks prefix or position", tt.pattern, err)
		}
	}
}

func TestSizeLimitError(t *testing.T) {
	opts := NewOptions()
	defer opts.Close()
	opts.SizeLimit(100)
	_, err := CompileOptions(`\w{50}`, FlagDefault, opts)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindLimit || e.Pos != -1 {
		t.Fatalf("err = %#v", err)
	}
	if !strings.HasPrefix(e.Error(), "regex parse error") || !strings.Contains(e.Error(), "size limit") {
		t.Errorf("text %q", e.Error())
	}

	_, err = NewLineMatcher(`\w{50}`, LineOptions{SizeLimit: 100})
	if !errors.As(err, &e) || e.Kind != KindLimit || e.Pos != -1 || !strings.Contains(e.Message, "size limit") {
		t.Fatalf("line matcher err = %#v", err)
	}
}

func TestLineMatcherErrors(t *testing.T) {
	tests := []struct {
		pattern   string
		multiline bool
		pos       int
	}{
		{`foo(`, false, 3},
		{`ab\ncd`, false, 2},
		{`ab\x0Acd`, false, 2},
		{"a\nb", false, 1},
		{`(x|\n)`, false, 3},
		{`ab\ncd`, true, -1},   // fine when multiline
		{`[\n]x`, false, -1},   // a class may lose its \n
		{`(?s)a.b`, false, -1}, // . never crosses lines anyway
	}
	for _, tt := range tests {
		m, err := NewLineMatcher(tt.pattern, LineOptions{Multiline: tt.multiline})
		if tt.pos < 0 {
			if err != nil {
				t.Errorf("%q: %v", tt.pattern, err)
			} else {
				m.Close()
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindSyntax || e.Pos != tt.pos {
			t.Errorf("%q: err = %#v, want syntax error at %d", tt.pattern, err, tt.pos)
			continue
		}
		if !strings.HasPrefix(err.Error(), "regex parse error") {
			t.Errorf("%q: text %q", tt.pattern, err)
		}
	}
}

func TestRustPanicBecomesError(t *testing.T) {
	before := liveObjects()
	err := nativeTestPanic()
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindInternal || !strings.Contains(e.Message, "panicked") {
		t.Fatalf("err = %#v", err)
	}
	if !strings.HasPrefix(e.Error(), "regex parse error") {
		t.Errorf("text %q", e.Error())
	}
	if liveObjects() != before {
		t.Errorf("panic message leaked: live %d -> %d", before, liveObjects())
	}
}

// A Rust panic during a line search comes back as an error from that call,
// never as a Go panic, and leaves the matcher usable for the next buffer.
func TestLineMatcherPanicIsError(t *testing.T) {
	m, err := NewLineMatcher(`b\w+`, LineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	buf := []byte("abc\nbar baz\n")
	before := liveObjects()
	checkInternal := func(what string, err error) {
		t.Helper()
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindInternal || e.Pattern != `b\w+` || !strings.Contains(e.Message, "panicked") {
			t.Errorf("%s: err = %#v, want a KindInternal error", what, err)
		}
	}
	panicInjections.Store(1)
	var h Hits
	checkInternal("FindLines", m.FindLines(buf, 0, &h))
	panicInjections.Store(1)
	_, _, err = m.CountLines(buf)
	checkInternal("CountLines", err)
	panicInjections.Store(1)
	_, err = m.IsMatch(buf)
	checkInternal("IsMatch", err)
	if liveObjects() != before {
		t.Errorf("panic messages leaked: live %d -> %d", before, liveObjects())
	}
	h.Reset()
	if err := m.FindLines(buf, 0, &h); err != nil || len(h.Lines) != 2 {
		t.Errorf("after the panics: FindLines = %d hits, %v; want 2, nil", len(h.Lines), err)
	}
	if l, n, err := m.CountLines(buf); err != nil || l != 2 || n != 3 {
		t.Errorf("after the panics: CountLines = %d,%d,%v; want 2,3,nil", l, n, err)
	}
}
