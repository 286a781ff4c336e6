package oauth

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// GitHub Copilot's sign-in facts (omp 14.9.9's: the opencode OAuth app,
// whose GitHub token the Copilot API takes as it is).
const (
	copilotClientID  = "Ov23li8tweQw6odWQebz"
	copilotUserAgent = "opencode/1.3.15"
	copilotAPI       = "https://api.githubcopilot.com"
	copilotBatch     = 5 // models enabled at once after the sign-in
)

// copilotLifetime is the expiry stored with a Copilot sign-in: GitHub's
// OAuth tokens do not lapse, so omp stores ten years ahead and never
// refreshes them.
const copilotLifetime = time.Duration(10 * 365.25 * 24 * float64(time.Hour))

// publicGitHub are the hosts that mean github.com itself, not an Enterprise
// server.
var publicGitHub = map[string]bool{"github.com": true, "www.github.com": true, "api.github.com": true}

// Copilot signs in to GitHub Copilot with GitHub's device flow (RFC 8628):
// the user opens the verification page and types the code shown, while the
// login polls GitHub (authorization_pending, slow_down) until the code is
// entered or expires. The GitHub token is stored as omp 14.9.9 stores it
// (access and refresh, a far expiry), so either program uses the other's
// sign-in; requests carry the Copilot session token it buys (see
// SessionKey). A GitHub Enterprise host is stored as EnterpriseURL and
// moves the API to copilot-api.<host>.
type Copilot struct {
	HTTP
	// GitHubURL is the base URL of the device flow for a GitHub host
	// ("github.com" or the Enterprise domain); nil: "https://" + domain.
	GitHubURL func(domain string) string
	// APIURL is the Copilot API for an Enterprise domain ("" for
	// github.com); nil: omp's derivation (api.githubcopilot.com, or
	// copilot-api.<domain>).
	APIURL func(enterprise string) string
	// TokenURL is the session token exchange for an Enterprise domain
	// ("" for github.com); nil: api.<host>/copilot_internal/v2/token.
	TokenURL func(enterprise string) string
	// Models are the model ids whose policy the sign-in enables, as omp
	// does for every Copilot model it ships; nil enables none.
	Models   []string
	now      clock
	sleep    waitFunc
	sessions copilotSessions
}

// NewCopilot returns the Copilot sign-in with omp's endpoints.
func NewCopilot(client *http.Client) *Copilot {
	return &Copilot{HTTP: HTTP{Client: client}}
}

// ID is "github-copilot".
func (*Copilot) ID() string { return "github-copilot" }

// Name is the name omp shows.
func (*Copilot) Name() string { return "GitHub Copilot" }

// APIKey is the GitHub token, what requests carry when the session token
// cannot be had (see SessionKey).
func (*Copilot) APIKey(c Credentials) string { return c.Access }

// BaseURL is the Copilot API of an Enterprise sign-in, or "" when the
// model's own base URL (api.githubcopilot.com) serves.
func (p *Copilot) BaseURL(c Credentials) string {
	if c.EnterpriseURL == "" {
		return ""
	}
	return p.apiURL(c.EnterpriseURL)
}

// Refresh renews nothing: the GitHub token lives until revoked. It returns
// the credentials with the token as access and the far expiry, as omp does.
func (p *Copilot) Refresh(_ context.Context, c Credentials) (Credentials, error) {
	return Credentials{Refresh: c.Refresh, Access: c.Refresh, Expires: p.now.now().Add(copilotLifetime).UnixMilli(), EnterpriseURL: c.EnterpriseURL}, nil
}

