// Command gentree writes the deterministic source tree that `make bench`
// searches besides GOROOT/src.
//
// The tree is a fixed function of the constants below (seed, sizes, word
// lists): about 20,000 files in nested directories, mostly .go, .ts, .py,
// .md and .json-like text full of identifiers, error types, TODO markers and
// import blocks, with a few deliberately awkward inputs:
//
//   - some minified JSON lines tens of kilobytes long;
//   - hidden files and a hidden directory (.config/), skipped by default;
//   - a .gitignore at the root that ignores a whole subtree (build/) and
//     *.log files except keep.log, a nested .gitignore, a .ignore file, and
//     .git/info/exclude rules — the root holds a minimal .git directory so
//     that ripgrep, fd and gopi all treat it as a repository root and honour
//     those files (and nothing from repositories above it);
//   - binary files (a NUL byte near the start), Latin-1 bytes that are not
//     valid UTF-8, CRLF line endings, empty files, a file without a final
//     newline, symlinks (one dangling).
//
// Usage:
//
//	gentree -out DIR     write the tree to DIR (replacing it) and DIR.stamp
//	gentree -version     print the stamp a current tree carries
//	gentree -tiny ...    the same for the tiny-files tree instead: 200,000
//	                     files of a few short lines each in 2,000 directories,
//	                     where per-file costs (open, read, close, hand-offs)
//	                     dominate a search
//
// The tree is built in DIR.tmp and renamed into place, and DIR.stamp is
// written last, so an interrupted run never leaves a tree that looks
// current. Bump treeVersion whenever the output changes.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// treeVersion identifies the generator's output; bench/search.sh regenerates
// the tree when the stamp next to it differs.
const treeVersion = "gentree-v1"

// Fixed shape of the tree.
const (
	seed1, seed2 = 0x5eed_0001, 0x6011_2026
	targetFiles  = 20000 // ordinary files in the visible, non-ignored part
	ignoredFiles = 1500  // files under build/, ignored by .gitignore
	hiddenFiles  = 200   // files under .config/
	maxDepth     = 5
)

func main() {
	out := flag.String("out", "", "directory to (re)create")
	version := flag.Bool("version", false, "print the tree version stamp and exit")
	tinyFlag := flag.Bool("tiny", false, "write (or print the stamp of) the tiny-files tree")
	flag.Parse()
	tiny = *tinyFlag
	if *version {
		fmt.Println(stamp())
		return
	}
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: gentree -out DIR | gentree -version")
		os.Exit(2)
	}
	if err := build(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gentree:", err)
		os.Exit(1)
	}
}

// tiny selects the tiny-files tree.
var tiny bool

// Shape of the tiny-files tree.
const (
	tinyVersion = "gentree-tiny-v2"
	tinyDirs    = 2000
	tinyPerDir  = 100
)

// stamp is the content of DIR.stamp for a tree this program writes.
func stamp() string {
	if tiny {
		return fmt.Sprintf("%s seed=%x,%x files=%d", tinyVersion, seed1, seed2, tinyDirs*tinyPerDir)
	}
	return fmt.Sprintf("%s seed=%x,%x files=%d", treeVersion, seed1, seed2, targetFiles)
}

// tinyLines are the lines tiny files are made of.
var tinyLines = []string{
	"package p",
	"func f() error { return nil }",
	"// TODO: check the error",
	"var ErrClosed = errors.New(\"closed\")",
	"x := y + 1",
	"import (",
	"return fmt.Errorf(\"wrap: %w\", err)",
	"type ParseError struct{}",
	"// FIXME later",
	"}",
}

// tinyTree writes the tiny-files tree: tinyDirs directories of two levels,
// tinyPerDir files each, 2–6 lines per file.
func (g *gen) tinyTree() error {
	var b bytes.Buffer
	for d := range tinyDirs {
		dir := fmt.Sprintf("t%02d/d%03d", d/100, d%100)
		for f := range tinyPerDir {
			b.Reset()
			for range 2 + g.rng.IntN(5) {
				b.WriteString(tinyLines[g.rng.IntN(len(tinyLines))])
				b.WriteByte('\n')
			}
			g.write(fmt.Sprintf("%s/f%03d.txt", dir, f), b.Bytes())
		}
	}
	return g.err
}

