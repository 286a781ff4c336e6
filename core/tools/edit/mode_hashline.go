package edit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/hashline"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/edit/diff"
	"github.com/gopi-agent/gopi/core/tools/edit/hashedit"
	"github.com/gopi-agent/gopi/core/tools/edit/textfile"
)

// plannedFile is one file of a hashline batch, computed but not written.
type plannedFile struct {
	f        loaded
	oldLines []string
	newLines []string
	newText  string
	data     []byte // the file's new bytes
	warnings []string
	regions  []diff.Region // nil: diff the whole file
}

// runHashline applies a hashline input. Every section is parsed, checked
// and computed in memory first (the preflight); only when all succeed are
// the files written, so a batch never half-applies.
func (t *Tool) runHashline(input string) (*tool.Result, error) {
	in, err := hashedit.Parse(input, t.env.Cwd, t.env.Settings.Separator())
	if err != nil {
		return nil, err
	}
	sections := mergeByFile(in.Sections, t.env.Resolve)
	multi := len(sections) > 1
	// Hold every file's lock from before it is read until after it is
	// written, so that a concurrent edit lands before or after this one,
	// never in between (where one of the two would be lost).
	var abs []string
	for _, sec := range sections {
		abs = append(abs, t.env.Resolve(sec.Path))
	}
	unlock, err := lock(abs...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	opts := hashedit.Options{AutoDropInsertDuplicates: t.env.Settings.HashlineAutoDropPureInsertDuplicates}
	var plans []plannedFile
	for _, sec := range sections {
		p, err := t.planSection(sec, opts)
		if err != nil {
			if multi {
				return nil, fmt.Errorf("@@ %s: %w", sec.Path, err)
			}
			return nil, err
		}
		plans = append(plans, p)
	}
	details := &Details{Mode: string(tool.EditHashline)}
	var texts, warnings []string
	warnings = append(warnings, in.Warnings...)
	for i, p := range plans {
		if err := t.commit(p.f, p.data, p.newText); err != nil {
			if i > 0 {
				var done []string
				for _, w := range plans[:i] {
					done = append(done, w.f.shown)
				}
				return nil, fmt.Errorf("%w (already written: %s)", err, strings.Join(done, ", "))
			}
			return nil, err
		}
		op := "update"
		if !p.f.exists {
			op = "create"
		}
		var edits []diff.Edit
		if p.regions != nil {
			edits = diff.LinesInRegions(p.oldLines, p.newLines, p.regions)
		} else {
			edits = diff.Lines(p.oldLines, p.newLines)
		}
		t.diag.changed(p.f.abs, p.f.shown, edits)
		_, oldFinal := textfile.Lines(p.f.doc.Text)
		_, newFinal := textfile.Lines(p.newText)
		fr := FileResult{
			Path:             p.f.shown,
			Op:               op,
			Diff:             diff.UnifiedScript(p.f.shown, edits, len(p.oldLines), len(p.newLines), oldFinal, newFinal),
			FirstChangedLine: diff.FirstChange(edits),
		}
		details.PerFileResults = append(details.PerFileResults, fr)
		details.Diff += fr.Diff
		if preview := hashedit.PreviewScript(edits); preview != "" {
			texts = append(texts, p.f.shown+":\n"+preview)
		} else if op == "create" {
			texts = append(texts, "Created "+p.f.shown)
		} else {
			texts = append(texts, "Updated "+p.f.shown)
		}
		for _, w := range p.warnings {
			if multi {
				w = p.f.shown + ": " + w
			}
			warnings = append(warnings, w)
		}
		if w := t.env.OutsideCwdWarning(p.f.abs); w != "" {
			warnings = append(warnings, w)
		}
	}
	if len(plans) == 1 {
		fr := details.PerFileResults[0]
		details.Path, details.Op, details.FirstChangedLine = fr.Path, fr.Op, fr.FirstChangedLine
		details.PerFileResults = nil
	} else if len(plans) > 1 {
		details.FirstChangedLine = details.PerFileResults[0].FirstChangedLine
	}
	details.Warnings = warnings
	return tool.TextResult(withWarnings(strings.Join(texts, "\n\n"), warnings), details), nil
}

// mergeByFile merges sections whose paths name the same file ("a.txt"
// and "./a.txt"), keeping the first spelling and the input order of ops.
func mergeByFile(secs []hashedit.Section, resolve func(string) string) []hashedit.Section {
	var out []hashedit.Section
	index := map[string]int{}
	for _, s := range secs {
		abs := resolve(s.Path)
		if i, ok := index[abs]; ok {
			out[i].Ops = append(out[i].Ops, s.Ops...)
			continue
		}
		index[abs] = len(out)
		out = append(out, s)
	}
	return out
}

// planSection loads one file and computes its edited text.
func (t *Tool) planSection(sec hashedit.Section, opts hashedit.Options) (plannedFile, error) {
	if len(sec.Ops) == 0 {
		return plannedFile{}, fmt.Errorf("Edits to %s resulted in no changes being made.", sec.Path)
	}
	abs := t.env.Resolve(sec.Path)
	f, err := t.load(abs, sec.Path)
	if err != nil {
		return plannedFile{}, err
	}
	if !f.exists && hashedit.NeedsFile(sec.Ops) {
		return plannedFile{}, fmt.Errorf("File not found: %s", sec.Path)
	}
	// Lines as omp numbers them: split at every '\n', so the empty line
	// after a final line break has an anchor, and the break is kept or
	// dropped by what the edits do to that line.
	lines := strings.Split(f.doc.Text, "\n")
	if f.doc.BOM {
		bomAnchors(sec.Ops, lines[0])
	}
	res, err := hashedit.Apply(lines, sec.Ops, opts)
	var mm *hashedit.MismatchError
	if errors.As(err, &mm) {
		mm.Path = sec.Path
		snap, ok := t.snapshot(abs)
		if !ok {
			return plannedFile{}, err
		}
		rec, ok := hashedit.Recover(lines, snap, sec.Ops, opts)
		if !ok {
			return plannedFile{}, err
		}
		res, err = rec, nil
	}
	if err != nil {
		return plannedFile{}, err
	}
	// The new bytes are made now, so that a notebook that cannot take the
	// edited text fails the batch before any file is written.
	if !f.exists && res.Lines[len(res.Lines)-1] != "" {
		// Unlike omp, a file an edit creates gets a final line break.
		res.Lines = append(res.Lines, "")
	}
	joined := strings.Join(res.Lines, "\n")
	data, newText, err := f.settle(joined)
	if err != nil {
		return plannedFile{}, err
	}
	if newText != joined {
		// A notebook's markers were renumbered: diff the whole view.
		res.Lines = strings.Split(newText, "\n")
		res.Regions = nil
	}
	if f.exists && newText == f.doc.Text {
		return plannedFile{}, fmt.Errorf("Edits to %s resulted in no changes being made.", sec.Path)
	}
	// The diff and the preview show the texts' lines as omp's do: the
	// empty line after a final break is the break, not a line.
	oldLines, newLines := textLines(lines), textLines(res.Lines)
	return plannedFile{f: f, oldLines: oldLines, newLines: newLines, newText: newText, data: data, warnings: res.Warnings,
		regions: clipRegions(res.Regions, len(oldLines), len(newLines))}, nil
}

// textLines drops the empty last line of lines split at every '\n' (the
// one after a final break, or the only one of an empty text).
func textLines(lines []string) []string {
	if n := len(lines); n > 0 && lines[n-1] == "" {
		return lines[:n-1]
	}
	return lines
}

// clipRegions fits regions over lines split at every '\n' to the same
// texts' textLines, oldLen and newLen long.
func clipRegions(regions []diff.Region, oldLen, newLen int) []diff.Region {
	for i := range regions {
		r := &regions[i]
		r.OldEnd, r.NewEnd = min(r.OldEnd, oldLen), min(r.NewEnd, newLen)
		r.OldStart, r.NewStart = min(r.OldStart, r.OldEnd), min(r.NewStart, r.NewEnd)
	}
	return regions
}

// withWarnings appends a "Warnings:" block when there are any.
func withWarnings(text string, warnings []string) string {
	if len(warnings) == 0 {
		return text
	}
	return text + "\n\nWarnings:\n" + strings.Join(warnings, "\n")
}

// bomAnchors lets line 1 of a file that starts with a byte-order mark be
// named by either anchor omp gives it: omp's read hashes the mark into the
// line while its edit hashes the line without it (the anchor gopi shows).
// Refs with the first kind are rewritten to the second.
func bomAnchors(ops []hashedit.Op, first string) {
	withMark := hashline.Ref{Line: 1, Hash: hashline.LineHash(1, "\uFEFF"+first)}
	plain := hashline.Ref{Line: 1, Hash: hashline.LineHash(1, first)}
	fix := func(r *hashline.Ref) {
		if *r == withMark {
			*r = plain
		}
	}
	for i := range ops {
		fix(&ops[i].At.Ref)
		fix(&ops[i].From)
		fix(&ops[i].To)
	}
}
