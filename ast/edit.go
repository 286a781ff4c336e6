package ast

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/native/astgrep"
)

// ErrOverlap is returned when two edits of one file overlap.
var ErrOverlap = errors.New("Overlapping replacements detected; refine pattern to avoid ambiguous edits")

// Rewrite is one rule: matches of Pattern are replaced by Out, with
// captured metavariables substituted; an empty Out deletes the match.
type Rewrite struct {
	Pattern string
	Out     string
	// Rule, when set, is an ast-grep rule document with a fix (see
	// RuleConfig.Engine) that ast-grep's rule engine runs: its fix is the
	// rewrite, Out is unused and Pattern only names the rule in changes.
	Rule string
}

// EditRequest is one structural rewrite.
type EditRequest struct {
	Scope
	Rules           []Rewrite
	Lang            string // "" = the one language every candidate infers to
	Strictness      astgrep.Strictness
	MaxFiles        int  // stop after this many changed files; <= 0 = no cap
	MaxReplacements int  // stop after this many replacements; <= 0 = no cap
	DryRun          bool // compute the changes but write nothing
	MaxFileSize     int64
	Timeout         time.Duration
	// SkipOverlapping leaves out an edit that overlaps an earlier one in
	// the file (the outer of nested matches is kept), as the ast-grep CLI's
	// --update-all does; a second run rewrites what is left. Without it an
	// overlap is ErrOverlap and nothing is written (the ast_edit tool's
	// contract).
	SkipOverlapping bool
	// Check, when set, sees the computed changes before anything is
	// written; an error from it is returned as is and nothing is written
	// (resolve uses it to refuse a preview that no longer matches).
	Check func(*EditResult) error

	steps writeSteps // how files are staged and renamed: atomicfile's; tests make a step fail
}

// Change is one replacement.
type Change struct {
	Pattern    string
	Start, End astgrep.Pos // of the matched node
	EditStart  int         // byte range replaced
	EditEnd    int
	Before     string
	After      string
}

// FileChanges are the replacements in one file, in source order.
type FileChanges struct {
	Path    string
	Abs     string
	Changes []Change
}

// EditResult is the outcome of a rewrite (a preview when DryRun).
type EditResult struct {
	Files             []FileChanges // files with at least one change, by path
	TotalReplacements int
	FilesTouched      int
	FilesSearched     int
	LimitReached      bool
	Applied           bool // files were written
	// Written lists the display paths of the files replaced on disk: all
	// of Files once Applied, only some when Edit also returns a
	// *PartialWriteError.
	Written     []string
	ParseIssues []ParseIssue
	// Refused lists the files whose rewrite was not applied (nor counted)
	// because it would add a syntax error, with the first such error and
	// its position (not in ParseIssues). A file that already had
	// syntax errors is rewritten when the rewrite adds none.
	Refused      []ParseIssue
	MissingPaths []string
	Lang         string
	// Unsupported counts files left out because their language's grammar
	// is not built in, by canonical language name.
	Unsupported map[string]int
}

// ValidateRewrites checks rules the way the reference agent does before
// any work: at least one, no empty and no duplicate pattern.
func ValidateRewrites(rules []Rewrite) error {
	if len(rules) == 0 {
		return errors.New("At least one rewrite op is required")
	}
	seen := map[string]bool{}
	for _, r := range rules {
		if r.Rule != "" {
			continue
		}
		p := strings.TrimSpace(r.Pattern)
		if p == "" {
			return errors.New("Pattern must not be empty")
		}
		if seen[p] {
			return fmt.Errorf("Duplicate rewrite pattern: %s", p)
		}
		seen[p] = true
	}
	return nil
}