// build writes the tree to out.tmp, swaps it into out and writes the stamp.
func build(out string) error {
	out = filepath.Clean(out)
	tmp := out + ".tmp"
	stampFile := out + ".stamp"
	for _, p := range []string{stampFile, tmp} {
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	g := &gen{rng: rand.New(rand.NewPCG(seed1, seed2)), root: tmp}
	grow := g.tree
	if tiny {
		grow = g.tinyTree
	}
	if err := grow(); err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	if err := os.WriteFile(stampFile, []byte(stamp()+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Printf("gentree: wrote %d files under %s\n", g.files, out)
	return nil
}

// gen carries the random source and counters of one generation.
type gen struct {
	rng   *rand.Rand
	root  string
	files int
	err   error // first write error; later writes are skipped
}

// write creates root/rel with content, creating parent directories.
func (g *gen) write(rel string, content []byte) {
	if g.err != nil {
		return
	}
	p := filepath.Join(g.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		g.err = err
		return
	}
	if err := os.WriteFile(p, content, 0o644); err != nil {
		g.err = err
		return
	}
	g.files++
}

// symlink creates root/rel pointing at target (relative to rel's directory).
func (g *gen) symlink(target, rel string) {
	if g.err != nil {
		return
	}
	if err := os.Symlink(target, filepath.Join(g.root, filepath.FromSlash(rel))); err != nil {
		g.err = err
	}
}

// tree writes everything.
func (g *gen) tree() error {
	// Repository root marker and its exclude rules.
	g.write(".git/HEAD", []byte("ref: refs/heads/main\n"))
	g.write(".git/info/exclude", []byte("# local excludes\n*.orig\n"))
	g.write(".gitignore", []byte("# build output\nbuild/\n*.log\n!keep.log\n"))

	dirs := g.dirs()
	// Ordinary files, spread over the directories with uneven counts.
	for i := 0; i < targetFiles; i++ {
		var dir string
		if i < len(dirs) {
			dir = dirs[i] // every directory gets at least one file
		} else {
			dir = dirs[g.skewed(len(dirs))]
		}
		g.file(dir, i)
	}
	// A nested .gitignore, a .ignore file and what they hide.
	d0, d1 := dirs[1], dirs[2]
	g.write(d0+"/.gitignore", []byte("generated_*.go\n/tmp/\n"))
	for i := 0; i < 20; i++ {
		g.write(fmt.Sprintf("%s/generated_%02d.go", d0, i), g.goFile())
		g.write(fmt.Sprintf("%s/tmp/scratch_%02d.py", d0, i), g.pyFile())
	}
	g.write(d1+"/.ignore", []byte("fixtures/\n"))
	for i := 0; i < 30; i++ {
		g.write(fmt.Sprintf("%s/fixtures/case_%02d.json", d1, i), g.jsonFile(false))
	}
	// Ignored by the root .gitignore, except keep.log; excluded by info/exclude.
	for i := 0; i < 40; i++ {
		g.write(fmt.Sprintf("%s/run_%02d.log", dirs[g.rng.IntN(len(dirs))], i), g.logFile())
		g.write(fmt.Sprintf("%s/patch_%02d.go.orig", dirs[g.rng.IntN(len(dirs))], i), g.goFile())
	}
	g.write(dirs[3]+"/keep.log", g.logFile())
	// The ignored subtree and the hidden directory.
	for i := 0; i < ignoredFiles; i++ {
		g.file(fmt.Sprintf("build/out%d/obj%d", i%7, i%13), i)
	}
	for i := 0; i < hiddenFiles; i++ {
		g.file(fmt.Sprintf(".config/profile%d", i%5), i)
	}
	// Symlinks: to a sibling file and to a missing one. Never followed.
	for i := 0; i < 10; i++ {
		dir := dirs[g.rng.IntN(len(dirs))]
		g.write(dir+"/target_link.go", g.goFile())
		g.symlink("target_link.go", fmt.Sprintf("%s/alias_%d.go", dir, i))
	}
	g.symlink("does_not_exist.go", dirs[4]+"/dangling.go")
	return g.err
}

// dirs returns the directory tree's paths (relative, slash-separated) in
// creation order; the first entries are top-level.
func (g *gen) dirs() []string {
	var out []string
	var grow func(prefix string, depth int)
	grow = func(prefix string, depth int) {
		n := 0
		switch {
		case depth == 0:
			n = 12
		case depth < maxDepth:
			n = g.rng.IntN(6) // 0..5 children
		}
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("%s_%d", words[g.rng.IntN(len(words))], i)
			p := name
			if prefix != "" {
				p = prefix + "/" + name
			}
			out = append(out, p)
			grow(p, depth+1)
		}
	}
	grow("", 0)
	return out
}

// skewed picks an index in [0, n) favouring low ones, so directory sizes vary.
func (g *gen) skewed(n int) int {
	a, b := g.rng.IntN(n), g.rng.IntN(n)
	return min(a, b)
}

// file writes one ordinary file of a random kind into dir.
func (g *gen) file(dir string, i int) {
	base := fmt.Sprintf("%s_%d", words[g.rng.IntN(len(words))], i)
	r := g.rng.IntN(1000)
	switch {
	case r < 380:
		g.write(dir+"/"+base+".go", g.goFile())
	case r < 560:
		g.write(dir+"/"+base+".ts", g.tsFile())
	case r < 720:
		g.write(dir+"/"+base+".py", g.pyFile())
	case r < 840:
		g.write(dir+"/"+base+".md", g.mdFile())
	case r < 950:
		g.write(dir+"/"+base+".json", g.jsonFile(g.rng.IntN(8) == 0))
	case r < 965:
		g.write(dir+"/."+base+".go", g.goFile()) // hidden file
	case r < 972:
		g.write(dir+"/"+base+".bin", g.binFile())
	case r < 979:
		g.write(dir+"/"+base+".txt", g.latin1File())
	case r < 986:
		g.write(dir+"/"+base+".go", bytes.ReplaceAll(g.goFile(), []byte("\n"), []byte("\r\n")))
	case r < 990:
		g.write(dir+"/"+base+".txt", nil) // empty
	case r < 995:
		g.write(dir+"/"+base+".go", bytes.TrimRight(g.goFile(), "\n")) // no final newline
	default:
		g.write(dir+"/"+base+".txt", g.unicodeFile())
	}
}

// Vocabulary for identifiers and prose.
var words = []string{
	"alpha", "buffer", "cache", "delta", "engine", "filter", "graph", "handler",
	"index", "journal", "kernel", "ledger", "matrix", "node", "order", "parser",
	"query", "router", "schema", "token", "update", "vector", "worker", "yield",
	"zone", "agent", "batch", "client", "daemon", "event", "fetch", "gateway",
	"hash", "input", "job", "key", "lexer", "module", "network", "object",
	"packet", "queue", "record", "session", "table", "unit", "value", "window",
	"stream", "socket", "config", "plugin", "render", "search", "store", "timer",
}

var errorKinds = []string{"Parse", "Timeout", "Validation", "NotFound", "Permission", "Syntax", "Range", "Type", "IO", "Decode"}

var markers = []string{"TODO", "FIXME", "XXX", "NOTE", "HACK"}

var unicodeBits = []string{
	"λ-calculus", "Ünïcödé", "数据处理", "ΣΦΩ αβγ", "Ärger", "naïve café", "Ошибка сети", "ERRÖR",
	"ſtraße", "Kelvin", "İstanbul", "ǅemal",
}

func (g *gen) word() string { return words[g.rng.IntN(len(words))] }

// camel returns an identifier of n words, exported when upper is set.
func (g *gen) camel(n int, upper bool) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		w := g.word()
		if i > 0 || upper {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}

func (g *gen) snake(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.word()
	}
	return strings.Join(parts, "_")
}

func (g *gen) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *gen) sentence() string {
	n := 4 + g.rng.IntN(10)
	parts := make([]string, n)
	for i := range parts {
		switch g.rng.IntN(30) {
		case 0:
			parts[i] = "error"
		case 1:
			parts[i] = "Error"
		case 2:
			parts[i] = g.pick(unicodeBits)
		default:
			parts[i] = g.word()
		}
	}
	return strings.Join(parts, " ")
}