// Login asks for an Enterprise host, runs the device flow and enables the
// models.
func (p *Copilot) Login(ctx context.Context, ui UI) (Credentials, error) {
	in, err := ui.Prompt(ctx, Prompt{Message: "GitHub Enterprise URL/domain (blank for github.com)", Placeholder: "company.ghe.com", AllowEmpty: true})
	if err != nil {
		return Credentials{}, err
	}
	domain, enterprise, ok := githubHost(in)
	if !ok {
		return Credentials{}, &Error{Provider: p.ID(), Step: "sign-in", Detail: "not a GitHub Enterprise URL or domain: " + oneLine(in)}
	}
	base := "https://" + domain
	if p.GitHubURL != nil {
		base = p.GitHubURL(domain)
	}
	header := map[string]string{"User-Agent": copilotUserAgent}
	var g deviceGrant
	if err := p.callJSON(ctx, p.ID(), "device code request", http.MethodPost, base+"/login/device/code",
		map[string]string{"client_id": copilotClientID, "scope": "read:user"}, header, &g); err != nil {
		return Credentials{}, err
	}
	if !g.valid() {
		return Credentials{}, &Error{Provider: p.ID(), Step: "device code request", Detail: "the answer lacks the device code, user code, verification URI, interval or expiry"}
	}
	ui.Auth(AuthInfo{URL: g.VerificationURI, Instructions: "Enter code: " + g.UserCode})
	ui.Progress("Waiting for the code to be entered…")
	poller := devicePoller{
		HTTP: p.HTTP, Provider: p.ID(), URL: base + "/login/oauth/access_token", Header: header, now: p.now, sleep: p.sleep,
		Body: func(code string) any {
			return map[string]string{"client_id": copilotClientID, "device_code": code, "grant_type": "urn:ietf:params:oauth:grant-type:device_code"}
		},
	}
	token, err := poller.poll(ctx, g)
	if err != nil {
		return Credentials{}, err
	}
	c := Credentials{Refresh: token, Access: token, Expires: p.now.now().Add(copilotLifetime).UnixMilli(), EnterpriseURL: enterprise}
	if len(p.Models) > 0 {
		ui.Progress("Enabling models…")
		p.enableModels(ctx, token, enterprise)
	}
	return c, nil
}

// enableModels accepts the policy of each model (some, like Claude's, are
// off until accepted), a few at a time; a model that cannot be enabled is
// skipped, as in omp.
func (p *Copilot) enableModels(ctx context.Context, token, enterprise string) {
	header := map[string]string{
		"Authorization":      "Bearer " + token,
		"User-Agent":         copilotUserAgent,
		"openai-intent":      "chat-policy",
		"x-interaction-type": "chat-policy",
	}
	api := p.apiURL(enterprise)
	for i := 0; i < len(p.Models) && ctx.Err() == nil; i += copilotBatch {
		var wg sync.WaitGroup
		for _, id := range p.Models[i:min(i+copilotBatch, len(p.Models))] {
			wg.Go(func() {
				_, _ = p.call(ctx, p.ID(), "model enabling", http.MethodPost, api+"/models/"+url.PathEscape(id)+"/policy", map[string]string{"state": "enabled"}, header)
			})
		}
		wg.Wait()
	}
}

// apiURL is the Copilot API for enterprise ("" for github.com).
func (p *Copilot) apiURL(enterprise string) string {
	if p.APIURL != nil {
		return p.APIURL(enterprise)
	}
	if enterprise == "" {
		return copilotAPI
	}
	if strings.HasPrefix(enterprise, "copilot-api.") {
		return "https://" + enterprise
	}
	return "https://copilot-api." + enterprise
}

// githubHost reads the answer to the Enterprise prompt: a domain or URL, or
// blank for github.com. domain is the host the device flow runs on;
// enterprise is "" for github.com itself. ok is false for input that names
// no host.
func githubHost(in string) (domain, enterprise string, ok bool) {
	s := strings.TrimSpace(in)
	if s == "" {
		return "github.com", "", true
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Hostname() == "" {
		return "", "", false
	}
	host := strings.ToLower(u.Hostname())
	if publicGitHub[host] {
		return "github.com", "", true
	}
	return host, host, true
}
