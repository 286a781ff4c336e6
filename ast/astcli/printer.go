package astcli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gopi-agent/gopi/ast"
)

// printMatchesAround prints matches with before and after lines of
// context (-B and -A) through a printer.
func printMatchesAround(w io.Writer, ms []ast.Match, before, after int) {
	pr := &printer{w: w, before: before, after: after}
	for _, m := range ms {
		pr.add(m)
	}
}

// printer prints matches one at a time, in order: each match's lines,
// with optional context read from the file, grep style; "--" separates
// non-adjacent groups. It keeps only the current file's lines.
type printer struct {
	w             io.Writer
	before, after int // lines of context before and after each match
	lastPath      string
	lastLine      int
	srcPath       string   // file whose lines src holds
	src           []string // lines of srcPath, read for context
}

func (pr *printer) add(m ast.Match) {
	first := m.Start.Line
	last := first + strings.Count(m.Lines, "\n")
	lo, hi := first, last
	var src []string
	ctxLines := max(pr.before, pr.after)
	if ctxLines > 0 {
		if pr.srcPath != m.Abs {
			data, _ := os.ReadFile(m.Abs)
			pr.src = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			pr.srcPath = m.Abs
		}
		src = pr.src
		lo = max(first-pr.before, 0)
		hi = max(min(last+pr.after, len(src)-1), last)
	}
	if m.Path != pr.lastPath {
		pr.lastLine = -1
	}
	if ctxLines > 0 && pr.lastPath != "" && (m.Path != pr.lastPath || lo > pr.lastLine+1) {
		fmt.Fprintln(pr.w, "--")
	}
	lo = max(lo, pr.lastLine+1)
	matchLines := strings.Split(m.Lines, "\n")
	for n := lo; n <= hi; n++ {
		switch {
		case n >= first && n <= last:
			fmt.Fprintf(pr.w, "%s:%d:%s\n", m.Path, n+1, strings.TrimSuffix(matchLines[n-first], "\r"))
		case n < len(src):
			fmt.Fprintf(pr.w, "%s-%d-%s\n", m.Path, n+1, strings.TrimSuffix(src[n], "\r"))
		}
	}
	pr.lastPath, pr.lastLine = m.Path, max(pr.lastLine, hi)
}