func (g *gen) goFile() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Package %s %s.\npackage %s\n\n", g.word(), g.sentence(), g.word())
	if g.rng.IntN(3) == 0 {
		b.WriteString("import \"fmt\"\n\n")
	} else {
		b.WriteString("import (\n\t\"errors\"\n\t\"fmt\"\n")
		for i := g.rng.IntN(4); i > 0; i-- {
			fmt.Fprintf(&b, "\t\"%s/%s\"\n", g.word(), g.word())
		}
		b.WriteString(")\n\n")
	}
	kind := g.pick(errorKinds)
	fmt.Fprintf(&b, "// %sError reports a %s failure.\ntype %sError struct{ Op string }\n\n", kind, strings.ToLower(kind), kind)
	fmt.Fprintf(&b, "func (e *%sError) Error() string { return \"%s: \" + e.Op }\n\n", kind, strings.ToLower(kind))
	for f := 1 + g.rng.IntN(6); f > 0; f-- {
		name := g.camel(1+g.rng.IntN(3), g.rng.IntN(2) == 0)
		fmt.Fprintf(&b, "func %s(%s int, %s string) error {\n", name, g.word(), g.camel(2, false))
		for l := 2 + g.rng.IntN(12); l > 0; l-- {
			switch g.rng.IntN(12) {
			case 0:
				fmt.Fprintf(&b, "\t// %s: %s\n", g.pick(markers), g.sentence())
			case 1:
				fmt.Fprintf(&b, "\tif err := %s(); err != nil {\n\t\treturn fmt.Errorf(\"%s: %%w\", err)\n\t}\n", g.camel(2, false), g.word())
			case 2:
				fmt.Fprintf(&b, "\treturn errors.New(\"%s\")\n", g.sentence())
			case 3:
				fmt.Fprintf(&b, "\t%s := &%sError{Op: %q}\n", g.camel(1, false), g.pick(errorKinds), g.word())
			case 4:
				fmt.Fprintf(&b, "\tfmt.Println(%q) // %s\n", g.sentence(), g.pick(unicodeBits))
			case 5:
				fmt.Fprintf(&b, "\tvar %s = fmt.Errorf(\"%s\")\n", g.camel(2, false), g.sentence())
			default:
				fmt.Fprintf(&b, "\t%s := %s.%s(%s, %d)\n", g.camel(2, false), g.word(), g.camel(2, true), g.camel(1, false), g.rng.IntN(1000))
			}
		}
		b.WriteString("\treturn nil\n}\n\n")
	}
	return b.Bytes()
}

