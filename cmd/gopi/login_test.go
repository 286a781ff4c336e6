package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/auth"
	"github.com/gopi-agent/gopi/core/auth/oauth"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// loginRun runs gopi with stdin and fake sign-in flows in an isolated home.
func loginRun(t *testing.T, environ []string, logins []oauth.Provider, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(stdin), environ: environ, logins: logins}
	code = run(context.Background(), env, args)
	return out.String(), errb.String(), code
}

func homeOf(environ []string) string {
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			return v
		}
	}
	return ""
}

func TestLoginAPIKeyStatusLogout(t *testing.T) {
	environ := isolatedEnviron(t)
	db := filepath.Join(homeOf(environ), ".gopi", "agent", "agent.db")
	out, errOut, code := loginRun(t, environ, nil, "sk-piped-secret\n", "login", "openai")
	if code != 0 || out != "API key saved to "+db+"\n" {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	if fi, err := os.Stat(db); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatal(fi, err)
	}
	out, _, code = loginRun(t, environ, nil, "", "login", "--status")
	want := "Logged-in providers:\n\n  openai  api_key  -  " + auth.Fingerprint("sk-piped-secret") + "  agent.db\n"
	if code != 0 || out != want {
		t.Fatalf("got %q want %q", out, want)
	}
	out, _, _ = loginRun(t, environ, nil, "", "models", "gpt-5-nano")
	if !strings.HasSuffix(modelsRow(out, "openai/gpt-5-nano"), " agent.db") {
		t.Fatalf("models does not name agent.db:\n%s", out)
	}
	if out, _, code = loginRun(t, environ, nil, "", "logout", "openai"); code != 0 || out != "Logged out from openai\n" {
		t.Fatalf("exit %d: %q", code, out)
	}
	if _, errOut, code = loginRun(t, environ, nil, "", "logout", "openai"); code != exitNoMatch || errOut != "gopi logout: not logged in to openai\n" {
		t.Fatalf("exit %d: %q", code, errOut)
	}
	if out, _, _ = loginRun(t, environ, nil, "", "login", "--status"); out != "No credentials stored.\nUse 'gopi login' to authenticate.\n" {
		t.Fatalf("%q", out)
	}
}

