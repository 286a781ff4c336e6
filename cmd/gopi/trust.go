package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/modes/tui"
)

// settleTrust decides, before the session is built, whether what the
// project's files ask for takes effect (see config.ProjectTrust). On a
// terminal (interactive) a project not answered yet is asked about and
// the answer kept; otherwise, or when the answer was no, what was left
// out and how to allow it are written to stderr. ok is false when the
// user quit at the question.
func settleTrust(ctx context.Context, env *cliEnv, cfg *config.Config, interactive bool) (ok bool) {
	if cfg.ProjectTrusted() {
		return true
	}
	pt := cfg.ProjectTrust()
	if !interactive || pt.Refused {
		reportUntrusted(env.stderr, cfg, pt)
		return true
	}
	q := tui.TrustQuestion{Path: pt.Path, Changed: pt.Changed, AnswersFile: pt.StoreFile}
	for _, it := range pt.Items {
		q.Items = append(q.Items, it.String())
	}
	askTrust := tui.AskTrust
	if env.askTrust != nil {
		askTrust = env.askTrust
	}
	answer, err := askTrust(ctx, q, tui.TrustOptions{Input: env.stdin, Output: env.stdout, Environ: env.environ, NoColor: cfg.Env.Get("NO_COLOR") != ""})
	if err != nil {
		fmt.Fprintf(env.stderr, "gopi: %v; the project is not trusted this time\n", err)
		return true
	}
	switch answer {
	case tui.TrustQuit:
		return false
	case tui.TrustYes, tui.TrustNo:
		if err := cfg.SetProjectTrust(answer == tui.TrustYes, true); err != nil {
			fmt.Fprintf(env.stderr, "gopi: warning: the answer holds for this run only: %v\n", err)
		}
	}
	return true
}

// reportUntrusted says on stderr what an untrusted project asked for
// (none of it took effect) and how to allow it.
func reportUntrusted(w io.Writer, cfg *config.Config, pt config.ProjectTrust) {
	switch {
	case pt.Refused:
		fmt.Fprintf(w, "gopi: you chose not to trust this project (%s), so gopi runs without:\n", pt.StoreFile)
	case pt.Changed:
		fmt.Fprintln(w, "gopi: this project's requests changed since you answered, so until it is trusted again gopi runs without:")
	default:
		fmt.Fprintln(w, "gopi: this project is not trusted, so gopi runs without:")
	}
	for _, it := range pt.Items {
		fmt.Fprintf(w, "  - %s\n", it)
	}
	ask := "answer yes once in the interactive mode here"
	if pt.Refused {
		ask = "delete its entry in " + pt.StoreFile + " to be asked again"
	}
	fmt.Fprintf(w, "gopi: to trust it, run with --trust-project (or %s=1), list %s under %s in %s, or %s\n",
		config.EnvTrustProject, pt.Path, config.KeyTrustedProjects, filepath.Join(cfg.AgentDir, config.GlobalSettingsFile), ask)
}
