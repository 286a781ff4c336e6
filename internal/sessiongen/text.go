package sessiongen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// words are the vocabulary of generated prose and code.
var words = strings.Fields(`the a to of and in is for that it with on this be as are
handler request response error path file read write config session context cache token
buffer parse decode encode stream reader writer client server timeout retry limit index
entry value key name type field method return func struct interface package import map
slice channel goroutine mutex lock test bench check fix bug issue change update remove
add rename move split merge build run start stop close open line column offset length
size count total first last next previous parent child root leaf node tree branch
summary compaction model provider message content block text image tool call result`)

// idents are identifiers for generated code.
var idents = strings.Fields(`ctx err n i j buf data out opts cfg req resp w r s m e p
path name key val item entry node parent leaf store client conn line lines offset`)

// paths are the files a generated session works on.
var paths = []string{
	"cmd/server/main.go", "internal/handler/handler.go", "internal/handler/handler_test.go",
	"internal/store/store.go", "internal/store/cache.go", "internal/store/migrate.go",
	"pkg/api/client.go", "pkg/api/types.go", "pkg/api/retry.go", "web/src/app.ts",
	"web/src/components/Table.tsx", "web/src/api.ts", "scripts/release.sh", "README.md",
	"docs/design.md", "Makefile", "go.mod", "internal/config/config.go", "internal/auth/token.go",
	"internal/auth/token_test.go", "migrations/0007_add_index.sql", "pyproject.toml", "tools/gen.py",
}

// unicode is non-ASCII text generated content mixes in, so that strings
// need unescaping and UTF-8 handling as real sessions do.
var unicode = []string{"héllo", "naïve", "✓", "→", "日本語", "Grüße", "🚀", "—", "«ok»", "ñandú"}

// text is a deterministic source of generated content.
type text struct{ r *rand.Rand }

func (t text) word() string { return words[t.r.IntN(len(words))] }

// logNormal returns a size near median with a heavy upper tail (sigma 1),
// between lo and hi.
func (t text) logNormal(median, lo, hi int) int {
	v := float64(median) * math.Exp(t.r.NormFloat64())
	return max(lo, min(hi, int(v)))
}

// sentence is a sentence of n words, sometimes with a non-ASCII word or a
// quoted or back-quoted term.
func (t text) sentence(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch t.r.IntN(40) {
		case 0:
			b.WriteString(unicode[t.r.IntN(len(unicode))])
		case 1:
			fmt.Fprintf(&b, "%q", t.word())
		case 2:
			fmt.Fprintf(&b, "`%s`", paths[t.r.IntN(len(paths))])
		default:
			b.WriteString(t.word())
		}
	}
	b.WriteByte('.')
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

// prose is markdown of about size bytes: paragraphs, a list, sometimes a
// fenced code block.
func (t text) prose(size int) string {
	var b strings.Builder
	for b.Len() < size {
		switch t.r.IntN(6) {
		case 0:
			for range 1 + t.r.IntN(4) {
				b.WriteString("- " + t.sentence(4+t.r.IntN(10)) + "\n")
			}
		case 1:
			b.WriteString("```go\n" + t.code(120+t.r.IntN(400), false) + "```\n")
		default:
			for range 1 + t.r.IntN(4) {
				b.WriteString(t.sentence(6+t.r.IntN(16)) + " ")
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	return strings.TrimSpace(b.String())
}

// codeLine is one line of Go-like source.
func (t text) codeLine() string {
	id := func() string { return idents[t.r.IntN(len(idents))] }
	indent := strings.Repeat("\t", t.r.IntN(4))
	switch t.r.IntN(9) {
	case 0:
		return indent + fmt.Sprintf("if %s != nil {", id())
	case 1:
		return indent + fmt.Sprintf("return fmt.Errorf(\"%s %s: %%w\", %s)", t.word(), t.word(), id())
	case 2:
		return indent + fmt.Sprintf("%s := %s.%s(%s, %d)", id(), id(), strings.ToUpper(t.word()[:1])+t.word(), id(), t.r.IntN(4096))
	case 3:
		return indent + "// " + t.sentence(5+t.r.IntN(8))
	case 4:
		return indent + "}"
	case 5:
		return indent + fmt.Sprintf("for _, %s := range %s {", id(), id())
	case 6:
		return indent + fmt.Sprintf("log.Printf(\"%s\\t%%s\\n\", %s) // %s", unicode[t.r.IntN(len(unicode))], id(), t.word())
	case 7:
		return ""
	default:
		return indent + fmt.Sprintf("%s.%s = %s", id(), t.word(), id())
	}
}

// code is about size bytes of source lines; numbered prefixes them as the
// read tool does (line number and a short hash).
func (t text) code(size int, numbered bool) string {
	var b strings.Builder
	start := 1 + t.r.IntN(400)
	for n := start; b.Len() < size; n++ {
		if numbered {
			fmt.Fprintf(&b, "%d#%02x|", n, t.r.IntN(256))
		}
		b.WriteString(t.codeLine())
		b.WriteByte('\n')
	}
	return b.String()
}

// logOutput is about size bytes of command output: test runs, compiler
// errors, log lines.
func (t text) logOutput(size int) string {
	var b strings.Builder
	for b.Len() < size {
		switch t.r.IntN(5) {
		case 0:
			fmt.Fprintf(&b, "=== RUN   Test%s%s\n--- PASS: Test%s (0.%02ds)\n", strings.ToUpper(t.word()[:1]), t.word(), t.word(), t.r.IntN(100))
		case 1:
			fmt.Fprintf(&b, "%s:%d:%d: %s\n", paths[t.r.IntN(len(paths))], 1+t.r.IntN(900), 1+t.r.IntN(80), t.sentence(5+t.r.IntN(6)))
		case 2:
			fmt.Fprintf(&b, "2026-02-16T10:%02d:%02d.%03dZ INFO %s {\"%s\":%d}\n", t.r.IntN(60), t.r.IntN(60), t.r.IntN(1000), t.sentence(4), t.word(), t.r.IntN(1e6))
		case 3:
			fmt.Fprintf(&b, "ok  \texample.com/app/%s\t0.%03ds\n", t.word(), t.r.IntN(1000))
		default:
			b.WriteString(t.codeLine() + "\n")
		}
	}
	return b.String()
}

// matches is about size bytes of search output: path:line:text.
func (t text) matches(size int) string {
	var b strings.Builder
	for b.Len() < size {
		fmt.Fprintf(&b, "%s:%d:%s\n", paths[t.r.IntN(len(paths))], 1+t.r.IntN(900), strings.TrimSpace(t.codeLine()))
	}
	return b.String()
}

// signature is an opaque base64-like thinking signature of n characters.
func (t text) signature(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[t.r.IntN(len(alphabet))]
	}
	return string(b)
}