func TestLoginRefusals(t *testing.T) {
	environ := isolatedEnviron(t)
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"k\n", []string{"login", "nosuch"}, "gopi login: unknown provider \"nosuch\"; `gopi login --list` shows the known ones\n"},
		{"", []string{"login"}, "gopi login: name the provider: gopi login PROVIDER (gopi login --list shows them) (see 'gopi login --help')\n"},
		{"\n", []string{"login", "openai"}, "gopi login: API key is required: paste it, or pipe it in (echo \"$KEY\" | gopi login openai)\n"},
		{"", []string{"login", "openai", "groq"}, "gopi login: give at most one PROVIDER (see 'gopi login --help')\n"},
	} {
		_, errOut, code := loginRun(t, environ, nil, tc.stdin, tc.args...)
		if code != exitError || errOut != tc.want {
			t.Errorf("%v: exit %d %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
}

// pasteFlow is a sign-in that shows a URL and takes a pasted code.
type pasteFlow struct{}

func (pasteFlow) ID() string   { return "anthropic" }
func (pasteFlow) Name() string { return "Anthropic (Claude Pro/Max)" }
func (pasteFlow) Login(ctx context.Context, ui oauth.UI) (oauth.Credentials, error) {
	ui.Auth(oauth.AuthInfo{URL: "https://auth.example/authorize?state=s", Instructions: "Sign in, then paste the code."})
	code, err := ui.Prompt(ctx, oauth.Prompt{Message: "Paste the authorization code (or full redirect URL):"})
	if err != nil {
		return oauth.Credentials{}, err
	}
	return oauth.Credentials{Access: "sk-ant-oat01-" + code, Refresh: "r", Expires: 9999999999999, Email: "me@example.com"}, nil
}
func (pasteFlow) Refresh(ctx context.Context, c oauth.Credentials) (oauth.Credentials, error) {
	return c, nil
}
func (pasteFlow) APIKey(c oauth.Credentials) string { return c.Access }

func TestLoginSignInFlow(t *testing.T) {
	environ := isolatedEnviron(t)
	logins := []oauth.Provider{pasteFlow{}}
	out, errOut, code := loginRun(t, environ, logins, "\nthe-code\n", "login", "anthropic")
	db := filepath.Join(homeOf(environ), ".gopi", "agent", "agent.db")
	want := "Logging in to anthropic…\n\nOpen this URL in your browser:\nhttps://auth.example/authorize?state=s\nSign in, then paste the code.\n\n" +
		"Paste the authorization code (or full redirect URL): Paste the authorization code (or full redirect URL): \nCredentials saved to " + db + "\n"
	if code != 0 || out != want {
		t.Fatalf("exit %d: %q\nwant %q\n%s", code, out, want, errOut)
	}
	store := auth.New(auth.Options{Path: db})
	key, _, src, err := store.Resolve(context.Background(), "anthropic", "")
	if key != "sk-ant-oat01-the-code" || src != auth.SourceGopi || err != nil {
		t.Fatal(key, src, err)
	}
	out, _, _ = loginRun(t, environ, logins, "", "login", "--list")
	if !strings.HasPrefix(out, "Subscription sign-in:\n  anthropic              Anthropic (Claude Pro/Max)\n\nAPI key:\n  anthropic ") {
		t.Fatalf("%q", out)
	}
	// Names line up in one column, past the longest id.
	if !strings.Contains(out, "\n  azure-openai-responses Azure OpenAI\n") || !strings.Contains(out, "\n  openai                 OpenAI\n") {
		t.Fatalf("columns: %q", out)
	}
	// --key stores an API key for a provider that has a sign-in.
	if out, errOut, code = loginRun(t, environ, logins, "sk-ant-api-key\n", "login", "--key", "anthropic"); code != 0 {
		t.Fatal(out, errOut)
	}
	if key, _, _, _ := store.Resolve(context.Background(), "anthropic", ""); key != "sk-ant-api-key" {
		t.Fatalf("API key replaced nothing: %q", key)
	}
}

// An omp user's sign-in (the agent.db omp itself wrote, see
// core/auth/testdata/omp) is used by gopi without a new login.
func TestOMPSignInUsedWithoutLogin(t *testing.T) {
	srv := mockllm.New(t).Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("hi from claude")}})
	environ := isolatedEnviron(t)
	home := homeOf(environ)
	fixture, err := os.ReadFile("../../core/auth/testdata/omp/agent.db")
	if err != nil {
		t.Fatal(err)
	}
	write := func(path string, data []byte) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".omp", "agent", "agent.db"), fixture)
	write(filepath.Join(home, ".gopi", "agent", "models.yml"), []byte("providers:\n  anthropic:\n    baseUrl: "+srv.URL()+"\n"))
	var clean []string
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "ANTHROPIC_") {
			clean = append(clean, kv)
		}
	}
	out, errOut, code := loginRun(t, clean, nil, "", "ai", "-m", "anthropic/claude-sonnet-4-5", "hello")
	if code != 0 || out != "hi from claude\n" {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Header.Get("Authorization") != "Bearer sk-ant-oat01-fixture-access-token" {
		t.Fatalf("%+v", reqs)
	}
	out, _, _ = loginRun(t, clean, nil, "", "models", "claude-sonnet-4-5")
	if !strings.HasSuffix(modelsRow(out, "anthropic/claude-sonnet-4-5"), " omp agent.db") {
		t.Fatalf("%s", out)
	}
}

// modelsRow returns the row of `gopi models` output whose MODEL column is
// model ("" when there is none): a search matches the same id at several
// providers of the catalogue.
func modelsRow(out, model string) string {
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == model {
			return strings.TrimSpace(line)
		}
	}
	return ""
}
