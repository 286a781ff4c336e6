package gfm

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// goldmark's own GFM extension is the reference: this package must build
// the same trees, so it must give the same HTML.
var (
	ours      = goldmark.New(goldmark.WithExtensions(Extension))
	reference = goldmark.New(goldmark.WithExtensions(extension.GFM))
)

func render(t testing.TB, md goldmark.Markdown, src string) string {
	t.Helper()
	var b bytes.Buffer
	if err := md.Convert([]byte(src), &b); err != nil {
		t.Fatalf("convert %q: %v", src, err)
	}
	return b.String()
}

func sameAsGoldmark(t testing.TB, src string) {
	t.Helper()
	if got, want := render(t, ours, src), render(t, reference, src); got != want {
		t.Errorf("input %q:\ngfm:\n%s\ngoldmark:\n%s", src, got, want)
	}
}

// cases exercise every rule of the four extensions; they are also the
// fuzz seeds.
var cases = []string{
	// Tables.
	"| a | b |\n| - | - |\n| 1 | 2 |\n",
	"a | b\n:-- | --:\n1 | 2 | 3\n4\n",
	"| left | center | right | none |\n|:-----|:------:|------:|------|\n| 1 | 2 | 3 | 4 |\n",
	"text before\n| a |\n| --- |\n| b |\n",
	"| a | b |\n| --- |\n| c |\n",
	"| a |\n| :-: | --- |\n",
	"| `x \\| y` | b \\| c |\n| --- | --- |\n| `1\\|2\\|3` | `a` \\| b |\n",
	"|a|\n|-|\n",
	"| a |\n|---|\n\n| b |\n|---|\n",
	"    | indented |\n    | --- |\n",
	"| a |\n   | --- |\n| b |\n",
	"| a |\n    | --- |\n",
	"| a |\n| --- |\n> quote\n",
	"| a | b |\n| - | - |\n| *em* | **strong** ~~del~~ |\n",
	"- | a |\n  | - |\n  | b |\n",
	"| a |\n| -:- |\n",
	"| a |\n| ::- |\n",
	"|\n|-|\n",
	"| a |\n|---|\n|\n",
	"a\n-\n",
	"| a | b |\r\n| --- | --- |\r\n| c | d |\r\n",
	"| a\t| b |\n|\t---\t| --- |\n",
	// Strikethrough.
	"~~struck~~ and ~one~ and ~~~three~~~",
	"~~unclosed and ~mixed~~",
	"a~~b~~c ~~ spaced ~~ x~~y",
	"\\~~escaped~~ ~~*nested*~~",
	// Task lists.
	"- [ ] open\n- [x] done\n- [X] DONE\n- [y] not\n- [] not\n",
	"1. [ ] ordered\n2. [x]\n3. [ ]tight\n",
	"- text [ ] later\n- [ ] a\n\n  [x] second paragraph\n",
	"[ ] not a list\n",
	"- [\t] tab\n",
	// Bare links.
	"see www.example.com and http://example.com/path?q=1#f.",
	"https://example.com:8080/a_(b)_(c)) ftp://files.example.org/x",
	"(www.example.com/a) *http://x.example.com* _www.y.com_ ~www.z.com~",
	"user@example.com, first.last+tag@mail.example.org. a@b a@b.c-",
	"www.commonmark.org/he<lp www.example.com/&hl; www.example.com/&hl;&x; http://a.b/c&d;e",
	"http://example.com/$x www.example.com/$x https://UPPER.COM x.com",
	"www.a.b.c.example.com/path. http://localhost http://a.b:99x",
	"[www.example.com](http://x) <http://y.com> `www.z.com`",
	"http://a.com/?!.,:*_~ http://a.com/x)) http://a.com/(x)",
	"a_b@example.com- c@example.com_ -d@example.com .e@example.com",
	"Visit www.例え.jp or www.ex-ample.co.uk/π",
	strings.Repeat("a", 300) + ".com www." + strings.Repeat("b", 260) + ".org",
}

func TestMatchesGoldmarkGFM(t *testing.T) {
	for _, c := range cases {
		sameAsGoldmark(t, c)
	}
}

// The examples goldmark's GFM extensions are tested with, read from the
// module cache (skipped when it is not there).
func TestMatchesGoldmarkOnItsExamples(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/yuin/goldmark").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Skipf("goldmark's module directory not found: %v", err)
	}
	n := 0
	for _, name := range []string{"table", "strikethrough", "tasklist", "linkify"} {
		data, err := os.ReadFile(filepath.Join(dir, "extension", "_test", name+".txt"))
		if err != nil {
			t.Skipf("goldmark's examples not found: %v", err)
		}
		const sep = "//- - - - - - - - -//\n"
		for _, c := range strings.Split(string(data), "//= = = = = = = = = = = = = = = = = = = = = = = =//") {
			parts := strings.Split(c, sep)
			if len(parts) < 3 {
				continue
			}
			sameAsGoldmark(t, parts[1])
			n++
		}
	}
	if n < 30 {
		t.Errorf("only %d examples read", n)
	}
	t.Logf("%d examples", n)
}

func FuzzMatchesGoldmarkGFM(f *testing.F) {
	for _, c := range cases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		sameAsGoldmark(t, src)
	})
}

// Every word start on a line is a place a bare link may begin; long lines
// of them render as goldmark's. (Their cost per place must not grow with
// the line: a line of `_www.` repeated took 90 s for 320 KB when the host
// scan ran to the end of the line; BenchmarkLinkStarts measures it.)
func TestLongLinesOfLinkStarts(t *testing.T) {
	for _, unit := range linkStartUnits {
		sameAsGoldmark(t, strings.Repeat(unit, 20_000/len(unit)))
	}
}

var linkStartUnits = []string{"_www.", "~www.", "http: ", "www.a_", "http:_", "www.ab~"}

// BenchmarkLinkStarts renders 200 KB lines of possible link starts, with
// this package and with goldmark's GFM, to compare the two.
func BenchmarkLinkStarts(b *testing.B) {
	for _, md := range []struct {
		name string
		md   goldmark.Markdown
	}{{"gfm", ours}, {"goldmark", reference}} {
		for _, unit := range linkStartUnits {
			src := strings.Repeat(unit, 200_000/len(unit))
			b.Run(md.name+"/"+strings.TrimSpace(unit), func(b *testing.B) {
				for b.Loop() {
					render(b, md.md, src)
				}
			})
		}
	}
}

// A host may hold at most 256 characters before its last dot, as in
// goldmark's pattern: a dot further in does not make a link.
func TestHostLength(t *testing.T) {
	for _, n := range []int{250, 255, 256, 257, 300} {
		sameAsGoldmark(t, "www."+strings.Repeat("a", n)+".com/x and http://"+strings.Repeat("b", n)+".org")
	}
}
