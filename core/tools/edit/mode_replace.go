package edit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
	"github.com/gopi-agent/gopi/core/tools/edit/replace"
	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
)

// replaceArgs are the arguments of replace mode.
type replaceArgs struct {
	Path    string `json:"path"`
	OldText string `json:"old_text"`
	NewText string `json:"new_text"`
	All     bool   `json:"all"`
}

// runReplace applies one old/new text replacement.
func (t *Tool) runReplace(a replaceArgs) (*tool.Result, error) {
	abs := t.env.Resolve(a.Path)
	unlock, err := lock(abs)
	if err != nil {
		return nil, err
	}
	defer unlock()
	f, err := t.load(abs, a.Path)
	if err != nil {
		return nil, err
	}
	if !f.exists {
		return nil, fmt.Errorf("File not found: %s", a.Path)
	}
	crlf := strings.NewReplacer("\r\n", "\n")
	newText, m, err := replace.Replace(f.doc.Text, crlf.Replace(a.OldText), crlf.Replace(a.NewText), a.All, a.Path)
	if err != nil {
		return nil, err
	}
	data, newText, err := f.settle(newText)
	if err != nil {
		return nil, err
	}
	if newText == f.doc.Text {
		return nil, fmt.Errorf("Edits to %s resulted in no changes being made.", a.Path)
	}
	if err := t.commit(f, data); err != nil {
		return nil, err
	}
	oldLines, oldFinal := textfile.Lines(f.doc.Text)
	newLines, newFinal := textfile.Lines(newText)
	edits := diff.Lines(oldLines, newLines)
	t.diag.changed(abs, a.Path, edits)
	details := &Details{
		Mode:             "replace",
		Diff:             diff.UnifiedScript(a.Path, edits, len(oldLines), len(newLines), oldFinal, newFinal),
		FirstChangedLine: diff.FirstChange(edits),
		Op:               "update",
		Path:             a.Path,
	}
	where := make([]string, len(m.Lines))
	for i, l := range m.Lines {
		where[i] = strconv.Itoa(l)
	}
	noun, lineWord := "replacement", "line"
	if m.Count > 1 {
		noun, lineWord = "replacements", "lines"
	}
	text := fmt.Sprintf("Updated %s (%d %s at %s %s)", a.Path, m.Count, noun, lineWord, strings.Join(where, ", "))
	if m.Tolerant {
		details.Warnings = append(details.Warnings,
			"old_text matched only after ignoring differences in white space; new_text was re-indented to fit. Check the result.")
	}
	if w := t.env.OutsideCwdWarning(abs); w != "" {
		details.Warnings = append(details.Warnings, w)
	}
	return tool.TextResult(withWarnings(text, details.Warnings), details), nil
}
