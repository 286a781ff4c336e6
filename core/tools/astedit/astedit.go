// Package astedit is the ast_edit tool: structural rewrites with ast-grep
// patterns. A call never writes: it previews every replacement and queues
// a pending action; the hidden resolve tool applies it (re-running the
// rewrite and refusing when the counts changed) or discards it.
package astedit

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/astgrep"
	"github.com/gopi-agent/gopi/core/tools/resolve"
)

// PreviewWidth caps each shown before/after line, in characters.
const PreviewWidth = 120

// Texts fixed by the reference agent.
const (
	NoReplacements = "No replacements made"
	LimitReached   = "Limit reached; narrow paths."
)

const description = `Rewrite code by syntax structure with ast-grep patterns. Each op replaces every node matching
pat with out; metavariables captured in pat ($NAME one node, $$$NAME zero or more nodes, $_ and $$$
uncaptured) are substituted into out; an empty out deletes the match. Metavariable names are upper
case and stand for whole nodes. Example op: {"pat": "oldAPI($A, $$$REST)", "out": "newAPI($$$REST, $A)"}.
Each replacement is 1:1: one capture cannot turn into several sibling nodes unless the grammar
allows that at its place. Files must all be of one language. The call only previews the changes
(-old/+new lines); resolve then applies or discards them. Overlapping matches are refused: refine
the pattern. For a one-off change at one place, use edit instead.`

// Tool is the ast_edit tool bound to a session.
type Tool struct {
	env   *tool.Env
	queue *resolve.Queue
}

// New returns the ast_edit tool for env; previews are queued on q, the
// session's queue, where the resolve tool finds them.
func New(env *tool.Env, q *resolve.Queue) tool.Tool { return &Tool{env: env, queue: q} }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	op := tool.Object(map[string]*tool.Schema{
		"pat": {Type: "string", Description: "AST pattern to match"},
		"out": {Type: "string", Description: "Replacement; captures are substituted; empty deletes"},
	}, "pat", "out")
	return tool.Definition{
		Name:        "ast_edit",
		Label:       "AST Edit",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"ops":   {Type: "array", Items: op, MinItems: tool.Ptr(1), Description: "Rewrite rules"},
			"paths": {Type: "array", Items: &tool.Schema{Type: "string"}, MinItems: tool.Ptr(1), Description: "Files, directories or globs to rewrite"},
		}, "ops", "paths"),
		Concurrency: tool.Exclusive,
	}
}

// Details is the structured part of an ast_edit (or its apply) result.
type Details struct {
	TotalReplacements int            `json:"totalReplacements"`
	FilesTouched      int            `json:"filesTouched"`
	FilesSearched     int            `json:"filesSearched"`
	Applied           bool           `json:"applied"`
	LimitReached      bool           `json:"limitReached"`
	ParseErrors       []string       `json:"parseErrors,omitempty"`
	ScopePath         string         `json:"scopePath,omitempty"`
	Files             []string       `json:"files,omitempty"`
	FileReplacements  map[string]int `json:"fileReplacements,omitempty"`
	// Written lists the files an apply replaced on disk (all of Files
	// on success, some of them when the apply failed part way).
	Written []string `json:"written,omitempty"`
	// Diagnostics is what the language servers reported about the files
	// an apply wrote, when a server handles them and answered in the
	// budget.
	Diagnostics *tool.FileDiagnostics `json:"diagnostics,omitempty"`
}

