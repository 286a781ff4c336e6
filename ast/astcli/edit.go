package astcli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/native/astgrep"
)

// EditOptions is one `gopi ast edit`.
type EditOptions struct {
	Scope      ast.Scope
	Pattern    string
	Rewrite    string // the replacement; "" deletes the matches
	Lang       string
	Strictness astgrep.Strictness
	Apply      bool   // write the changes; false only previews them
	Expect     string // with Apply: the preview id the changes must have
	MaxFiles   int    // files changed at most (the caller's default resolved)
	Timeout    time.Duration
}

// Edit previews a rewrite, printing its changes and a preview id, or with
// Apply writes it, refusing when Expect names another preview.
func Edit(ctx context.Context, o EditOptions, out Output) (int, error) {
	const cmd = "ast edit"
	var previewID string
	res, err := ast.Edit(ctx, ast.EditRequest{
		Scope: o.Scope, Rules: []ast.Rewrite{{Pattern: o.Pattern, Out: o.Rewrite}}, Lang: o.Lang,
		Strictness: o.Strictness, MaxFiles: o.MaxFiles, DryRun: !o.Apply, Timeout: o.Timeout,
		Check: func(r *ast.EditResult) error {
			id, err := editPreviewID(r)
			if err != nil {
				return err
			}
			previewID = id
			if o.Expect != "" && id != o.Expect {
				return fmt.Errorf("nothing written: the files or the changes differ from the preview %s (now %s); preview again and check the changes", o.Expect, id)
			}
			return nil
		},
	})
	var partial *ast.PartialWriteError
	if errors.As(err, &partial) {
		// Some files already hold the new content: say which, one per
		// line, so that the state of the tree is clear.
		fmt.Fprintf(out.Stderr, "gopi %s: %v\n", cmd, partial.Err)
		fmt.Fprintf(out.Stderr, "gopi %s: the rewrite was only partly applied: %d of %d files written\n",
			cmd, len(partial.Written), len(partial.Written)+len(partial.Unwritten))
		for _, p := range partial.Written {
			fmt.Fprintf(out.Stderr, "gopi %s: written: %s\n", cmd, p)
		}
		for _, p := range partial.Unwritten {
			fmt.Fprintf(out.Stderr, "gopi %s: not written: %s\n", cmd, p)
		}
		return ExitError, nil
	}
	if err != nil {
		return ExitError, err
	}
	w := out.buffer()
	printRewrite(w, res, fmt.Sprintf("preview %s; pass --apply --expect %s to write exactly these", previewID, previewID))
	if res.LimitReached {
		fmt.Fprintln(w, "Limit reached; narrow paths.")
	}
	if err := w.Flush(); err != nil {
		return ExitError, err
	}
	return finishRewrite(out.Stderr, cmd, res), nil
}

// editPreviewID fingerprints a planned rewrite: every file's path and current
// content and every change. A preview prints it and `--apply --expect ID`
// refuses to write when anything differs, so what is applied is what was
// reviewed even if a file changed in between.
func editPreviewID(r *ast.EditResult) (string, error) {
	h := sha256.New()
	for _, f := range r.Files {
		data, err := os.ReadFile(f.Abs)
		if err != nil {
			return "", fmt.Errorf("read %s to check it against the preview: %w", f.Path, err)
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "%q %x %d\n", f.Path, sum, len(f.Changes))
		for _, c := range f.Changes {
			fmt.Fprintf(h, "%d %d %q %q\n", c.EditStart, c.EditEnd, c.Before, c.After)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// printChanges prints each change as "path:line:col", then its old lines
// prefixed "-" and its new ones "+".
func printChanges(w io.Writer, files []ast.FileChanges) {
	for _, f := range files {
		for _, c := range f.Changes {
			fmt.Fprintf(w, "%s:%d:%d\n", f.Path, c.Start.Line+1, c.Start.Column+1)
			for _, l := range strings.Split(c.Before, "\n") {
				fmt.Fprintf(w, "-%s\n", l)
			}
			if c.After != "" {
				for _, l := range strings.Split(c.After, "\n") {
					fmt.Fprintf(w, "+%s\n", l)
				}
			}
		}
	}
}

// printRewrite prints the changes of a rewrite and a line that sums
// them up; a preview's ends in the parenthesis preview.
func printRewrite(w io.Writer, res *ast.EditResult, preview string) {
	printChanges(w, res.Files)
	switch {
	case res.TotalReplacements == 0:
		fmt.Fprintln(w, "No replacements made")
	case res.Applied:
		fmt.Fprintf(w, "Applied %d replacements in %d files.\n", res.TotalReplacements, res.FilesTouched)
	default:
		fmt.Fprintf(w, "%d replacements in %d files (%s).\n", res.TotalReplacements, res.FilesTouched, preview)
	}
}

// finishRewrite reports a rewrite's parse issues and missing paths as
// warnings and the files whose rewrite was refused (it would have added a
// syntax error) as errors, and returns the exit status: ExitError when a
// file was refused, even if others were rewritten, else ExitNoMatch when
// nothing was replaced and ExitMatch when something was.
func finishRewrite(w io.Writer, cmd string, res *ast.EditResult) int {
	reportIssues(w, cmd, res.ParseIssues, res.MissingPaths)
	for i, r := range res.Refused {
		if i == astIssueLines {
			fmt.Fprintf(w, "gopi %s: … %d more files not rewritten\n", cmd, len(res.Refused)-astIssueLines)
			break
		}
		fmt.Fprintf(w, "gopi %s: %s\n", cmd, r)
	}
	switch {
	case len(res.Refused) > 0:
		return ExitError
	case res.TotalReplacements == 0:
		return ExitNoMatch
	}
	return ExitMatch
}
