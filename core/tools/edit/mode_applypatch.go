package edit

import (
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit/applypatch"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
)

// runApplyPatch applies a Codex "*** Begin Patch" envelope as omp does:
// each file section is one patch-mode operation (Add File a create,
// Delete File a delete, Update File an update of its body's hunks, with
// its Move to as the rename), applied by the same applier, one after
// another. A patch of one section fails as that operation does. With
// several, each is all or nothing for its file and one that fails does
// not stop the others: the result lists every section's outcome
// ("Updated a.txt", "Error editing b.txt: …") and, as in omp, is not an
// error result; the failed ones are marked in its per-file details.
func (t *Tool) runApplyPatch(input string) (*tool.Result, error) {
	ops, err := applypatch.ParseEnvelope(input)
	if err != nil {
		return nil, err
	}
	// Every file the patch touches stays locked until the last operation
	// is done, so a concurrent edit comes before or after the whole patch.
	var abs []string
	for _, op := range ops {
		for _, p := range []string{op.Path, op.MovePath} {
			if p == "" {
				continue
			}
			if err := t.refusePath(p); err != nil {
				return nil, err
			}
			abs = append(abs, t.Abs(p))
		}
	}
	unlock, err := lock(abs...)
	if err != nil {
		return nil, err
	}
	defer unlock()

	details := &Details{Mode: string(tool.EditApplyPatch)}
	var texts []string
	for _, op := range ops {
		text, changes, err := t.patchOp(op.Path, entryOf(op))
		if err != nil {
			if len(ops) == 1 {
				return nil, err
			}
			texts = append(texts, fmt.Sprintf("Error editing %s: %v", op.Path, err))
			details.PerFileResults = append(details.PerFileResults, FileResult{Path: op.Path, IsError: true, ErrorText: err.Error()})
			continue
		}
		texts = append(texts, text)
		for _, c := range changes {
			fr := t.recordChange(c, details)
			details.PerFileResults = append(details.PerFileResults, fr)
			details.Diff += fr.Diff
			if details.FirstChangedLine == 0 {
				details.FirstChangedLine = fr.FirstChangedLine
			}
		}
	}
	if len(ops) == 1 && len(details.PerFileResults) == 1 {
		fr := details.PerFileResults[0]
		details.Path, details.Op = fr.Path, fr.Op
		details.PerFileResults = nil
	}
	return tool.TextResult(withWarnings(strings.Join(texts, "\n"), details.Warnings), details), nil
}

// entryOf is the patch-mode operation a file section of the envelope is.
func entryOf(op applypatch.FileOp) patchModeEntry {
	e := patchModeEntry{Op: "update", Rename: op.MovePath, Diff: op.Diff}
	switch op.Kind {
	case applypatch.AddFile:
		e.Op = "create"
	case applypatch.DeleteFile:
		e.Op = "delete"
	}
	return e
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
		oldLines, newLines, oldFinal, newFinal = c.OldLines, c.NewLines, c.OldFinal, c.NewFinal
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
