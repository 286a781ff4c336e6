package read

import (
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
)

// capOutput holds text built whole in memory (archive listings, SQLite
// results) to the shared output caps — tool.DefaultMaxLines lines and
// tool.DefaultMaxBytes bytes — after cutting lines too long to show whole
// to tool.DefaultMaxColumn characters. Notes at the end say what was cut;
// hint tells how to see it. It reports whether anything was cut.
func capOutput(text, hint string) (string, bool) {
	lines := strings.Split(text, "\n")
	long := 0
	for i, l := range lines {
		if len(l) > tool.DefaultMaxBytes-64 {
			lines[i], _ = tool.TruncateLine(l, tool.DefaultMaxColumn)
			long++
		}
	}
	if long > 0 {
		text = strings.Join(lines, "\n")
	}
	tr := tool.TruncateHead(text, tool.Limits{MaxLines: tool.DefaultMaxLines, MaxBytes: tool.DefaultMaxBytes})
	if !tr.Truncated && long == 0 {
		return text, false
	}
	out := strings.TrimRight(tr.Content, "\n") + "\n"
	if tr.Truncated {
		out += "\n[Output cut after " + strconv.Itoa(tr.OutputLines) + " of " + strconv.Itoa(tr.TotalLines) + " lines (" +
			tool.FormatSize(tool.DefaultMaxBytes) + " output limit); " + hint + "]"
	}
	if long > 0 {
		out += "\n[" + plural(long, "line") + " too long to show whole cut to " + strconv.Itoa(tool.DefaultMaxColumn) +
			" characters; " + hint + "]"
	}
	return out, true
}
