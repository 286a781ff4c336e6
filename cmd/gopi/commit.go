package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/commitgen"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

func init() {
	commands["commit"] = command{"commit the staged changes with conventional messages written by an agent on the smol model, split into several commits when unrelated", runCommit}
	commandFlagSets["commit"] = func() *pflag.FlagSet { return newCommitFlagSet(&commitCLI{}) }
}

// commitCLI holds the flags of `gopi commit`.
type commitCLI struct {
	push, dryRun, noChangelog, legacy, help bool
	context, model                          string
}

// newCommitFlagSet declares gopi commit's flags on c.
func newCommitFlagSet(c *commitCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("commit", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVar(&c.push, "push", false, "push after committing")
	fs.BoolVar(&c.dryRun, "dry-run", false, "print the message (or the split plan) without committing")
	fs.BoolVar(&c.noChangelog, "no-changelog", false, "leave the CHANGELOG.md files alone")
	fs.BoolVar(&c.legacy, "legacy", false, "one request for the message instead of the agent (no split)")
	fs.StringVarP(&c.context, "context", "c", "", "what the change is about, in your words, for the model")
	cliflags.ValueName(fs, "context", "TEXT")
	fs.StringVarP(&c.model, "model", "m", "", "primary model (default: modelRoles.commit, else smol, else default); see above for the agent's")
	cliflags.ValueName(fs, "model", "MODEL")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const commitHelp = `Usage: gopi commit [--push] [--dry-run] [--no-changelog] [--legacy] [-c TEXT] [-m MODEL]

Commit the staged changes with Conventional Commits messages. With
nothing staged, every change of the working tree, untracked files
included, is staged first (git add -A), as omp does; changes left
unstaged otherwise are never committed. What gopi staged this way is
unstaged again (the index put back exactly as it was) after --dry-run and
when the run fails before making a commit.

By default an agent on the smol model (modelRoles.smol, else a small
model of the primary model's provider, else the primary model; -m names
the primary model, which the agent uses only without a smol model)
inspects the staged diff with git tools and proposes either one commit
or a split into several: each staged file goes to one commit, whole or
by hunks, and commits that need others come after them. On a terminal
gopi asks before applying a split; it is applied commit by commit from a
temporary index, hooks included, and the work tree and the index are
left alone until every commit is made, so if a hook refuses a commit or
the command is interrupted, the commits made stay and the rest is still
staged, as gopi commit then says. A change of only blank lines
or import lines is committed as "style: formatted code" or "style:
reorganized imports" without a model. If the agent fails, or gives no
proposal after three reminders, a message is made from the file names
("● Using fallback commit generation...").

Unless --no-changelog, each staged file's nearest CHANGELOG.md with an
[Unreleased] section gets the entries the agent proposes (Keep a
Changelog categories), staged with the change (with a split, in the
commit the agent puts it in, else the last).

--legacy asks one model (the primary) for one message from the diff
instead: a message that breaks the conventions (a summary over 72
characters or ending with a period, an unknown type, a scope that is not
lowercase) is sent back, three attempts in all; the changelog entries
are asked for first, one request per changelog. A diff of four files or
more (or one very large file) is mapped and reduced: the smol model
reads each file's diff on its own, and the message is written from what
it found (commit.mapReduce* settings; PI_COMMIT_MAP_REDUCE=false turns
it off).

Environment: PI_COMMIT_TEST_FALLBACK=true skips the agent (file-name
message); PI_COMMIT_NO_FALLBACK=true fails instead when the agent
proposes nothing.

Flags:
`

// runCommit implements `gopi commit`.
func runCommit(ctx context.Context, env *cliEnv, args []string) int {
	var c commitCLI
	fs := newCommitFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "commit", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, commitHelp+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() > 0 {
		return fail(env, "commit", cliflags.Usagef("gopi commit takes no arguments, got %q (give context with -c)", fs.Arg(0)))
	}
	repo := &commitgen.Repo{Dir: env.cfg.Cwd, Env: env.cfg.Env.Environ()}
	if err := repo.Check(ctx); err != nil {
		return fail(env, "commit", err)
	}
	// git names staged files from the top of the working tree.
	root, err := repo.Root(ctx)
	if err != nil {
		return fail(env, "commit", err)
	}
	repo.Dir = root
	reg, err := models.Load(env.modelsOptions())
	if err != nil {
		return fail(env, "commit", err)
	}
	if c.legacy {
		return runLegacyCommit(ctx, env, &c, repo, reg)
	}
	return runAgenticCommit(ctx, env, &c, repo, reg)
}

// runLegacyCommit is `gopi commit --legacy`: one model request for the
// message (after one per changelog), checked and retried.
func runLegacyCommit(ctx context.Context, env *cliEnv, c *commitCLI, repo *commitgen.Repo, reg *models.Registry) int {
	files, err := repo.StagedFiles(ctx)
	if err != nil {
		return fail(env, "commit", err)
	}
	if len(files) == 0 {
		fmt.Fprintln(env.stdout, "No staged changes detected, staging all changes...")
		snap, err := repo.StageAll(ctx)
		if err != nil {
			return fail(env, "commit", err)
		}
		// Unstaged again unless a commit was made (Restore checks HEAD):
		// after a dry run or a failure the index is as it was.
		defer func() {
			if _, err := snap.Restore(ctx); err != nil {
				fmt.Fprintf(env.stderr, "gopi commit: %v\n", err)
			}
		}()
		if files, err = repo.StagedFiles(ctx); err != nil {
			return fail(env, "commit", err)
		}
	}
	if len(files) == 0 {
		fmt.Fprintln(env.stderr, "No changes to commit.")
		return exitMatch
	}

	model, err := commitModel(ctx, reg, env.cfg.Settings, c.model)
	if err != nil {
		return fail(env, "commit", err)
	}
	timeouts := env.cfg.ProviderTimeouts()
	client := ai.NewHTTPClient(timeouts.Connect)
	gen := &commitgen.Generator{Model: model, Stream: func(ctx context.Context, req *ai.Request) *ai.Stream {
		req.FirstEventTimeout, req.IdleTimeout = timeouts.FirstEvent, timeouts.Idle
		return reg.Stream(ctx, req, client)
	}}
	if !c.noChangelog {
		changed, err := gen.UpdateChangelogs(ctx, repo, files, c.dryRun)
		if err != nil {
			return fail(env, "commit", fmt.Errorf("changelog: %w (--no-changelog skips this step)", err))
		}
		for _, p := range changed {
			verb := "Updated"
			if c.dryRun {
				verb = "Would update"
			}
			fmt.Fprintf(env.stdout, "%s %s\n", verb, p)
		}
	}
	diff, stat, err := repo.StagedDiff(ctx, files)
	if err != nil {
		return fail(env, "commit", err)
	}
	in := commitgen.Input{Diff: diff, Stat: stat, RecentSubjects: repo.RecentSubjects(ctx, 8), Context: c.context}
	if cs := env.cfg.Commit(); cs.MapReduce {
		mo := commitgen.MapReduceOptions{MinFiles: cs.MapReduceMinFiles, MaxFileTokens: cs.MapReduceMaxTokens,
			Concurrency: cs.MapReduceConcurrency, Timeout: time.Duration(cs.MapReduceTimeoutMs) * time.Millisecond}
		if commitgen.UseMapReduce(diff, mo) {
			fmt.Fprintln(env.stdout, "Large diff detected, using map-reduce analysis...")
			gen.Smol = commitAgentModel(reg, env.cfg.Settings, model)
			if in.Observations, err = gen.Observations(ctx, diff, mo); err != nil {
				return fail(env, "commit", err)
			}
		}
	}
	msg, problems, err := gen.Generate(ctx, in)
	if err != nil {
		return fail(env, "commit", err)
	}
	if len(problems) > 0 {
		fmt.Fprintf(env.stderr, "gopi commit: warning: the message still breaks a convention after 3 attempts: %s\n", strings.Join(problems, "; "))
	}
	if c.dryRun {
		fmt.Fprintf(env.stdout, "\nGenerated commit message:\n%s\n", msg)
		return exitMatch
	}
	if err := repo.Commit(ctx, msg.String()); err != nil {
		return fail(env, "commit", err)
	}
	fmt.Fprintln(env.stdout, "Commit created.")
	if c.push {
		if err := repo.Push(ctx); err != nil {
			return fail(env, "commit", fmt.Errorf("the commit is made but not pushed: %w", err))
		}
		fmt.Fprintln(env.stdout, "Pushed to remote.")
	}
	return exitMatch
}

// commitModel picks the model of gopi commit: the one named, else the
// first of the roles commit, smol and default that is assigned and has
// credentials, else a small model of the first provider with credentials.
func commitModel(ctx context.Context, reg *models.Registry, settings *config.Settings, named string) (*ai.Model, error) {
	if named != "" {
		reg.Discover(ctx, nil, 0)
		q, _, _ := models.ParseModelArg(named)
		return reg.Find(q)
	}
	for _, role := range []string{"commit", config.RoleSmol, config.RoleDefault} {
		if ref := settings.ModelRole(role); ref != "" {
			q, _, _ := models.ParseModelArg(ref)
			if m, err := reg.Find(q); err == nil && reg.HasAuth(m) {
				return m, nil
			}
		}
	}
	first := reg.FirstWithAuth()
	if first == nil {
		return nil, fmt.Errorf("no model has credentials: sign in with 'gopi login', set a provider's key variable, or name one with -m")
	}
	if m := reg.SmallModel(first.Provider); m != nil {
		return m, nil
	}
	return first, nil
}
