package commitgen

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Applying a split without risking the user's work: each commit is built
// in a temporary index (GIT_INDEX_FILE) from HEAD plus the group's part
// of the staged diff, and committed from there, hooks and all. The
// repository's own index and the work tree are never written, so an
// interruption at any point (Ctrl+C, a kill, a hook refusing a commit)
// leaves HEAD at a commit boundary and the index holding what was staged
// before: compared with the new HEAD, exactly the changes of the commits
// not yet made. After the last commit the files taken whole get HEAD's
// index entries (the same, unless a hook rewrote one), so the index
// equals HEAD when the plan took every staged hunk; hunks the plan left
// out stay staged.

// SplitResult reports what ApplySplit did.
type SplitResult struct {
	Made []string // the subjects of the commits made, in order
}

// ApplySplit commits the groups of plan in order (see Order), each from
// its part of stagedDiff (the staged diff, with --binary, taken when the
// plan was made). onCommit, if not nil, is called after each commit. On
// an error the result still lists the commits made; the error names the
// commit that failed.
func (r *Repo) ApplySplit(ctx context.Context, plan SplitPlan, order []int, stagedDiff string, onCommit func(subject string)) (SplitResult, error) {
	var res SplitResult
	files := map[string]FileDiff{}
	for _, fd := range ParseFileDiffs(stagedDiff) {
		files[fd.Path] = fd
	}
	patches := make([]string, len(plan.Commits))
	for _, i := range order {
		p, err := GroupPatch(files, plan.Commits[i])
		if err != nil {
			return res, fmt.Errorf("commit %d of the plan: %w", i+1, err)
		}
		patches[i] = p
	}
	tmp, err := os.MkdirTemp("", "gopi-commit-")
	if err != nil {
		return res, fmt.Errorf("create a temporary index: %w", err)
	}
	defer os.RemoveAll(tmp)
	index := filepath.Join(tmp, "index")
	for _, i := range order {
		msg := plan.Commits[i].Message
		if err := r.commitFromPatch(ctx, index, patches[i], msg.String(), wholeFiles(plan.Commits[i])); err != nil {
			return res, fmt.Errorf("commit %d (%s): %w", i+1, msg.Subject(), err)
		}
		res.Made = append(res.Made, msg.Subject())
		if onCommit != nil {
			onCommit(msg.Subject())
		}
	}
	// The files taken whole are committed as staged, so their index
	// entries already equal HEAD's; unless a hook rewrote one (a
	// formatter that adds its result), which leaves the index holding the
	// version before it. Taking HEAD's entries for them settles both.
	var whole []string
	for _, g := range plan.Commits {
		whole = append(whole, wholeFiles(g)...)
	}
	if len(whole) > 0 {
		if _, err := r.git(ctx, gitTimeout, "", append([]string{"reset", "-q", "--"}, whole...)...); err != nil {
			return res, fmt.Errorf("every commit is made, but the index could not be brought up to date: %w", err)
		}
	}
	return res, nil
}

// wholeFiles are the files a group takes whole.
func wholeFiles(g Group) []string {
	var out []string
	for _, c := range g.Changes {
		if c.Hunks.Type == HunksAll || c.Hunks.Type == "" {
			out = append(out, c.Path)
		}
	}
	return out
}

// commitFromPatch commits HEAD plus patch through the index file index,
// leaving the repository's index alone. Before committing it checks that
// the files taken whole are staged in index as in the repository's index
// (mode and content), so a patch that applied short is never committed.
func (r *Repo) commitFromPatch(ctx context.Context, index, patch, message string, whole []string) error {
	env := []string{"GIT_INDEX_FILE=" + index}
	_ = os.Remove(index)
	base := []string{"read-tree", "HEAD"}
	if !r.hasHead(ctx) {
		base = []string{"read-tree", "--empty"}
	}
	if _, err := r.gitWith(ctx, gitTimeout, env, "", base...); err != nil {
		return err
	}
	if _, err := r.gitWith(ctx, gitTimeout, env, patch, "apply", "--cached", "--binary", "--whitespace=nowarn", "-"); err != nil {
		return err
	}
	if len(whole) > 0 {
		args := append([]string{"ls-files", "--stage", "--"}, whole...)
		want, err := r.git(ctx, gitTimeout, "", args...)
		if err != nil {
			return err
		}
		got, err := r.gitWith(ctx, gitTimeout, env, "", args...)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("the staged changes of %s did not apply as they are staged; nothing was committed for this commit", strings.Join(whole, ", "))
		}
	}
	_, err := r.gitWith(ctx, commitTimeout, env, message, "commit", "-q", "-F", "-")
	return err
}

// hasHead reports whether the repository has a commit.
func (r *Repo) hasHead(ctx context.Context) bool {
	_, err := r.git(ctx, gitTimeout, "", "rev-parse", "--verify", "-q", "HEAD")
	return err == nil
}

// Subject is the first line of the message.
func (m Message) Subject() string {
	s, _, _ := strings.Cut(m.String(), "\n")
	return s
}

// ErrPlanIncomplete is wrapped by CheckCoverage's error.
var ErrPlanIncomplete = errors.New("the split plan leaves staged files out")

// CheckCoverage fails when a staged file is in no group of plan.
func CheckCoverage(plan SplitPlan, staged []string) error {
	planned := map[string]bool{}
	for _, g := range plan.Commits {
		for _, c := range g.Changes {
			planned[c.Path] = true
		}
	}
	var missing []string
	for _, f := range staged {
		if !planned[f] {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %s", ErrPlanIncomplete, strings.Join(missing, ", "))
	}
	return nil
}
