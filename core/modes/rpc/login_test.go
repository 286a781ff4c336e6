package rpc_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/auth/oauth"
	"github.com/gopi-agent/gopi/core/launch"
)

// urlFlow is a sign-in that shows its URL, reports progress and ends as
// if the browser had called back; askFirst asks a question before the URL
// (a flow RPC cannot run).
type urlFlow struct {
	id       string
	askFirst bool
}

func (f urlFlow) ID() string   { return f.id }
func (f urlFlow) Name() string { return "Flow " + f.id }
func (f urlFlow) Login(ctx context.Context, ui oauth.UI) (oauth.Credentials, error) {
	if f.askFirst {
		if _, err := ui.Prompt(ctx, oauth.Prompt{Message: "GitHub Enterprise host"}); err != nil {
			return oauth.Credentials{}, err
		}
	}
	ui.Auth(oauth.AuthInfo{URL: "https://auth.example/" + f.id, Instructions: "Sign in"})
	ui.Progress("Waiting for the browser…")
	return oauth.Credentials{Access: "tok-" + f.id, Refresh: "r", Expires: 9999999999999}, nil
}
func (f urlFlow) Refresh(ctx context.Context, c oauth.Credentials) (oauth.Credentials, error) {
	return c, nil
}
func (f urlFlow) APIKey(c oauth.Credentials) string { return c.Access }

func TestRPCLogin(t *testing.T) {
	t.Parallel()
	r := newAgentRig(t)
	req := &launch.Request{Cwd: r.Project, Environ: r.Environ, Mode: launch.RPC, Model: "mock/mock-model",
		Logins: []oauth.Provider{urlFlow{id: "anthropic"}, urlFlow{id: "github-copilot", askFirst: true}}}
	rr := serveRPC(t, r, req)
	providers := func() string {
		resp := rr.Call("get_login_providers", nil)
		return string(resp.Data)
	}
	if got := providers(); got != `{"providers":[{"id":"anthropic","name":"Flow anthropic","available":true,"authenticated":false},{"id":"github-copilot","name":"Flow github-copilot","available":true,"authenticated":false}]}` {
		t.Fatal(got)
	}
	opened := rr.Expect("extension_ui_request")
	resp := rr.Call("login", map[string]any{"providerId": "anthropic"})
	if !resp.Success || string(resp.Data) != `{"providerId":"anthropic"}` {
		t.Fatalf("%+v", resp)
	}
	var frame struct{ Method, URL, Instructions string }
	json.Unmarshal(opened().Raw, &frame)
	if frame.Method != "open_url" || frame.URL != "https://auth.example/anthropic" || frame.Instructions != "Sign in" {
		t.Fatalf("%+v", frame)
	}
	if got := providers(); !strings.Contains(got, `{"id":"anthropic","name":"Flow anthropic","available":true,"authenticated":true}`) {
		t.Fatal(got)
	}
	if resp := rr.Call("login", map[string]any{"providerId": "github-copilot"}); resp.Success || resp.Error != "Provider 'github-copilot' requires interactive prompts which are not supported in RPC mode. Use the terminal UI to log in." {
		t.Fatalf("%+v", resp)
	}
	if resp := rr.Call("login", map[string]any{"providerId": "nosuch"}); resp.Success || resp.Error != "Unknown OAuth provider: nosuch" {
		t.Fatalf("%+v", resp)
	}
	rr.Stdin.Close()
	<-rr.Exit
}