func (g *gen) tsFile() []byte {
	var b bytes.Buffer
	for i := 1 + g.rng.IntN(4); i > 0; i-- {
		fmt.Fprintf(&b, "import { %s } from './%s/%s';\n", g.camel(2, true), g.word(), g.word())
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "export class %sError extends Error {}\n\n", g.pick(errorKinds))
	for f := 1 + g.rng.IntN(6); f > 0; f-- {
		fmt.Fprintf(&b, "export function %s(%s: number): void {\n", g.camel(2, false), g.word())
		for l := 2 + g.rng.IntN(10); l > 0; l-- {
			switch g.rng.IntN(8) {
			case 0:
				fmt.Fprintf(&b, "  // %s(%s): %s\n", g.pick(markers), g.word(), g.sentence())
			case 1:
				fmt.Fprintf(&b, "  throw new %sError(`%s`);\n", g.pick(errorKinds), g.sentence())
			case 2:
				fmt.Fprintf(&b, "  console.error('%s', %s);\n", g.sentence(), g.camel(1, false))
			default:
				fmt.Fprintf(&b, "  const %s = %s.%s(%d);\n", g.camel(2, false), g.camel(1, false), g.camel(2, false), g.rng.IntN(100))
			}
		}
		b.WriteString("}\n\n")
	}
	return b.Bytes()
}

