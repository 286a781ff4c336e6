package edit

import (
	"cmp"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit/applypatch"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
)

// runApplyPatch applies a Codex-style patch. A file the patch may not
// change (read-only, or hard-linked where it would be replaced) fails it
// before anything is written. Otherwise operations run in order and are
// not rolled back: when one fails, the error says which ones had already
// been applied.
func (t *Tool) runApplyPatch(input string) (*tool.Result, error) {
	for _, line := range strings.Split(input, "\n") {
		for _, marker := range []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
			if p, ok := strings.CutPrefix(strings.TrimSpace(line), marker); ok {
				if err := t.refuseHostURI(p); err != nil {
					return nil, err
				}
			}
		}
	}
	hunks, err := applypatch.Parse(input)
	if err != nil {
		return nil, err
	}
	// Every file the patch touches stays locked until the last operation
	// is done, so a concurrent edit comes before or after the whole patch.
	var abs []string
	for _, h := range hunks {
		abs = append(abs, applypatch.Resolve(h.Path, t.env.Cwd))
		if h.MovePath != "" {
			abs = append(abs, applypatch.Resolve(h.MovePath, t.env.Cwd))
		}
	}
	unlock, err := lock(abs...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	res, err := applypatch.ApplyHunks(hunks, t.env.Cwd, t)
	if err != nil {
		if len(res.Changes) > 0 {
			var done []string
			for _, c := range res.Changes {
				done = append(done, c.Line())
			}
			return nil, &tool.Error{Msg: err.Error() + "\n\nOperations before the failing one were applied: " + strings.Join(done, ", "), Err: err}
		}
		return nil, err
	}
	details := &Details{Mode: string(tool.EditApplyPatch)}
	for _, c := range res.Changes {
		fr, edits := changeResult(c)
		if written := cmp.Or(c.NewAbs, c.AbsPath); c.Kind != applypatch.DeleteFile {
			t.diag.changed(written, c.Path, edits)
		}
		details.PerFileResults = append(details.PerFileResults, fr)
		details.Diff += fr.Diff
		for _, p := range []string{c.AbsPath, c.NewAbs} {
			if w := t.env.OutsideCwdWarning(p); p != "" && w != "" && !slices.Contains(details.Warnings, w) {
				details.Warnings = append(details.Warnings, w)
			}
		}
	}
	if len(details.PerFileResults) == 1 {
		fr := details.PerFileResults[0]
		details.Path, details.Op, details.FirstChangedLine = fr.Path, fr.Op, fr.FirstChangedLine
		details.PerFileResults = nil
	}
	return tool.TextResult(withWarnings(strings.TrimSuffix(res.Summary(), "\n"), details.Warnings), details), nil
}

// changeResult describes one applied operation: its kind and its diff,
// and returns the edit script of the diff. Updates come with their lines
// and changed regions, so only those are diffed.
func changeResult(c applypatch.Change) (FileResult, []diff.Edit) {
	fr := FileResult{Path: c.Path}
	var oldLines, newLines []string
	var oldFinal, newFinal bool
	var edits []diff.Edit
	switch c.Kind {
	case applypatch.UpdateFile:
		fr.Op = "update"
		if c.NewPath != "" {
			fr.Op = "move"
		}
		oldLines, newLines, oldFinal, newFinal = c.OldLines, c.NewLines, c.OldFinal, len(c.NewLines) > 0
		edits = diff.LinesInRegions(oldLines, newLines, c.Regions)
	default:
		fr.Op = "delete"
		if c.Kind == applypatch.AddFile {
			fr.Op = "create"
			newLines, newFinal = textfile.Lines(c.New)
		}
		oldLines, oldFinal = textfile.Lines(textfile.Decode([]byte(c.Old)).Text)
		edits = diff.Lines(oldLines, newLines)
	}
	fr.Diff = diff.UnifiedScript(c.Path, edits, len(oldLines), len(newLines), oldFinal, newFinal)
	fr.FirstChangedLine = diff.FirstChange(edits)
	return fr, edits
}
