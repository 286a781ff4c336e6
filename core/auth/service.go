package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// Choice is one provider a front end offers to log in to.
type Choice struct {
	ID       string // provider id ("anthropic")
	Name     string // human-facing name
	SignIn   bool   // a subscription sign-in flow; else an API key
	LoggedIn bool   // credentials are stored for it (any source)
}

// KeyProvider is a provider that takes an API key.
type KeyProvider struct{ ID, Name string }

// Logins is the login side of the store for the interactive and RPC
// modes: the sign-in flows, the providers that take an API key, and the
// store they write to. Its methods are safe for concurrent use.
type Logins struct {
	Store  *Store
	Flows  []oauth.Provider // subscription sign-ins, in omp's order
	Keys   []KeyProvider    // providers that take an API key
	Client *http.Client     // for API-key checks; nil for the default
}

// Choices lists the sign-in flows, then the API-key providers.
func (l *Logins) Choices() []Choice {
	var out []Choice
	for _, p := range l.Flows {
		out = append(out, Choice{ID: p.ID(), Name: p.Name(), SignIn: true, LoggedIn: l.Store.Stored(p.ID()) != ""})
	}
	for _, k := range l.Keys {
		out = append(out, Choice{ID: k.ID, Name: k.Name, LoggedIn: l.Store.Stored(k.ID) != ""})
	}
	return out
}

// SignIn runs provider id's sign-in flow through ui and stores it.
func (l *Logins) SignIn(ctx context.Context, id string, ui oauth.UI) error {
	p, ok := Lookup(l.Flows)(id)
	if !ok {
		return fmt.Errorf("unknown sign-in provider %q", id)
	}
	return l.Store.Login(ctx, p, ui)
}

// SaveKey checks key where omp checks that provider's keys, then stores
// it in place of the provider's others.
func (l *Logins) SaveKey(ctx context.Context, id, key string) error {
	key = strings.TrimSpace(key)
	if key == "" {
		return errors.New("API key is required")
	}
	if check, ok := KeyCheckFor(id); ok {
		if err := check.Check(ctx, l.Client, key); err != nil {
			return fmt.Errorf("%w; the key was not stored", err)
		}
	}
	return l.Store.Save(ctx, id, APIKey(key), false)
}

// LoggedIn lists the providers with credentials in gopi's agent.db, the
// ones Logout can remove.
func (l *Logins) LoggedIn(ctx context.Context) ([]string, error) {
	entries, err := l.Store.Status(ctx)
	seen := map[string]bool{}
	var out []string
	for _, e := range entries {
		if e.Source == SourceGopi && !seen[e.Provider] {
			seen[e.Provider] = true
			out = append(out, e.Provider)
		}
	}
	return out, err
}

// Logout removes provider's credentials from gopi's agent.db (soft
// delete) and says what happened in one line.
func (l *Logins) Logout(ctx context.Context, provider string) (string, error) {
	n, err := l.Store.Logout(ctx, provider)
	if err != nil {
		return "", err
	}
	others := l.Store.Elsewhere(provider)
	switch {
	case n == 0 && len(others) > 0:
		return "", fmt.Errorf("not logged in to %s in gopi's agent.db; its credentials come from %s (log out in omp to remove them)", provider, strings.Join(others, ", "))
	case n == 0:
		return "", fmt.Errorf("not logged in to %s", provider)
	case len(others) > 0:
		return fmt.Sprintf("Logged out from %s (still logged in through %s)", provider, strings.Join(others, ", ")), nil
	}
	return "Logged out from " + provider, nil
}
