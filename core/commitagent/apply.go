package commitagent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/commitgen"
)

// committer applies a proposal: one commit of the index, or a split.
type committer struct{ o Options }

// warnings prints the proposal's warnings.
func (c *committer) warnings(ws []string) {
	if len(ws) > 0 {
		fmt.Fprintf(c.o.Out, "Warnings:\n- %s\n", strings.Join(ws, "\n- "))
	}
}

// single commits the index with m (prints it with DryRun), then pushes
// when asked.
func (c *committer) single(ctx context.Context, m commitgen.Message, warnings []string) error {
	c.warnings(warnings)
	if c.o.DryRun {
		fmt.Fprintf(c.o.Out, "\nGenerated commit message:\n%s\n", m)
		return nil
	}
	if err := c.o.Repo.Commit(ctx, m.String()); err != nil {
		return err
	}
	fmt.Fprintln(c.o.Out, "Commit created.")
	return c.push(ctx)
}

// push pushes when asked.
func (c *committer) push(ctx context.Context) error {
	if !c.o.Push {
		return nil
	}
	if err := c.o.Repo.Push(ctx); err != nil {
		return fmt.Errorf("the commits are made but not pushed: %w", err)
	}
	fmt.Fprintln(c.o.Out, "Pushed to remote.")
	return nil
}

// SplitError is a split that stopped part way: the commits made, and
// why the next one failed. The repository's index still holds the rest.
type SplitError struct {
	Made   []string // subjects of the commits made
	Staged []string // the files still staged
	Err    error
}

// Error says which commit failed, what was committed and what is still
// staged.
func (e *SplitError) Error() string {
	made := "no commit was made"
	if len(e.Made) > 0 {
		made = fmt.Sprintf("committed before it: %s", strings.Join(quoteAll(e.Made), ", "))
	}
	staged := "nothing is left staged"
	if len(e.Staged) > 0 {
		staged = "still staged, as before: " + strings.Join(e.Staged, ", ")
	}
	return fmt.Sprintf("%v; %s; %s (fix the cause and run gopi commit again for the rest)", e.Err, made, staged)
}

// Unwrap returns the cause.
func (e *SplitError) Unwrap() error { return e.Err }

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// split applies a split plan: the changelogs the agent changed join its
// last commit unless the plan placed them; every staged file must be in
// the plan. DryRun prints the plan instead.
func (c *committer) split(ctx context.Context, plan commitgen.SplitPlan, changelogs []string) error {
	out, repo := c.o.Out, c.o.Repo
	c.warnings(plan.Warnings)
	if n := len(plan.Commits); n > 0 {
		last := &plan.Commits[n-1]
		for _, f := range changelogs {
			if !planned(plan, f) {
				last.Changes = append(last.Changes, commitgen.FileChange{Path: f, Hunks: commitgen.HunkSelector{Type: commitgen.HunksAll}})
			}
		}
	}
	staged, err := repo.StagedFiles(ctx)
	if err != nil {
		return err
	}
	if err := commitgen.CheckCoverage(plan, staged); err != nil {
		fmt.Fprintf(c.o.Err, "Split commit plan missing staged files: %s\n", strings.TrimPrefix(err.Error(), commitgen.ErrPlanIncomplete.Error()+": "))
		return err
	}
	if c.o.DryRun {
		fmt.Fprintln(out, "\nSplit commit plan (dry run):")
		for i, g := range plan.Commits {
			fmt.Fprintf(out, "Commit %d:\n%s\n", i+1, g.Message)
			parts := make([]string, len(g.Changes))
			for j, ch := range g.Changes {
				parts[j] = fmt.Sprintf("%s (%s)", ch.Path, ch.Hunks)
			}
			fmt.Fprintf(out, "Changes: %s\n", strings.Join(parts, ", "))
		}
		return nil
	}
	if c.o.Confirm != nil && !c.o.Confirm(len(plan.Commits)) {
		fmt.Fprintln(out, "Split commit aborted by user.")
		return nil
	}
	order, err := commitgen.Order(plan.Commits)
	if err != nil {
		return err
	}
	diff, err := repo.Diff(ctx, true, nil, "--binary")
	if err != nil {
		return err
	}
	res, err := repo.ApplySplit(ctx, plan, order, diff, nil)
	if err != nil {
		left, lerr := repo.StagedFiles(context.WithoutCancel(ctx))
		if lerr != nil {
			err = errors.Join(err, lerr)
		}
		return &SplitError{Made: res.Made, Staged: left, Err: err}
	}
	fmt.Fprintln(out, "Split commits created.")
	return c.push(ctx)
}

// planned reports whether a group of plan takes path.
func planned(plan commitgen.SplitPlan, path string) bool {
	for _, g := range plan.Commits {
		for _, ch := range g.Changes {
			if ch.Path == path {
				return true
			}
		}
	}
	return false
}
