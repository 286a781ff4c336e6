package tui

import (
	"context"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/auth"
	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// fakeLogins records what /login and /logout asked of the store.
type fakeLogins struct {
	mu    sync.Mutex
	saved map[string]string
	out   []string
}

func (f *fakeLogins) Choices() []auth.Choice {
	return []auth.Choice{{ID: "anthropic", Name: "Anthropic (Claude Pro/Max)", SignIn: true}, {ID: "openai", Name: "OpenAI"}}
}

// SignIn plays a paste flow: the URL, then the pasted code.
func (f *fakeLogins) SignIn(ctx context.Context, id string, ui oauth.UI) error {
	ui.Auth(oauth.AuthInfo{URL: "https://auth.example/authorize?state=s", Instructions: "Paste the code below."})
	code, err := ui.Prompt(ctx, oauth.Prompt{Message: "Paste the authorization code"})
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saved[id] = "oauth:" + code
	return nil
}

func (f *fakeLogins) SaveKey(ctx context.Context, id, key string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saved[id] = key
	return nil
}

func (f *fakeLogins) LoggedIn(context.Context) ([]string, error) { return []string{"openai"}, nil }

func (f *fakeLogins) Logout(ctx context.Context, p string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.out = append(f.out, p)
	return "Logged out from " + p, nil
}

func (f *fakeLogins) get(id string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.saved[id]
}

func loginRig(t *testing.T) (*rig, *fakeLogins) {
	r := newRig(t)
	f := &fakeLogins{saved: map[string]string{}}
	r.m.opts.Logins = f
	r.m.ui = &dialogUI{send: func(msg tea.Msg) { r.msgs <- msg }}
	return r, f
}

// /login picks a sign-in, prints its URL and takes the pasted code.
func TestLoginSignInInTUI(t *testing.T) {
	t.Parallel()
	r, f := loginRig(t)
	r.typeAndSend("/login")
	r.until("the picker", func() bool { return r.m.picker != nil })
	if v := r.view(); !strings.Contains(v, "anthropic") || !strings.Contains(v, "(sign in)") || !strings.Contains(v, "(API key)") {
		t.Fatalf("picker:\n%s", v)
	}
	r.key("enter")
	r.until("the code prompt", func() bool { return r.m.dialog != nil && r.m.dialog.msg.kind == dialogInput })
	if !r.printedHas("https://auth.example/authorize?state=s") || !r.printedHas("Paste the code below.") {
		t.Fatalf("URL not shown:\n%s", r.transcript())
	}
	r.key("abc123")
	r.key("enter")
	r.until("the login to end", func() bool { return r.printedHas("Logged in to anthropic") })
	if got := f.get("anthropic"); got != "oauth:abc123" {
		t.Fatal(got)
	}
}

// /login with an API-key provider asks on a masked line.
func TestLoginAPIKeyInTUIIsMasked(t *testing.T) {
	t.Parallel()
	r, f := loginRig(t)
	r.typeAndSend("/login openai")
	r.until("the key prompt", func() bool { return r.m.dialog != nil && r.m.dialog.msg.kind == dialogSecret })
	r.key("sk-secret")
	if v := r.view(); strings.Contains(v, "sk-secret") || !strings.Contains(v, "•••••••••") {
		t.Fatalf("the key shows:\n%s", v)
	}
	r.key("enter")
	r.until("the login to end", func() bool { return r.printedHas("Logged in to openai") })
	if got := f.get("openai"); got != "sk-secret" || strings.Contains(r.transcript(), "sk-secret") {
		t.Fatalf("%q\n%s", got, r.transcript())
	}
	r.typeAndSend("/logout")
	r.until("the logout picker", func() bool { return r.m.picker != nil })
	r.key("enter")
	r.until("the logout", func() bool { return r.printedHas("Logged out from openai") })
}
