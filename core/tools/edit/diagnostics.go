package edit

import (
	"context"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
)

// diagnosed collects the language server checks of the files one edit
// call writes: each begins before its file's first write (the servers'
// diagnostics of the old content) and finishes once the call has written
// everything and released its locks. A nil *diagnosed checks nothing.
type diagnosed struct {
	env   *tool.Env
	files []*diagFile // in the order first written
}

// diagFile is the check of one written file.
type diagFile struct {
	abs     string
	shown   string // the path as the result names it (FileResult.Path)
	wd      *tool.WriteDiag
	changed []tool.LineSpan // lines of the new content the edit changed
	report  *tool.FileDiagnostics
}

// begin starts the check of abs before its first write in this call.
func (c *diagnosed) begin(abs string) {
	if c == nil {
		return
	}
	for _, f := range c.files {
		if f.abs == abs {
			return
		}
	}
	if wd := c.env.BeginDiagnostics(abs, "edit", tool.WriteEdit); wd != nil {
		c.files = append(c.files, &diagFile{abs: abs, shown: c.env.DisplayPath(abs), wd: wd})
	}
}

// changed records how the call changed abs (shown as the result names
// it): the lines its edit script inserted or removed text at.
func (c *diagnosed) changed(abs, shown string, edits []diff.Edit) {
	if c == nil {
		return
	}
	for _, f := range c.files {
		if f.abs == abs {
			f.shown, f.changed = shown, changedSpans(edits)
		}
	}
}

// attach waits for the checks (at once, each up to the budget), appends
// what they found to res's text and puts it in its details: the merged
// report in Details.Diagnostics, each file's in its FileResult.
func (c *diagnosed) attach(ctx context.Context, res *tool.Result) {
	if c == nil || len(c.files) == 0 || res == nil {
		return
	}
	wds := make([]*tool.WriteDiag, len(c.files))
	changed := make([][]tool.LineSpan, len(c.files))
	for i, f := range c.files {
		wds[i], changed[i] = f.wd, f.changed
	}
	reports := tool.AfterAll(ctx, wds, changed)
	for i, f := range c.files {
		f.report = reports[i]
	}
	merged := tool.MergeFileDiagnostics(reports...)
	if merged == nil {
		return
	}
	if d, ok := res.Details.(*Details); ok {
		d.Diagnostics = merged
		for i := range d.PerFileResults {
			for _, f := range c.files {
				if f.shown == d.PerFileResults[i].Path {
					d.PerFileResults[i].Diagnostics = f.report
				}
			}
		}
	}
	res.AppendText(merged.Notice())
}

// changedSpans returns the lines of the new text an edit script changed:
// each inserted line, and the two lines around a removal.
func changedSpans(edits []diff.Edit) []tool.LineSpan {
	var spans []tool.LineSpan
	add := func(first, last int) {
		first = max(first, 0)
		if n := len(spans); n > 0 && spans[n-1].Last >= first-1 {
			spans[n-1].Last = max(spans[n-1].Last, last)
			return
		}
		spans = append(spans, tool.LineSpan{First: first, Last: last})
	}
	for _, e := range edits {
		switch e.Kind {
		case diff.Insert:
			add(e.NewLine, e.NewLine)
		case diff.Delete:
			add(e.NewLine-1, e.NewLine)
		}
	}
	return spans
}
