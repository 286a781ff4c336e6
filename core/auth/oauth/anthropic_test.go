package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func fixedClock() clock { return func() time.Time { return testNow } }

func newTestAnthropic(t *testing.T) (*Anthropic, *fakeAuth) {
	f := newFakeAuth(t, anthropicClientID)
	f.jsonBody, f.pkce, f.checkSt = true, true, true
	f.answer = map[string]any{"account": map[string]string{"uuid": "acct-1", "email_address": "a@example.com"}}
	a := NewAnthropic(f.srv.Client())
	a.AuthorizeURL, a.TokenURL = f.url("/authorize"), f.url("/token")
	a.Callback.Port = 0
	a.now = fixedClock()
	return a, f
}

func TestAnthropicLoginThroughBrowser(t *testing.T) {
	a, _ := newTestAnthropic(t)
	ui := &scriptUI{browse: browser(t)}
	c, err := a.Login(context.Background(), ui)
	if err != nil {
		t.Fatal(err)
	}
	want := Credentials{Access: "access-2", Refresh: "refresh-2", Expires: testNow.Add(time.Hour - RefreshBuffer).UnixMilli(), AccountID: "acct-1", Email: "a@example.com"}
	if c != want {
		t.Fatalf("credentials = %+v, want %+v", c, want)
	}
	u, _ := url.Parse(ui.auths[0].URL)
	q := u.Query()
	if q.Get("code") != "true" || q.Get("scope") != anthropicScopes || !strings.HasSuffix(q.Get("redirect_uri"), "/callback") {
		t.Errorf("authorization URL %s lacks omp's parameters", u)
	}
	if a.APIKey(c) != "access-2" {
		t.Errorf("APIKey = %q", a.APIKey(c))
	}
}

func TestAnthropicLoginByPastingCodeAndState(t *testing.T) {
	a, _ := newTestAnthropic(t)
	ui := &scriptUI{}
	ui.prompt = func(ctx context.Context, p Prompt) (string, error) {
		if p.Message != pasteMessage {
			t.Errorf("prompt %q", p.Message)
		}
		loc, _ := url.Parse(redirectOf(t, ui.auths[0].URL))
		return "  " + loc.Query().Get("code") + "#" + loc.Query().Get("state") + "\n", nil
	}
	c, err := a.Login(context.Background(), ui)
	if err != nil {
		t.Fatal(err)
	}
	if c.Access != "access-2" {
		t.Fatalf("access = %q", c.Access)
	}
}

func TestLoginRefusesCallbackWithWrongState(t *testing.T) {
	a, f := newTestAnthropic(t)
	ui := &scriptUI{browse: func(ai AuthInfo) {
		loc, _ := url.Parse(redirectOf(t, ai.URL))
		q := loc.Query()
		q.Set("state", "forged")
		loc.RawQuery = q.Encode()
		resp, err := http.Get(loc.String())
		if err != nil {
			t.Errorf("callback: %v", err)
			return
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("forged callback answered %d", resp.StatusCode)
		}
	}}
	_, err := a.Login(context.Background(), ui)
	if err == nil || !strings.Contains(err.Error(), "CSRF") || !strings.Contains(err.Error(), "gopi login anthropic") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want a one-line CSRF refusal naming gopi login anthropic", err)
	}
	if len(f.refresh) != 0 {
		t.Error("a token was issued for a forged callback")
	}
}

func TestLoginRefusesPasteWithWrongState(t *testing.T) {
	a, _ := newTestAnthropic(t)
	ui := &scriptUI{}
	ui.prompt = func(ctx context.Context, p Prompt) (string, error) {
		loc, _ := url.Parse(redirectOf(t, ui.auths[0].URL))
		return loc.Query().Get("code") + "#forged", nil
	}
	if _, err := a.Login(context.Background(), ui); err == nil || !strings.Contains(err.Error(), "CSRF") {
		t.Fatalf("err = %v, want CSRF refusal", err)
	}
}

