package commitagent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/commitgen"
	"github.com/gopi-agent/gopi/core/prompt"
)

// Options configure Run: the agent's options, how to pick the models, and
// what the user asked for.
type Options struct {
	AgentOptions

	// ResolveModels picks the primary model (the one shown) and the
	// agent's model; it runs after the changes are staged.
	ResolveModels func(ctx context.Context) (primary, agentModel *ai.Model, err error)

	DryRun      bool // print the plan and messages, commit nothing
	Push        bool // push after committing
	NoChangelog bool // leave the changelogs alone

	ForceFallback bool // skip the agent: the file-name message (PI_COMMIT_TEST_FALLBACK)
	NoFallback    bool // no file-name message when the agent gives no proposal (PI_COMMIT_NO_FALLBACK)

	// Confirm asks whether to apply a split of n commits; nil applies it.
	Confirm func(n int) bool

	Home string    // the user's home directory (context files stop there)
	Err  io.Writer // problems
}

// ErrNoProposal is returned when the agent proposed nothing and the
// fallback is turned off, or gave no changelog entries.
var ErrNoProposal = errors.New("the commit agent gave no proposal")

// Run is `gopi commit` in its agentic mode: stage everything when
// nothing is staged, find the changelogs, let the agent propose (or take
// a trivial or fallback message), update the changelogs, and commit once
// or split. Progress goes to o.Out as omp prints it. What it staged on its
// own is unstaged again (the index put back as it was) after a dry run,
// and after a failure before any commit was made.
func Run(ctx context.Context, o Options) error {
	fmt.Fprintln(o.Out, "● Resolving model...")
	staged, err := o.Repo.StagedFiles(ctx)
	if err != nil {
		return err
	}
	if len(staged) > 0 {
		return run(ctx, o, staged)
	}
	fmt.Fprintln(o.Out, "No staged changes detected, staging all changes...")
	snap, err := o.Repo.StageAll(ctx)
	if err != nil {
		return err
	}
	if staged, err = o.Repo.StagedFiles(ctx); err == nil {
		err = run(ctx, o, staged)
	}
	if err == nil && !o.DryRun {
		return nil
	}
	if _, rerr := snap.Restore(ctx); rerr != nil {
		return errors.Join(err, rerr)
	}
	return err
}

// run is Run once the changes to commit are staged.
func run(ctx context.Context, o Options, staged []string) error {
	out, repo := o.Out, o.Repo
	primary, agentModel, err := o.ResolveModels(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  └─ %s\n", modelName(primary))
	if len(staged) == 0 {
		fmt.Fprintln(o.Err, "No changes to commit.")
		return nil
	}

	var targets []string // absolute paths
	if !o.NoChangelog {
		fmt.Fprintln(out, "● Detecting changelog targets...")
		targets, _ = commitgen.ChangelogFiles(repo.Dir, staged)
		listOrNone(out, targets)
	}
	fmt.Fprintln(out, "● Discovering context files...")
	var agentsMD []string
	if files, _ := prompt.DiscoverContextFiles(prompt.DiscoverOptions{Cwd: repo.Dir, Home: o.Home, RepoRoot: repo.Dir}); files != nil {
		for _, f := range files {
			if strings.HasSuffix(f.Path, "AGENTS.md") {
				agentsMD = append(agentsMD, f.Path)
			}
		}
	}
	listOrNone(out, agentsMD)
	nums, err := repo.Numstat(ctx, true)
	if err != nil {
		return err
	}
	diff, err := repo.Diff(ctx, true, nil)
	if err != nil {
		return err
	}
	c := &committer{o: o}
	if o.ForceFallback {
		fmt.Fprintln(out, "● Forcing fallback commit generation...")
		return c.single(ctx, commitgen.Fallback(nums), []string{commitgen.FallbackWarning})
	}
	if m, ok := commitgen.Trivial(diff); ok {
		fmt.Fprintf(out, "● Detected trivial change: %s\n", m.Summary)
		return c.single(ctx, m, nil)
	}

	rel := make([]string, len(targets))
	var existing []ExistingEntries
	for i, t := range targets {
		rel[i], _ = filepath.Rel(repo.Dir, t)
		if b, err := os.ReadFile(t); err == nil {
			if u, err := commitgen.ParseUnreleased(string(b)); err == nil && len(u.Entries) > 0 {
				existing = append(existing, ExistingEntries{Path: rel[i], Sections: u.Entries})
			}
		}
	}
	fmt.Fprintln(out, "● Starting commit agent...")
	ao := o.AgentOptions
	ao.Model, ao.Changelogs, ao.Existing, ao.StagedDiff = agentModel, rel, existing, diff
	state, err := RunAgent(ctx, ao)
	fallback := false
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while the agent worked: nothing was committed (%w)", ctx.Err())
		}
		fmt.Fprintf(o.Err, "Agent error: %v\n", err)
		fmt.Fprintln(out, "● Using fallback commit generation...")
		state, fallback = &State{proposal: &Proposal{Message: commitgen.Fallback(nums), Warnings: []string{commitgen.FallbackWarning}}}, true
	}
	if !fallback && state.Proposal() == nil && state.Split() == nil {
		if o.NoFallback {
			fmt.Fprintln(o.Err, "Commit agent did not provide a proposal.")
			return ErrNoProposal
		}
		fmt.Fprintln(out, "● Agent did not provide proposal, using fallback...")
		state.proposal, fallback = &Proposal{Message: commitgen.Fallback(nums), Warnings: []string{commitgen.FallbackWarning}}, true
	}

	var changelogFiles []string // relative to the top, for a split's last commit
	if !o.NoChangelog && len(targets) > 0 && !fallback {
		entries := state.Changelog()
		if entries == nil {
			fmt.Fprintln(o.Err, "Commit agent did not provide changelog entries.")
			return ErrNoProposal
		}
		fmt.Fprintln(out, "● Applying changelog entries...")
		var updated []string
		for _, e := range entries {
			if len(e.Entries) == 0 && len(e.Deletions) == 0 {
				continue
			}
			fmt.Fprintf(out, "  ├─ Applying entries for %s…\n", e.Path)
			abs := filepath.Join(repo.Dir, e.Path)
			changed, err := repo.EditChangelog(ctx, abs, e.Entries, e.Deletions, o.DryRun)
			if err != nil {
				return fmt.Errorf("changelog %s: %w (--no-changelog skips this step)", e.Path, err)
			}
			if changed {
				updated = append(updated, abs)
				changelogFiles = append(changelogFiles, e.Path)
			}
		}
		if len(updated) == 0 {
			fmt.Fprintln(out, "  └─ (no changes)")
		}
		for _, p := range updated {
			fmt.Fprintf(out, "  └─ %s\n", p)
		}
	}
	if p := state.Proposal(); p != nil {
		return c.single(ctx, p.Message, p.Warnings)
	}
	return c.split(ctx, *state.Split(), changelogFiles)
}

// listOrNone prints each path as a branch line, or that there is none.
func listOrNone(out io.Writer, paths []string) {
	if len(paths) == 0 {
		fmt.Fprintln(out, "  └─ (none found)")
	}
	for _, p := range paths {
		fmt.Fprintf(out, "  └─ %s\n", p)
	}
}

// modelName is the model's human name, else its id.
func modelName(m *ai.Model) string {
	if m == nil {
		return "(none)"
	}
	if m.Name != "" {
		return m.Name
	}
	return m.ID
}