func (g *gen) pyFile() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "\"\"\"%s.\"\"\"\nimport os\nfrom %s import %s\n\n", g.sentence(), g.word(), g.snake(2))
	fmt.Fprintf(&b, "class %sError(Exception):\n    pass\n\n", g.pick(errorKinds))
	for f := 1 + g.rng.IntN(6); f > 0; f-- {
		fmt.Fprintf(&b, "def %s(%s):\n", g.snake(2), g.word())
		for l := 2 + g.rng.IntN(10); l > 0; l-- {
			switch g.rng.IntN(8) {
			case 0:
				fmt.Fprintf(&b, "    # %s %s\n", g.pick(markers), g.sentence())
			case 1:
				fmt.Fprintf(&b, "    raise %sError(%q)\n", g.pick(errorKinds), g.sentence())
			case 2:
				fmt.Fprintf(&b, "    log.error(%q)\n", g.sentence())
			default:
				fmt.Fprintf(&b, "    %s = %s.%s(%d)\n", g.snake(2), g.word(), g.snake(2), g.rng.IntN(100))
			}
		}
		b.WriteString("    return None\n\n")
	}
	return b.Bytes()
}

func (g *gen) mdFile() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n", g.camel(3, true))
	for s := 2 + g.rng.IntN(6); s > 0; s-- {
		fmt.Fprintf(&b, "## %s %s\n\n", g.word(), g.word())
		for p := 1 + g.rng.IntN(5); p > 0; p-- {
			b.WriteString(g.sentence() + ". " + g.sentence() + ".\n")
		}
		if g.rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "\n```go\nimport (\n\t\"fmt\"\n)\n\nfunc %s() error { return fmt.Errorf(\"%s\") }\n```\n", g.camel(2, true), g.word())
		}
		if g.rng.IntN(4) == 0 {
			fmt.Fprintf(&b, "\n> %s: %s\n", g.pick(markers), g.sentence())
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// jsonFile returns pretty JSON, or one minified line tens of KB long.
func (g *gen) jsonFile(long bool) []byte {
	var b bytes.Buffer
	n := 3 + g.rng.IntN(20)
	sep, ind := "\n", "  "
	if long {
		n = 300 + g.rng.IntN(1500)
		sep, ind = "", ""
	}
	b.WriteString("{" + sep)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString("," + sep)
		}
		v := g.sentence()
		if g.rng.IntN(10) == 0 {
			v = g.pick(errorKinds) + "Error: " + v
		}
		fmt.Fprintf(&b, "%s\"%s_%d\": {\"id\": %d, \"text\": %q}", ind, g.camel(2, false), i, g.rng.IntN(1e6), v)
	}
	b.WriteString(sep + "}\n")
	return b.Bytes()
}

func (g *gen) logFile() []byte {
	var b bytes.Buffer
	for i := 20 + g.rng.IntN(50); i > 0; i-- {
		lvl := "INFO"
		if g.rng.IntN(4) == 0 {
			lvl = "ERROR"
		}
		fmt.Fprintf(&b, "2026-01-%02d %s %s\n", 1+g.rng.IntN(28), lvl, g.sentence())
	}
	return b.Bytes()
}

// binFile holds a NUL byte in its first bytes (so every tool sees it as
// binary at once) and text that would match several patterns.
func (g *gen) binFile() []byte {
	var b bytes.Buffer
	b.WriteString("\x7fBIN\x00\x01\x02")
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "func %s() error // TODO %s\n", g.camel(2, true), g.pick(errorKinds)+"Error")
	}
	return b.Bytes()
}

// latin1File holds bytes that are not valid UTF-8.
func (g *gen) latin1File() []byte {
	var b bytes.Buffer
	for i := 10 + g.rng.IntN(30); i > 0; i-- {
		fmt.Fprintf(&b, "%s caf\xe9 \xe0 la %s error \xff\xfe %sError\n", g.sentence(), g.word(), g.pick(errorKinds))
	}
	return b.Bytes()
}

func (g *gen) unicodeFile() []byte {
	var b bytes.Buffer
	for i := 10 + g.rng.IntN(30); i > 0; i-- {
		fmt.Fprintf(&b, "%s %s %s\n", g.pick(unicodeBits), g.sentence(), g.pick(unicodeBits))
	}
	return b.Bytes()
}
