//go:build cgo

package outline

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// TestBodies checks the spans found per language.
func TestBodies(t *testing.T) {
	cases := []struct {
		lang, src string
		want      []Span
	}{
		{"go", "package p\n\nfunc f() {\n\ta()\n\tb()\n}\n\nfunc g() { x() }\n", []Span{{4, 5}}},
		{"python", "class C:\n    def m(self):\n        a()\n        b()\n\nx = 1\n", []Span{{3, 4}}},
		{"typescript", "export class C {\n  m(): void {\n    a();\n  }\n}\nconst f = (x: number) => {\n  return x;\n};\nconst g = (x: number) =>\n  x;\n", []Span{{3, 3}, {7, 7}}},
		{"rust", "impl S {\n    fn f(&self) {\n        a();\n    }\n}\n", []Span{{3, 3}}},
	}
	for _, c := range cases {
		got, err := Bodies(context.Background(), c.lang, []byte(c.src), 1)
		if err != nil {
			t.Fatalf("%s: %v", c.lang, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.lang, got, c.want)
		}
	}
}

// TestBodiesMinLines checks short bodies are kept.
func TestBodiesMinLines(t *testing.T) {
	got, err := Bodies(context.Background(), "go", []byte("package p\n\nfunc f() {\n\ta()\n\tb()\n}\n"), 3)
	if err != nil || len(got) != 0 {
		t.Fatalf("got %v, %v", got, err)
	}
}

// TestBodiesErrors checks broken and unknown input.
func TestBodiesErrors(t *testing.T) {
	if _, err := Bodies(context.Background(), "go", []byte("package p\nfunc f( {\n"), 1); !errors.Is(err, ErrSyntax) {
		t.Errorf("syntax error: %v", err)
	}
	if _, err := Bodies(context.Background(), "cobol", nil, 1); !errors.Is(err, ErrUnsupported) {
		t.Errorf("unknown language: %v", err)
	}
	if LanguageOf("a/b.TSX") != "tsx" || LanguageOf("x.c") != "" {
		t.Error("LanguageOf")
	}
}
