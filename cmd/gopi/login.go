package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/auth"
	"github.com/gopi-agent/gopi/core/auth/oauth"
	"github.com/gopi-agent/gopi/core/launch"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

// loginCLI holds the typed flags of `gopi login`.
type loginCLI struct {
	status, list, key, add, help bool
}

// newLoginFlagSet declares gopi login's flags on c.
func newLoginFlagSet(c *loginCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("login", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVar(&c.status, "status", false, "list the stored credentials (provider, kind, expiry, fingerprint; never the secret) and exit")
	fs.BoolVar(&c.list, "list", false, "list the providers one can log in to and exit")
	fs.BoolVar(&c.key, "key", false, "store an API key even for a provider with a subscription sign-in")
	fs.BoolVar(&c.add, "add", false, "keep the provider's other API keys (several are used in turn) instead of replacing them")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const loginHelp = `Usage: gopi login [--key] [--add] [PROVIDER]
       gopi login --status | --list

Sign in to PROVIDER and store the credentials in gopi's agent.db (in the
agent directory, ~/.gopi/agent/agent.db, mode 0600). Without PROVIDER, a
numbered list asks which one.

A provider with a subscription sign-in (listed first by --list) opens a
browser sign-in: the URL is printed, and on a machine without a browser the
code or the whole redirect URL can be pasted back. Tokens are refreshed
before they expire. Any other provider takes an API key, read
without echo from the terminal or as the first line of piped input
(echo "$KEY" | gopi login openai); keys of the providers omp checks are
checked before they are stored.

Credentials in omp's ~/.omp/agent/agent.db are used too, after gopi's own.
Keys are looked up in this order: --api-key, agent.db (gopi's, then omp's),
auth.json, models.yml, the environment.

Flags:
`

// runLogin implements `gopi login`.
func runLogin(ctx context.Context, env *cliEnv, args []string) int {
	var c loginCLI
	fs := newLoginFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "login", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, loginHelp+cliflags.Help(fs))
		return exitMatch
	}
	if fs.NArg() > 1 {
		return fail(env, "login", cliflags.Usagef("give at most one PROVIDER"))
	}
	store := env.credentials()
	switch {
	case c.status:
		return loginStatus(ctx, env, store)
	case c.list:
		reg, err := models.Load(env.modelsOptions())
		if err != nil {
			return fail(env, "login", err)
		}
		printLoginChoices(env.stdout, env.signIns(), launch.KeyProviders(reg), false)
		return exitMatch
	}
	reg, err := models.Load(env.modelsOptions())
	if err != nil {
		return fail(env, "login", err)
	}
	in := newLineInput(env)
	provider := fs.Arg(0)
	if provider == "" {
		if provider, err = pickLogin(ctx, env, in, reg); err != nil {
			return fail(env, "login", err)
		}
	}
	if flow, ok := auth.Lookup(env.signIns())(provider); ok && !c.key {
		fmt.Fprintf(env.stdout, "Logging in to %s…\n", provider)
		if err := store.Login(ctx, flow, &cliLoginUI{env: env, in: in}); err != nil {
			return fail(env, "login", err)
		}
		fmt.Fprintf(env.stdout, "\nCredentials saved to %s\n", store.Path())
		return exitMatch
	}
	p, ok := reg.Provider(provider)
	if !ok {
		return fail(env, "login", fmt.Errorf("unknown provider %q; `gopi login --list` shows the known ones", provider))
	}
	key, err := readAPIKey(ctx, env, in, p)
	if err != nil {
		return fail(env, "login", err)
	}
	if check, ok := auth.KeyCheckFor(provider); ok {
		fmt.Fprintln(env.stderr, "Validating API key...")
		if err := check.Check(ctx, env.httpClient, key); err != nil {
			return fail(env, "login", fmt.Errorf("%w; the key was not stored", err))
		}
	}
	if err := store.Save(ctx, provider, auth.APIKey(key), c.add); err != nil {
		return fail(env, "login", err)
	}
	fmt.Fprintf(env.stdout, "API key saved to %s\n", store.Path())
	return exitMatch
}

// readAPIKey asks for provider's key: hidden on a terminal, else the first
// line of the input.
func readAPIKey(ctx context.Context, env *cliEnv, in *lineInput, p *models.ProviderInfo) (string, error) {
	if env.stdinTerminal {
		fmt.Fprintf(env.stderr, "Paste your %s API key: ", p.Title)
	}
	key, err := in.secret(ctx)
	if env.stdinTerminal {
		fmt.Fprintln(env.stderr)
	}
	if err != nil {
		return "", fmt.Errorf("reading the API key: %w", err)
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return "", fmt.Errorf("API key is required: paste it, or pipe it in (echo \"$KEY\" | gopi login %s)", p.Name)
	}
	return key, nil
}

