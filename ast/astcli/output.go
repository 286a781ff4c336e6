package astcli

import (
	"bufio"
	"fmt"
	"io"

	"github.com/gopi-agent/gopi/ast"
)

// Exit statuses of the ast commands, grep's.
const (
	ExitMatch   = 0 // something matched or was replaced
	ExitNoMatch = 1 // nothing matched (scan: a rule of severity error matched)
	ExitError   = 2 // an error; the error returned with it, if any, is still to be printed
)

// Output is where a command prints.
type Output struct {
	Stdout, Stderr io.Writer
	// Terminal says Stdout is a terminal: its buffer is then small, so
	// the first matches show early.
	Terminal bool
}

// buffer buffers what a command prints: 4 KiB on a terminal, so the first
// matches show early, 64 KiB into a pipe or a file, where the default
// 4 KiB made eight thousand write calls of the Python standard library's
// 36 MB `def` output (the CLI makes about 600).
func (o Output) buffer() *bufio.Writer {
	if o.Terminal {
		return bufio.NewWriter(o.Stdout)
	}
	return bufio.NewWriterSize(o.Stdout, 64<<10)
}

// astIssueLines caps the parse issues (and refused rewrites) printed.
const astIssueLines = 20

// reportIssues prints parse issues and skipped paths to w as warnings of
// the command cmd ("ast grep").
func reportIssues(w io.Writer, cmd string, issues []ast.ParseIssue, missing []string) {
	for _, m := range missing {
		fmt.Fprintf(w, "gopi %s: warning: Path not found: %s (skipped)\n", cmd, m)
	}
	for i, is := range issues {
		if i == astIssueLines {
			fmt.Fprintf(w, "gopi %s: warning: … %d more parse issues\n", cmd, len(issues)-astIssueLines)
			break
		}
		fmt.Fprintf(w, "gopi %s: warning: %s\n", cmd, is)
	}
}
