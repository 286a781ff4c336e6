package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/auth"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

// logoutCLI holds the typed flags of `gopi logout`.
type logoutCLI struct{ help bool }

// newLogoutFlagSet declares gopi logout's flags on c.
func newLogoutFlagSet(c *logoutCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("logout", pflag.ContinueOnError)
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const logoutHelp = `Usage: gopi logout [PROVIDER]

Remove PROVIDER's credentials from gopi's agent.db. Like omp, the rows are
kept but marked "deleted by user" (soft delete) and no longer used. Without
PROVIDER, a numbered list of the logged-in providers asks which one.
Credentials in omp's ~/.omp/agent/agent.db are not touched: log out in omp
to remove those.

Flags:
`

// runLogout implements `gopi logout`.
func runLogout(ctx context.Context, env *cliEnv, args []string) int {
	var c logoutCLI
	fs := newLogoutFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "logout", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, logoutHelp+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() > 1 {
		return fail(env, "logout", cliflags.Usagef("give at most one PROVIDER"))
	}
	store := env.credentials()
	provider := fs.Arg(0)
	if provider == "" {
		p, err := pickLogout(ctx, env, store)
		if err != nil {
			return fail(env, "logout", err)
		}
		if p == "" {
			fmt.Fprintln(env.stdout, "No credentials stored.")
			return exitMatch
		}
		provider = p
	}
	n, err := store.Logout(ctx, provider)
	if err != nil {
		return fail(env, "logout", err)
	}
	others := store.Elsewhere(provider)
	if n == 0 {
		msg := "not logged in to " + provider
		if len(others) > 0 {
			msg += " in gopi's agent.db; its credentials come from " + strings.Join(others, ", ") + " (log out in omp to remove them)"
		}
		fmt.Fprintf(env.stderr, "gopi logout: %s\n", msg)
		return exitNoMatch
	}
	fmt.Fprintf(env.stdout, "Logged out from %s\n", provider)
	if len(others) > 0 {
		fmt.Fprintf(env.stdout, "Still logged in through %s (log out in omp to remove those)\n", strings.Join(others, ", "))
	}
	return exitMatch
}

// pickLogout asks which of the providers with credentials in gopi's
// agent.db to log out from; "" when there are none.
func pickLogout(ctx context.Context, env *cliEnv, store *auth.Store) (string, error) {
	entries, err := store.Status(ctx)
	if err != nil {
		return "", err
	}
	seen := map[string]bool{}
	var providers []string
	for _, e := range entries {
		if e.Source == auth.SourceGopi && !seen[e.Provider] {
			seen[e.Provider] = true
			providers = append(providers, e.Provider)
		}
	}
	sort.Strings(providers)
	if len(providers) == 0 {
		return "", nil
	}
	if !env.stdinTerminal {
		return "", cliflags.Usagef("name the provider: gopi logout PROVIDER (gopi login --status shows them)")
	}
	fmt.Fprintln(env.stdout, "Select a provider to logout:")
	fmt.Fprintln(env.stdout)
	for i, p := range providers {
		fmt.Fprintf(env.stdout, "  %d. %s\n", i+1, p)
	}
	fmt.Fprintf(env.stdout, "\nEnter number (1-%d): ", len(providers))
	answer, err := newLineInput(env).line(ctx)
	if err != nil {
		return "", err
	}
	i, err := strconv.Atoi(strings.TrimSpace(answer))
	if err != nil || i < 1 || i > len(providers) {
		return "", fmt.Errorf("invalid selection %q: enter a number from 1 to %d", strings.TrimSpace(answer), len(providers))
	}
	return providers[i-1], nil
}
