package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/protocol"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/search/glob"
)

// Diagnostics limits.
const (
	maxGlobTargets = 20                     // files one glob checks
	singleWait     = 3 * time.Second        // wait for one file's diagnostics
	batchWait      = 400 * time.Millisecond // wait per file of a glob
)

// diagnostics reports the problems of a file, of the files a glob
// matches, or (file "*") of the whole project through its own checker.
func (c *call) diagnostics(ctx context.Context) *tool.Result {
	if c.file == "*" {
		return c.workspaceDiagnostics(ctx)
	}
	if c.file == "" {
		return c.fail("", "Error: file parameter required. Use `*` for workspace-wide diagnostics or a path/glob for specific files.")
	}
	targets, truncated, err := c.targets(ctx)
	if err != nil {
		return c.fail("", "Error: "+err.Error())
	}
	if len(targets) == 0 {
		return c.ok("", "No files matched pattern: "+c.file)
	}
	detailed := len(targets) > 1 || truncated
	wait := singleWait
	if detailed {
		wait = batchWait
	}
	var out []string
	var names []string
	addName := func(n string) {
		for _, x := range names {
			if x == n {
				return
			}
		}
		names = append(names, n)
	}
	if truncated {
		out = append(out, fmt.Sprintf("⚠ Pattern matched more than %d files; showing first %d. Narrow the glob or use workspace diagnostics.", maxGlobTargets, maxGlobTargets))
	}
	for _, target := range targets {
		if ctx.Err() != nil {
			break
		}
		abs := c.t.env.Resolve(target)
		servers := c.t.mgr.Servers().ForFile(abs)
		if len(servers) == 0 {
			line := "✘ " + target + ": No language server found"
			if m := c.t.mgr.Servers().MissingFor(abs); m != nil {
				line += " (" + m.InstallHint() + ")"
			}
			out = append(out, line)
			continue
		}
		var all []protocol.Diagnostic
		var errs []error
		for _, s := range servers {
			addName(s.Name)
			d, err := c.fileDiagnostics(ctx, s, abs, wait)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %s", s.Name, explain(s, err)))
				continue
			}
			all = append(all, d...)
		}
		rel := c.t.env.DisplayPath(abs)
		if len(errs) == len(servers) {
			if !detailed {
				return c.fail(strings.Join(names, ", "), "LSP error: "+errors.Join(errs...).Error())
			}
			out = append(out, "✘ "+rel+": "+errors.Join(errs...).Error())
			continue
		}
		all = lsp.Dedupe(all)
		lines := make([]diagLine, len(all))
		for i, d := range all {
			lines[i] = formatDiagnostic(d, rel)
		}
		switch {
		case !detailed && len(all) == 0:
			return c.ok(strings.Join(names, ", "), "OK")
		case !detailed:
			return c.ok(strings.Join(names, ", "), summary(all)+":\n"+groupDiagnostics(lines))
		case len(all) == 0:
			out = append(out, "✔ "+rel+": no issues")
		default:
			out = append(out, "✘ "+rel+": "+summary(all), groupDiagnostics(lines))
		}
	}
	return c.ok(strings.Join(names, ", "), strings.Join(out, "\n"))
}

// fileDiagnostics brings abs up to date at one server and waits up to
// wait for its diagnostics; none arriving in time counts as none.
func (c *call) fileDiagnostics(ctx context.Context, s *lsp.Server, abs string, wait time.Duration) ([]protocol.Diagnostic, error) {
	cl, err := c.client(ctx, s)
	if err != nil {
		return nil, err
	}
	if !s.IsLinter {
		if err := cl.WaitProjectLoaded(ctx); err != nil {
			return nil, err
		}
	}
	sync, err := cl.SyncFile(ctx, abs)
	if err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	d, _ := cl.FreshDiagnostics(wctx, sync)
	if !cl.Alive() {
		return nil, errors.New("the server stopped while checking the file; it starts again on the next call")
	}
	return d, nil
}

// targets expands the file argument: a path is itself; a glob (with * ? [
// or {) that is not an existing file lists up to maxGlobTargets files
// under the working directory, ignored files left out.
func (c *call) targets(ctx context.Context) ([]string, bool, error) {
	if !strings.ContainsAny(c.file, "*?[{") {
		return []string{c.file}, false, nil
	}
	if fi, err := os.Stat(c.t.env.Resolve(c.file)); err == nil && !fi.IsDir() {
		return []string{c.file}, false, nil
	}
	res, err := glob.Find(ctx, c.t.env.Cwd, glob.Options{
		Pattern: c.file, FileType: glob.File, Gitignore: true, MaxResults: maxGlobTargets, NoMTime: true,
	})
	if err != nil {
		return nil, false, err
	}
	out := make([]string, len(res.Matches))
	for i, m := range res.Matches {
		out[i] = m.Path
	}
	return out, res.LimitReached, nil
}
