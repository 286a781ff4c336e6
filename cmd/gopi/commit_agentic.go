package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/commitagent"
	"github.com/gopi-agent/gopi/core/commitgen"
	"github.com/gopi-agent/gopi/core/config"
)

// runAgenticCommit is `gopi commit` without --legacy: the commit agent
// (core/commitagent).
func runAgenticCommit(ctx context.Context, env *cliEnv, c *commitCLI, repo *commitgen.Repo, reg *models.Registry) int {
	cs := env.cfg.Commit()
	o := commitagent.Options{
		AgentOptions: commitagent.AgentOptions{
			Config: env.cfg, Models: reg, HTTPClient: env.httpClient,
			Repo: repo, Context: c.context, Out: env.stdout, Live: env.isTerminal,
		},
		ResolveModels: func(ctx context.Context) (*ai.Model, *ai.Model, error) {
			primary, err := commitModel(ctx, reg, env.cfg.Settings, c.model)
			if err != nil {
				return nil, nil, err
			}
			return primary, commitAgentModel(reg, env.cfg.Settings, primary), nil
		},
		DryRun: c.dryRun, Push: c.push, NoChangelog: c.noChangelog,
		ForceFallback: cs.ForceFallback, NoFallback: cs.NoFallback,
		Home: env.cfg.Home, Err: env.stderr,
	}
	if env.isTerminal && env.stdinTerminal {
		in := bufio.NewReader(env.stdin)
		o.Confirm = func(n int) bool {
			fmt.Fprintf(env.stdout, "Split commit plan has %d commits. Proceed? (y/N): ", n)
			answer, _ := in.ReadString('\n')
			a := strings.ToLower(strings.TrimSpace(answer))
			return a == "y" || a == "yes"
		}
	}
	switch err := commitagent.Run(ctx, o); {
	case err == nil:
		return exitMatch
	case errors.Is(err, commitagent.ErrNoProposal), errors.Is(err, commitgen.ErrPlanIncomplete):
		return exitError // already said on stderr
	default:
		return fail(env, "commit", err)
	}
}

// commitAgentModel is the model the commit agent runs on, as omp picks
// it: the smol role's model when it has credentials, else a small model
// of the primary model's provider with credentials, else the primary.
func commitAgentModel(reg *models.Registry, settings *config.Settings, primary *ai.Model) *ai.Model {
	if ref := settings.ModelRole(config.RoleSmol); ref != "" {
		q, _, _ := models.ParseModelArg(ref)
		if m, err := reg.Find(q); err == nil && reg.HasAuth(m) {
			return m
		}
	}
	if m := reg.SmallModel(primary.Provider); m != nil && reg.HasAuth(m) {
		return m
	}
	return primary
}