func TestLoginMovesToNextPortWhenBusy(t *testing.T) {
	a, _ := newTestAnthropic(t)
	port := occupyPort(t)
	a.Callback.Port = port
	ui := &scriptUI{browse: browser(t)}
	if _, err := a.Login(context.Background(), ui); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(ui.auths[0].URL)
	ru, _ := url.Parse(u.Query().Get("redirect_uri"))
	if ru.Port() == "" || ru.Port() == strconv.Itoa(port) {
		t.Fatalf("redirect %s still uses the busy port %d", ru, port)
	}
	if len(ui.progress) == 0 || !strings.Contains(ui.progress[0], "in use") {
		t.Errorf("progress %q does not say the port was busy", ui.progress)
	}
}

func TestAnthropicRefreshRotatesAndRevokedSaysLogin(t *testing.T) {
	a, f := newTestAnthropic(t)
	c, err := a.Login(context.Background(), &scriptUI{browse: browser(t)})
	if err != nil {
		t.Fatal(err)
	}
	c2, err := a.Refresh(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if c2.Refresh == c.Refresh || c2.Access == c.Access || c2.Email != "a@example.com" {
		t.Fatalf("refresh did not rotate: %+v -> %+v", c, c2)
	}
	// The rotated-out refresh token is refused: only a new sign-in helps.
	_, err = a.Refresh(context.Background(), c)
	if !errors.Is(err, ErrLoginRequired) || !strings.Contains(err.Error(), "`gopi login anthropic`") {
		t.Fatalf("err = %v, want ErrLoginRequired naming `gopi login anthropic`", err)
	}
	if strings.Contains(err.Error(), c.Refresh) {
		t.Fatal("the error repeats the refresh token")
	}
	f.revokeAll()
	if _, err := a.Refresh(context.Background(), c2); !errors.Is(err, ErrLoginRequired) {
		t.Fatalf("revoked: err = %v", err)
	}
}

func TestLoginTimesOutWithoutBrowser(t *testing.T) {
	a, _ := newTestAnthropic(t)
	a.Callback.Wait = time.Nanosecond
	_, err := a.Login(context.Background(), &scriptUI{})
	if err == nil || !strings.Contains(err.Error(), "no answer from the browser") {
		t.Fatalf("err = %v", err)
	}
}

func TestLoginCancelled(t *testing.T) {
	a, _ := newTestAnthropic(t)
	ctx, cancel := context.WithCancel(context.Background())
	ui := &scriptUI{browse: func(AuthInfo) { cancel() }}
	if _, err := a.Login(ctx, ui); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestLoginFailsWhenBrowserReportsError(t *testing.T) {
	a, _ := newTestAnthropic(t)
	ui := &scriptUI{browse: func(ai AuthInfo) {
		u, _ := url.Parse(ai.URL)
		back, _ := url.Parse(u.Query().Get("redirect_uri"))
		back.RawQuery = url.Values{"error": {"access_denied"}, "error_description": {"The user said no"}, "state": {u.Query().Get("state")}}.Encode()
		resp, err := http.Get(back.String())
		if err != nil {
			t.Errorf("callback: %v", err)
			return
		}
		resp.Body.Close()
	}}
	_, err := a.Login(context.Background(), ui)
	if err == nil || !strings.Contains(err.Error(), "access_denied: The user said no") || !strings.Contains(err.Error(), "gopi login anthropic") {
		t.Fatalf("err = %v", err)
	}
}

// A front end that cannot prompt does not end the sign-in: the browser's
// callback still completes it.
func TestLoginWithoutPromptWaitsForBrowser(t *testing.T) {
	a, _ := newTestAnthropic(t)
	ui := &scriptUI{}
	ui.prompt = func(ctx context.Context, p Prompt) (string, error) {
		browser(t)(ui.auths[0])
		return "", errors.New("no terminal")
	}
	if c, err := a.Login(context.Background(), ui); err != nil || c.Access == "" {
		t.Fatalf("credentials %+v, err %v", c, err)
	}
}

// Input without a code is asked for again.
func TestPasteAsksAgainForInputWithoutCode(t *testing.T) {
	a, _ := newTestAnthropic(t)
	ui := &scriptUI{}
	n := 0
	ui.prompt = func(ctx context.Context, p Prompt) (string, error) {
		n++
		if n == 1 {
			return "https://example.com/?nothing=here", nil
		}
		return redirectOf(t, ui.auths[0].URL), nil
	}
	if _, err := a.Login(context.Background(), ui); err != nil || n != 2 {
		t.Fatalf("err %v after %d prompts", err, n)
	}
}