// printLoginChoices lists the sign-in flows, then the API-key providers;
// numbered for the picker.
func printLoginChoices(w io.Writer, flows []oauth.Provider, keys []auth.KeyProvider, numbered bool) {
	width := 20 // ids line up in one column, however long the longest
	for _, p := range flows {
		width = max(width, len(p.ID()))
	}
	for _, p := range keys {
		width = max(width, len(p.ID))
	}
	n := 0
	line := func(id, name string) {
		n++
		if numbered {
			fmt.Fprintf(w, "  %2d. %-*s %s\n", n, width, id, name)
		} else {
			fmt.Fprintf(w, "  %-*s %s\n", width, id, name)
		}
	}
	if len(flows) > 0 {
		fmt.Fprintln(w, "Subscription sign-in:")
		for _, p := range flows {
			line(p.ID(), p.Name())
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "API key:")
	for _, p := range keys {
		line(p.ID, p.Name)
	}
}

// pickLogin asks which provider to log in to.
func pickLogin(ctx context.Context, env *cliEnv, in *lineInput, reg *models.Registry) (string, error) {
	if !env.stdinTerminal {
		return "", cliflags.Usagef("name the provider: gopi login PROVIDER (gopi login --list shows them)")
	}
	flows, keys := env.signIns(), launch.KeyProviders(reg)
	fmt.Fprintln(env.stdout, "Select a provider:")
	fmt.Fprintln(env.stdout)
	printLoginChoices(env.stdout, flows, keys, true)
	total := len(flows) + len(keys)
	fmt.Fprintf(env.stdout, "\nEnter number (1-%d) or a provider name: ", total)
	answer, err := in.line(ctx)
	if err != nil {
		return "", err
	}
	answer = strings.TrimSpace(answer)
	i, err := strconv.Atoi(answer)
	switch {
	case err != nil && answer != "":
		return answer, nil
	case err != nil || i < 1 || i > total:
		return "", fmt.Errorf("invalid selection %q: enter a number from 1 to %d", answer, total)
	case i <= len(flows):
		return flows[i-1].ID(), nil
	}
	return keys[i-1-len(flows)].ID, nil
}

// loginStatus prints the stored credentials without their secrets.
func loginStatus(ctx context.Context, env *cliEnv, store *auth.Store) int {
	entries, err := store.Status(ctx)
	if err != nil {
		return fail(env, "login", err)
	}
	if len(entries) == 0 {
		fmt.Fprintln(env.stdout, "No credentials stored.")
		fmt.Fprintln(env.stdout, "Use 'gopi login' to authenticate.")
		return exitMatch
	}
	fmt.Fprintln(env.stdout, "Logged-in providers:")
	fmt.Fprintln(env.stdout)
	tw := tabwriter.NewWriter(env.stdout, 0, 0, 2, ' ', 0)
	now := time.Now()
	for _, e := range entries {
		expiry := "-"
		switch {
		case e.Kind == auth.KindOAuth && e.Expires.IsZero():
			expiry = "no expiry"
		case !e.Expires.IsZero() && !now.Before(e.Expires):
			expiry = "expired " + e.Expires.UTC().Format("2006-01-02 15:04 MST")
		case !e.Expires.IsZero():
			expiry = "expires " + e.Expires.UTC().Format("2006-01-02 15:04 MST")
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", e.Provider, e.Kind, expiry, e.Fingerprint, e.Source)
	}
	tw.Flush()
	return exitMatch
}

// cliLoginUI runs a sign-in on the command line: the URL and progress on
// standard output, answers from standard input.
type cliLoginUI struct {
	env *cliEnv
	in  *lineInput
}

// Auth prints the URL to open and what to do there.
func (u *cliLoginUI) Auth(info oauth.AuthInfo) {
	fmt.Fprintf(u.env.stdout, "\nOpen this URL in your browser:\n%s\n", info.URL)
	if info.Instructions != "" {
		fmt.Fprintln(u.env.stdout, info.Instructions)
	}
	fmt.Fprintln(u.env.stdout)
}

// Progress prints a step.
func (u *cliLoginUI) Progress(message string) { fmt.Fprintln(u.env.stdout, message) }

// Prompt asks for a line on standard input (asked again while empty,
// unless empty is allowed).
func (u *cliLoginUI) Prompt(ctx context.Context, p oauth.Prompt) (string, error) {
	for {
		msg := p.Message
		if p.Placeholder != "" {
			msg += " (" + p.Placeholder + ")"
		}
		fmt.Fprintf(u.env.stdout, "%s: ", strings.TrimRight(msg, ": "))
		s, err := u.in.line(ctx)
		if err != nil {
			return "", err
		}
		if s = strings.TrimSpace(s); s != "" || p.AllowEmpty {
			return s, nil
		}
	}
}