// Edit plans, and unless DryRun applies, a structural rewrite. When
// writing fails no file is changed and the result is nil, except in the
// rare case that some files were already replaced: then the result (with
// Written naming them, Applied false) comes with a *PartialWriteError.
func Edit(ctx context.Context, req EditRequest) (*EditResult, error) {
	if err := ValidateRewrites(req.Rules); err != nil {
		return nil, err
	}
	sorted := slices.Clone(req.Rules)
	slices.SortStableFunc(sorted, func(a, b Rewrite) int {
		return strings.Compare(strings.TrimSpace(a.Pattern), strings.TrimSpace(b.Pattern))
	})
	rules := make([]astgrep.Rule, len(sorted))
	for i, r := range sorted {
		rules[i] = astgrep.Rule{Pattern: strings.TrimSpace(r.Pattern), Rewrite: r.Out, HasRewrite: true, Config: r.Rule}
	}
	pl, err := prepare(ctx, req.Scope, req.Lang, rules, req.Strictness, true)
	if err != nil {
		return nil, err
	}
	defer pl.close()
	pl.narrow(ctx, req.Strictness, false, maxSize(req.MaxFileSize))
	out := &EditResult{FilesSearched: pl.searched(), MissingPaths: pl.missing, Unsupported: pl.unsupported}
	if len(pl.langs) == 1 {
		out.Lang = pl.langs[0]
	}
	opts := astgrep.Options{Edits: true, MaxFileSize: maxSize(req.MaxFileSize), Cache: req.ParseCache.Native()}
	results, err := pl.search(ctx, opts, req.Timeout)
	if err != nil {
		return nil, err
	}
	issues := pl.issues
	var writes []fileWrite
	var check syntaxCheck
	defer check.close()
	for f := range pl.outcomes(results, &issues) {
		c, m, r := f.cand, f.matcher, f.result
		if r.Status != astgrep.Searched || len(r.Matches) == 0 {
			continue
		}
		if req.MaxFiles > 0 && out.FilesTouched >= req.MaxFiles {
			out.LimitReached = true
			break
		}
		src, err := os.ReadFile(c.abs)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", c.display, err)
		}
		changes, err := fileChanges(c, src, r.Matches, m.Rules(), req.SkipOverlapping)
		if err != nil {
			return nil, err
		}
		if req.MaxReplacements > 0 && out.TotalReplacements+len(changes) > req.MaxReplacements {
			changes = changes[:req.MaxReplacements-out.TotalReplacements]
			out.LimitReached = true
		}
		if len(changes) == 0 {
			continue
		}
		updated := applyChanges(src, changes)
		if added, err := check.rewriteError(m, c.display, src, r.SyntaxError, changes, updated); err != nil {
			return nil, err
		} else if added != "" {
			out.Refused = append(out.Refused, ParseIssue{Path: c.display, Message: fmt.Sprintf(rewriteBreaksSyntax, added)})
			continue
		}
		out.Files = append(out.Files, FileChanges{Path: c.display, Abs: c.abs, Changes: changes})
		out.TotalReplacements += len(changes)
		out.FilesTouched++
		writes = append(writes, fileWrite{display: c.display, abs: c.abs, src: src, data: updated})
		if out.LimitReached {
			break
		}
	}
	out.ParseIssues = dedupeIssues(issues)
	if req.Check != nil {
		if err := req.Check(out); err != nil {
			return nil, err
		}
	}
	if req.DryRun {
		return out, nil
	}
	written, err := writeFiles(writes, req.steps)
	done := map[string]bool{}
	for _, p := range written {
		done[p] = true
	}
	for _, w := range writes {
		if done[w.display] {
			if req.ScanCache != nil {
				req.ScanCache.Invalidate(w.abs)
			}
			req.ParseCache.Invalidate(w.abs)
		}
	}
	if err != nil {
		if len(written) == 0 {
			return nil, err
		}
		// Some files were replaced before the failure: the caller gets
		// the result too, so it can say which ones.
		out.Written = written
		return out, err
	}
	out.Written = written
	out.Applied = true
	return out, nil
}

// rewriteBreaksSyntax is the message of a file whose rewrite was refused
// because it would add a syntax error (see syntaxCheck.rewriteError); %s
// says which error and where.
const rewriteBreaksSyntax = "rewrite not applied: it would add a syntax error (%s of the rewritten file); fix the replacement so the result is valid code"

// fileChanges turns the native edits of one file into changes: no-op
// edits dropped, sorted, overlap checked, and verified against src (the
// file may have changed since the native side read it).
func fileChanges(c candidate, src []byte, matches []astgrep.Match, rules []astgrep.Rule, skipOverlapping bool) ([]Change, error) {
	var changes []Change
	crlf := usesCRLF(src)
	for _, nm := range matches {
		e := nm.Edit
		if e == nil {
			continue
		}
		if e.Start < 0 || e.End < e.Start || e.End > len(src) ||
			nm.End.Offset > len(src) || string(src[nm.Start.Offset:nm.End.Offset]) != nm.Text {
			return nil, fmt.Errorf("%s changed while it was being rewritten; run the rewrite again", c.display)
		}
		before := string(src[e.Start:e.End])
		after := e.Replacement
		if crlf {
			after = toCRLF(after)
		}
		if before == after {
			continue
		}
		changes = append(changes, Change{
			Pattern: rules[nm.Rule].Pattern, Start: nm.Start, End: nm.End,
			EditStart: e.Start, EditEnd: e.End, Before: before, After: after,
		})
	}
	slices.SortStableFunc(changes, func(a, b Change) int {
		if a.EditStart != b.EditStart {
			return a.EditStart - b.EditStart
		}
		return a.EditEnd - b.EditEnd
	})
	kept := changes[:0]
	for _, ch := range changes {
		if n := len(kept); n > 0 && (ch.EditStart < kept[n-1].EditEnd || ch.EditStart == kept[n-1].EditStart) {
			if !skipOverlapping {
				return nil, ErrOverlap
			}
			continue
		}
		kept = append(kept, ch)
	}
	return kept, nil
}

// usesCRLF reports whether the file's first line ends with "\r\n": the
// line ending a rewrite's new lines then get, as the edit tool keeps a
// file's line endings.
func usesCRLF(src []byte) bool {
	i := bytes.IndexByte(src, '\n')
	return i > 0 && src[i-1] == '\r'
}

// toCRLF turns every bare "\n" of s into "\r\n".
func toCRLF(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + strings.Count(s, "\n"))
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && (i == 0 || s[i-1] != '\r') {
			b.WriteByte('\r')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// applyChanges applies sorted, non-overlapping changes from the end of the
// file to its start (so each change's offsets are those of the original
// source), collecting the pieces back to front and joining them once.
func applyChanges(src []byte, changes []Change) []byte {
	pieces := make([][]byte, 0, 2*len(changes)+1)
	end := len(src)
	for i := len(changes) - 1; i >= 0; i-- {
		c := changes[i]
		pieces = append(pieces, src[c.EditEnd:end], []byte(c.After))
		end = c.EditStart
	}
	pieces = append(pieces, src[:end])
	slices.Reverse(pieces)
	return slices.Concat(pieces...)
}

// DefaultMaxFiles is the cap on the files one rewrite may change when the
// caller's configuration sets none (PI_MAX_AST_FILES, read by core/config).
const DefaultMaxFiles = 1000
