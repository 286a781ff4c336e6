package headless

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Readability finds the article; the fallbacks find main content when it
// gives up; a page without text gives nothing.
func TestExtract(t *testing.T) {
	article := `<html><head><title>T</title></head><body><nav>Home | About</nav><article><h1>Cats</h1>
		<p>Cats sleep for most of the day and hunt at dawn and dusk, like their wild ancestors did.</p>
		<p>A cat's whiskers are about as wide as its body, which helps it judge narrow gaps.</p></article></body></html>`
	r, ok := Extract(article, "http://x/a", "markdown")
	if !ok || !strings.Contains(r.Markdown, "whiskers") || strings.Contains(r.Markdown, "About") || r.Text != "" {
		t.Errorf("article: %v %+v", ok, r)
	}
	r, ok = Extract(`<html><body><main><b>short</b></main></body></html>`, "http://x/b", "text")
	if !ok || r.Text != "short" || r.Markdown != "" {
		t.Errorf("fallback: %v %+v", ok, r)
	}
	if _, ok := Extract(`<html><body><script>var x = 1</script></body></html>`, "http://x/c", "text"); ok {
		t.Error("a page without text gave content")
	}
}

// Find takes an executable override first and never returns a
// non-executable file.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	exe, plain := filepath.Join(dir, "chrome"), filepath.Join(dir, "notes")
	for p, mode := range map[string]os.FileMode{exe: 0o755, plain: 0o644} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	if got := Find(exe, nil); got != exe {
		t.Errorf("override: %q", got)
	}
	look := func(name string) (string, error) { return filepath.Join(dir, "notes"), nil }
	if got := Find(plain, look); got == plain {
		t.Error("a non-executable file was taken")
	}
}

// FuzzExtract: any page, in either format, is extracted without a panic
// and gives content only with text in it.
func FuzzExtract(f *testing.F) {
	f.Add(`<html><body><article><p>hello world</p></article></body></html>`, "markdown")
	f.Add(`<main><article>x</article></main>`, "text")
	f.Add(`<div role="main"><<>></div>`, "markdown")
	f.Fuzz(func(t *testing.T, page, format string) {
		r, ok := Extract(page, "http://127.0.0.1/", format)
		if ok && r.Text == "" && r.Markdown == "" {
			t.Fatalf("ok without content: %+v", r)
		}
	})
}
