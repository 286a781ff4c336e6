package main

import (
	"context"
	"errors"
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
	logins := &auth.Logins{Store: env.credentials()}
	provider := fs.Arg(0)
	if provider == "" {
		p, err := pickLogout(ctx, env, logins)
		if err != nil {
			return fail(env, "logout", err)
		}
		if p == "" {
			fmt.Fprintln(env.stdout, "No credentials stored.")
			return exitMatch
		}
		provider = p
	}
	text, err := logins.Logout(ctx, provider)
	var de *auth.DBError
	if errors.As(err, &de) {
		return fail(env, "logout", err)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "gopi logout: %v\n", err)
		return exitNoMatch
	}
	fmt.Fprintln(env.stdout, text)
	return exitMatch
}

// pickLogout asks which of the providers with credentials in gopi's
// agent.db to log out from; "" when there are none.
func pickLogout(ctx context.Context, env *cliEnv, logins *auth.Logins) (string, error) {
	providers, err := logins.LoggedIn(ctx)
	if err != nil {
		return "", err
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
