package rpc

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/gopi-agent/gopi/core/auth"
	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// Logins is what get_login_providers and login use: core/auth's Logins,
// which launch passes.
type Logins interface {
	// Choices lists the providers; the subscription sign-ins are the ones
	// RPC offers.
	Choices() []auth.Choice
	// SignIn runs a sign-in through ui and stores it.
	SignIn(ctx context.Context, id string, ui oauth.UI) error
}

// loginProvider is one entry of get_login_providers, omp's shape.
type loginProvider struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Available     bool   `json:"available"`
	Authenticated bool   `json:"authenticated"`
}

// cmdGetLoginProviders answers get_login_providers: the subscription
// sign-ins and whether credentials are stored for each.
func cmdGetLoginProviders(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	out := []loginProvider{}
	if srv.opts.Logins != nil {
		for _, c := range srv.opts.Logins.Choices() {
			if c.SignIn {
				out = append(out, loginProvider{ID: c.ID, Name: c.Name, Available: true, Authenticated: c.LoggedIn})
			}
		}
	}
	return map[string]any{"providers": out}, nil
}

// loginArgs are the fields of a login frame.
type loginArgs struct {
	ProviderID string `json:"providerId"`
}

// cmdLogin runs login{providerId}: the sign-in runs in the background
// (it waits for the browser) and its response comes when it ends,
// {providerId} on success. The URL goes to the host as an
// extension_ui_request open_url {url, instructions}; progress as notify.
// A flow that must ask something before it has shown a URL cannot be run
// headless and fails, as in omp; one that offers a pasted code as a
// fallback after the URL waits for the browser instead.
func cmdLogin(ctx context.Context, srv *server, id json.RawMessage, a *loginArgs) (any, error) {
	if srv.opts.Logins == nil {
		return nil, fmt.Errorf("Unknown OAuth provider: %s", a.ProviderID)
	}
	known := false
	for _, c := range srv.opts.Logins.Choices() {
		known = known || c.SignIn && c.ID == a.ProviderID
	}
	if !known {
		return nil, fmt.Errorf("Unknown OAuth provider: %s", a.ProviderID)
	}
	srv.prompts.Add(1)
	go func() {
		defer srv.prompts.Done()
		ui := &rpcLoginUI{srv: srv, provider: a.ProviderID}
		if err := srv.opts.Logins.SignIn(ctx, a.ProviderID, ui); err != nil {
			srv.out.send(fail(id, "login", err.Error()))
			return
		}
		srv.out.send(ok(id, "login", map[string]string{"providerId": a.ProviderID}))
	}()
	return skipResponse, nil
}

// rpcLoginUI is oauth.UI over the extension UI sub-protocol.
type rpcLoginUI struct {
	srv      *server
	provider string
	shown    atomic.Bool // the URL went out
}

// Auth sends the URL to the host as open_url.
func (u *rpcLoginUI) Auth(info oauth.AuthInfo) {
	u.shown.Store(true)
	u.srv.ui.fire("open_url", map[string]any{"url": info.URL, "instructions": info.Instructions})
}

// Progress sends a step as notify.
func (u *rpcLoginUI) Progress(message string) { u.srv.ui.Notify(message, "info") }

// Prompt refuses a question asked before the URL (the flow needs a
// terminal), and after it waits for the browser's callback to win.
func (u *rpcLoginUI) Prompt(ctx context.Context, p oauth.Prompt) (string, error) {
	if !u.shown.Load() {
		return "", fmt.Errorf("Provider '%s' requires interactive prompts which are not supported in RPC mode. Use the terminal UI to log in.", u.provider)
	}
	<-ctx.Done()
	return "", ctx.Err()
}
