package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

// fakeJWT makes an unsigned token carrying claims.
func fakeJWT(claims map[string]any) string {
	body, _ := json.Marshal(claims)
	return "eyJhbGciOiJub25lIn0." + base64.RawURLEncoding.EncodeToString(body) + ".sig"
}

func codexAccess(n int) string {
	return fakeJWT(map[string]any{
		codexAuthClaim:    map[string]any{"chatgpt_account_id": "acct-42"},
		codexProfileClaim: map[string]any{"email": " User@Example.COM "},
		"n":               n,
	})
}

func newTestCodex(t *testing.T) (*Codex, *fakeAuth) {
	f := newFakeAuth(t, codexClientID)
	f.pkce = true
	f.access = codexAccess
	x := NewCodex(f.srv.Client())
	x.AuthorizeURL, x.TokenURL = f.url("/authorize"), f.url("/token")
	x.Callback.Port = 0
	x.now = fixedClock()
	return x, f
}

func TestCodexLoginThroughBrowser(t *testing.T) {
	x, _ := newTestCodex(t)
	ui := &scriptUI{browse: browser(t)}
	c, err := x.Login(context.Background(), ui)
	if err != nil {
		t.Fatal(err)
	}
	want := Credentials{Access: codexAccess(2), Refresh: "refresh-2", Expires: testNow.Add(time.Hour).UnixMilli(), AccountID: "acct-42", Email: "user@example.com"}
	if c != want {
		t.Fatalf("credentials = %+v, want %+v", c, want)
	}
	u, _ := url.Parse(ui.auths[0].URL)
	q := u.Query()
	if q.Get("originator") != "opencode" || q.Get("codex_cli_simplified_flow") != "true" || q.Get("scope") != codexScope {
		t.Errorf("authorization URL %s lacks omp's parameters", u)
	}
}

// With its fixed port busy, the Codex sign-in cannot move: the user pastes
// the address the browser ended on, whose redirect_uri is still port 1455.
func TestCodexBusyPortFallsBackToPaste(t *testing.T) {
	x, _ := newTestCodex(t)
	x.Callback.Port = occupyPort(t)
	ui := &scriptUI{}
	ui.prompt = func(ctx context.Context, p Prompt) (string, error) {
		return redirectOf(t, ui.auths[0].URL), nil
	}
	c, err := x.Login(context.Background(), ui)
	if err != nil {
		t.Fatal(err)
	}
	if c.AccountID != "acct-42" {
		t.Fatalf("credentials = %+v", c)
	}
	u, _ := url.Parse(ui.auths[0].URL)
	if want := fmt.Sprintf("http://localhost:%d/auth/callback", x.Callback.Port); u.Query().Get("redirect_uri") != want {
		t.Errorf("redirect_uri = %s, want %s", u.Query().Get("redirect_uri"), want)
	}
	if len(ui.progress) == 0 || !strings.Contains(ui.progress[0], "paste") {
		t.Errorf("progress %q does not ask for a paste", ui.progress)
	}
}

func TestCodexRefresh(t *testing.T) {
	x, f := newTestCodex(t)
	c, err := x.Login(context.Background(), &scriptUI{browse: browser(t)})
	if err != nil {
		t.Fatal(err)
	}
	c2, err := x.Refresh(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if c2.Refresh == c.Refresh || c2.AccountID != "acct-42" {
		t.Fatalf("refresh: %+v", c2)
	}
	f.revokeAll()
	_, err = x.Refresh(context.Background(), c2)
	if !errors.Is(err, ErrLoginRequired) || !strings.Contains(err.Error(), "`gopi login openai-codex`") {
		t.Fatalf("err = %v", err)
	}
}

func TestCodexTokenWithoutAccountIsRefused(t *testing.T) {
	x, f := newTestCodex(t)
	f.access = func(int) string { return fakeJWT(map[string]any{"sub": "x"}) }
	_, err := x.Login(context.Background(), &scriptUI{browse: browser(t)})
	if err == nil || !strings.Contains(err.Error(), "ChatGPT account") {
		t.Fatalf("err = %v", err)
	}
}

func TestCodexClaims(t *testing.T) {
	for _, tc := range []struct{ token, id, email string }{
		{codexAccess(1), "acct-42", "user@example.com"},
		{"a.b", "", ""},
		{"a.!!!.c", "", ""},
		{"a." + base64.StdEncoding.EncodeToString([]byte(`{"https://api.openai.com/auth":{"chatgpt_account_id":"p"}}`)) + ".c", "p", ""},
		{"a." + base64.RawURLEncoding.EncodeToString([]byte(`[1]`)) + ".c", "", ""},
	} {
		id, email := codexClaims(tc.token)
		if id != tc.id || email != tc.email {
			t.Errorf("codexClaims(%q) = %q, %q; want %q, %q", tc.token, id, email, tc.id, tc.email)
		}
	}
}

// FuzzCodexClaims: any token parses without panicking, and a token built
// from an account id gives it back.
func FuzzCodexClaims(f *testing.F) {
	f.Add("acct-1", "e@x.org")
	f.Fuzz(func(t *testing.T, id, email string) {
		codexClaims(id)
		codexClaims("a." + id + "." + email)
		tok := fakeJWT(map[string]any{codexAuthClaim: map[string]any{"chatgpt_account_id": id}})
		if got, _ := codexClaims(tok); got != id && json.Valid([]byte(fmt.Sprintf("%q", id))) && strings.ToValidUTF8(id, "\uFFFD") == id {
			t.Fatalf("account %q came back as %q", id, got)
		}
	})
}

// With no callback server and no way to prompt, the sign-in fails in one
// line instead of waiting for nothing.
func TestCodexBusyPortAndNoPromptFails(t *testing.T) {
	x, _ := newTestCodex(t)
	x.Callback.Port = occupyPort(t)
	ui := &scriptUI{prompt: func(context.Context, Prompt) (string, error) { return "", errors.New("stdin is not a terminal") }}
	_, err := x.Login(context.Background(), ui)
	if err == nil || !strings.Contains(err.Error(), "stdin is not a terminal") || !strings.Contains(err.Error(), "gopi login openai-codex") {
		t.Fatalf("err = %v", err)
	}
}