// Execute previews the rewrite and queues its apply.
func (t *Tool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Ops []struct {
			Pat string `json:"pat"`
			Out string `json:"out"`
		} `json:"ops"`
		Paths []string `json:"paths"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	rules := make([]ast.Rewrite, len(a.Ops))
	for i, op := range a.Ops {
		rules[i] = ast.Rewrite{Pattern: op.Pat, Out: op.Out}
	}
	if err := ast.ValidateRewrites(rules); err != nil {
		return nil, tool.Errorf("%v", err)
	}
	sc, grouped, err := astgrep.Scope(t.env, a.Paths)
	if err != nil {
		return nil, err
	}
	maxFiles := t.env.Settings.ASTMaxFiles
	if maxFiles <= 0 {
		maxFiles = ast.DefaultMaxFiles
	}
	req := ast.EditRequest{Scope: sc, Rules: rules, MaxFiles: maxFiles, DryRun: true}
	res, err := run(ctx, req)
	if err != nil {
		return nil, err
	}
	d := t.details(res, sc)
	text := t.render(res, grouped, d)
	if res.TotalReplacements > 0 && t.queue != nil {
		preview, shown := d, changesDigest(res)
		targets := make([]string, len(res.Files))
		for i, f := range res.Files {
			targets[i] = f.Abs
		}
		t.queue.Push(&resolve.Action{
			Label:      fmt.Sprintf("AST edit: %d replacements in %d files", res.TotalReplacements, res.FilesTouched),
			SourceTool: "ast_edit",
			Apply: func(ctx context.Context, _ string) (*tool.Result, error) {
				return t.apply(ctx, req, preview, shown, targets)
			},
		})
	}
	return tool.TextResult(text, d), nil
}

func run(ctx context.Context, req ast.EditRequest) (*ast.EditResult, error) {
	res, err := ast.Edit(ctx, req)
	if err != nil {
		if errors.Is(err, ast.ErrAborted) {
			return nil, fmt.Errorf("%w: %w", tool.ErrAborted, err)
		}
		return nil, tool.Errorf("%v", err)
	}
	return res, nil
}

// apply runs the rewrite again and writes it only when it still makes
// exactly the changes the model saw: the same counts per file (the
// reference agent's check) and the same edits, byte for byte, so code
// that changed since the preview is never rewritten unseen. The check
// runs inside the one run that writes, between computing and writing.
// The files written (of targets, those the preview changes) are then
// checked by the session's language servers (lsp.diagnosticsOnEdit).
func (t *Tool) apply(ctx context.Context, req ast.EditRequest, preview *Details, shown [sha256.Size]byte, targets []string) (*tool.Result, error) {
	checks := make(map[string]*tool.WriteDiag, len(targets))
	for _, abs := range targets {
		checks[abs] = t.env.BeginDiagnostics(abs, "ast_edit", tool.WriteEdit)
	}
	req.DryRun = false
	req.Check = func(live *ast.EditResult) error {
		if stale(t.details(live, req.Scope), preview) {
			return tool.Errorf("The preview is stale: it showed %d replacements in %d files, the files now give %d in %d. Run ast_edit again to see the current changes.",
				preview.TotalReplacements, preview.FilesTouched, live.TotalReplacements, live.FilesTouched)
		}
		if changesDigest(live) != shown {
			return tool.Errorf("The preview is stale: the code it would change is no longer what it showed (same counts, different text). Run ast_edit again to see the current changes.")
		}
		return nil
	}
	done, err := ast.Edit(ctx, req)
	var te *tool.Error
	if errors.As(err, &te) {
		return nil, err
	}
	var partial *ast.PartialWriteError
	if errors.As(err, &partial) && done != nil {
		return t.partial(done, req.Scope, partial), nil
	}
	if err != nil {
		if errors.Is(err, ast.ErrAborted) {
			return nil, fmt.Errorf("%w: %w", tool.ErrAborted, err)
		}
		return nil, tool.Errorf("%v", err)
	}
	d := t.details(done, req.Scope)
	res := tool.TextResult(fmt.Sprintf("Applied %d replacements in %d files.", done.TotalReplacements, done.FilesTouched), d)
	written := map[string]bool{}
	for _, p := range done.Written {
		written[p] = true
	}
	var wds []*tool.WriteDiag
	var changed [][]tool.LineSpan
	for _, f := range done.Files {
		if wd := checks[f.Abs]; wd != nil && written[f.Path] {
			wds, changed = append(wds, wd), append(changed, changedSpans(f))
		}
	}
	if fd := tool.MergeFileDiagnostics(tool.AfterAll(ctx, wds, changed)...); fd != nil {
		d.Diagnostics = fd
		res.AppendText(fd.Notice())
	}
	return res, nil
}

// changedSpans returns the lines of a rewritten file its replacements
// cover, in the new text (each earlier replacement moves the later ones
// by the lines it added or removed).
func changedSpans(f ast.FileChanges) []tool.LineSpan {
	spans := make([]tool.LineSpan, 0, len(f.Changes))
	delta := 0
	for _, c := range f.Changes {
		first := c.Start.Line + delta
		added := strings.Count(c.After, "\n")
		spans = append(spans, tool.LineSpan{First: first, Last: first + added})
		delta += added - strings.Count(c.Before, "\n")
	}
	return spans
}

// partial is the error result of an apply that replaced some files and
// then failed: it names the files that now hold the new content and those
// left unchanged, since the model cannot simply run the rewrite again.
func (t *Tool) partial(res *ast.EditResult, sc ast.Scope, pe *ast.PartialWriteError) *tool.Result {
	d := t.details(res, sc)
	abs := map[string]string{}
	for _, f := range res.Files {
		abs[f.Path] = f.Abs
	}
	shown := func(paths []string) string {
		out := make([]string, len(paths))
		for i, p := range paths {
			out[i] = p
			if a, ok := abs[p]; ok {
				out[i] = t.env.DisplayPath(a)
			}
		}
		return strings.Join(out, ", ")
	}
	text := fmt.Sprintf("The rewrite was only partly applied: %d of %d files were written before a write failed (%v).\nWritten (new content): %s\nNot written (unchanged): %s\nCheck the written files before running ast_edit again.",
		len(pe.Written), len(pe.Written)+len(pe.Unwritten), pe.Err, shown(pe.Written), shown(pe.Unwritten))
	return &tool.Result{Content: []tool.Content{tool.Text(text)}, Details: d, IsError: true}
}

// changesDigest fingerprints every change of a rewrite: file, byte range,
// old and new text.
func changesDigest(res *ast.EditResult) [sha256.Size]byte {
	h := sha256.New()
	for _, f := range res.Files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.Path, len(f.Changes))
		for _, c := range f.Changes {
			fmt.Fprintf(h, "%d\x00%d\x00%d\x00%s\x00%d\x00%s\x00", c.EditStart, c.EditEnd, len(c.Before), c.Before, len(c.After), c.After)
		}
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// stale compares totals and per-file counts.
func stale(live, preview *Details) bool {
	if live.TotalReplacements != preview.TotalReplacements || live.FilesTouched != preview.FilesTouched || len(live.FileReplacements) != len(preview.FileReplacements) {
		return true
	}
	for f, n := range preview.FileReplacements {
		if live.FileReplacements[f] != n {
			return true
		}
	}
	return false
}

func (t *Tool) details(res *ast.EditResult, sc ast.Scope) *Details {
	d := &Details{
		TotalReplacements: res.TotalReplacements, FilesTouched: res.FilesTouched, FilesSearched: res.FilesSearched,
		Applied: res.Applied, LimitReached: res.LimitReached, ParseErrors: astgrep.IssueStrings(t.env, append(slices.Clone(res.ParseIssues), res.Refused...)),
		ScopePath: astgrep.ScopePath(t.env, sc), FileReplacements: map[string]int{},
	}
	written := map[string]bool{}
	for _, p := range res.Written {
		written[p] = true
	}
	for _, f := range res.Files {
		p := t.env.DisplayPath(f.Abs)
		d.Files = append(d.Files, p)
		d.FileReplacements[p] = len(f.Changes)
		if written[f.Path] {
			d.Written = append(d.Written, p)
		}
	}
	return d
}

// render shows each change as "-REF|before" / "+REF|after" (hashline
// mode) or "-LINE:COL before" / "+LINE:COL after", first lines only, cut
// to PreviewWidth.
func (t *Tool) render(res *ast.EditResult, grouped bool, d *Details) string {
	if res.TotalReplacements == 0 {
		text := NoReplacements
		if is := astgrep.FormatIssues(d.ParseErrors); is != "" {
			text += "\n\n" + is
		}
		return astgrep.AppendUnsupported(text, res.Unsupported)
	}
	hash := t.env.DisplayMode(false, false) == tool.DisplayHashline
	var b strings.Builder
	for i, f := range res.Files {
		if grouped {
			if i > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "# %s\n", t.env.DisplayPath(f.Abs))
		}
		var lines []string
		if hash {
			if data, err := os.ReadFile(f.Abs); err == nil {
				lines = strings.Split(string(data), "\n")
			}
		}
		for _, c := range f.Changes {
			ref := fmt.Sprintf("%d:%d ", c.Start.Line+1, c.Start.Column+1)
			if hash && c.Start.Line < len(lines) {
				ref = tool.DisplayHashline.LineRef(c.Start.Line+1, strings.TrimSuffix(lines[c.Start.Line], "\r")) + "|"
			}
			fmt.Fprintf(&b, "-%s%s\n+%s%s\n", ref, firstLine(c.Before), ref, firstLine(c.After))
		}
	}
	text := strings.TrimSuffix(b.String(), "\n")
	if res.LimitReached {
		text += "\n\n" + LimitReached
	}
	if is := astgrep.FormatIssues(d.ParseErrors); is != "" {
		text += "\n\n" + is
	}
	return astgrep.AppendUnsupported(text, res.Unsupported)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	s = strings.TrimSuffix(s, "\r")
	cut, _ := tool.TruncateLine(s, PreviewWidth)
	return cut
}

// Access reports that an ast_edit call needs no permission: it only
// previews; applying the preview (resolve) asks for ast_edit's.
func (t *Tool) Access(tool.Args) tool.Access { return tool.Access{} }
