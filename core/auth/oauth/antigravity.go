package oauth

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"time"
)

// Antigravity's sign-in facts (omp 14.9.9's).
var antigravityClient = googleClient{
	id:       "1071006060591-tmhssin2h21lcre235vtolojh4g403ep.apps.googleusercontent.com",
	secret64: "R09DU1BYLUs1OEZXUjQ4NkxkTEoxbUxCOHNYQzR6NnFEQWY=",
	scopes: []string{
		"https://www.googleapis.com/auth/cloud-platform",
		"https://www.googleapis.com/auth/userinfo.email",
		"https://www.googleapis.com/auth/userinfo.profile",
		"https://www.googleapis.com/auth/cclog",
		"https://www.googleapis.com/auth/experimentsandconfigs",
	},
}

const (
	antigravityVersion  = "1.104.0"
	antigravityOnboards = 5               // onboarding attempts
	antigravityOpWait   = 2 * time.Second // between them
)

// antigravityMeta is the client metadata of Antigravity's Code Assist
// requests.
var antigravityMeta = geminiMeta{IDEType: "ANTIGRAVITY", Platform: "PLATFORM_UNSPECIFIED", PluginType: "GEMINI"}

// Antigravity signs in to Google's Antigravity (Gemini 3, Claude and
// GPT-OSS through Cloud Code Assist): the Google sign-in with Antigravity's
// client, then the account's project, onboarded to its default tier when it
// has none.
type Antigravity struct {
	Google
	// Version is the Antigravity version the requests claim
	// (PI_AI_ANTIGRAVITY_VERSION); "" is omp's default.
	Version string
}

// NewAntigravity returns the Antigravity sign-in with Google's endpoints.
func NewAntigravity(client *http.Client) *Antigravity {
	return &Antigravity{Google: newGoogle(client, antigravityClient, Callback{Port: 51121, Path: "/oauth-callback"})}
}

// ID is "google-antigravity".
func (*Antigravity) ID() string { return "google-antigravity" }

// Name is the name omp shows.
func (*Antigravity) Name() string { return "Antigravity (Gemini 3, Claude, GPT-OSS)" }

// APIKey is the credentials as the JSON the provider reads (token and
// project).
func (*Antigravity) APIKey(c Credentials) string { return structuredKey(c) }

// Login runs the Google sign-in and finds the project.
func (p *Antigravity) Login(ctx context.Context, ui UI) (Credentials, error) {
	return p.login(ctx, ui, p.ID(), p.discover)
}

// Refresh trades the refresh token for a new access token.
func (p *Antigravity) Refresh(ctx context.Context, c Credentials) (Credentials, error) {
	return p.refresh(ctx, p.ID(), c)
}

// userAgent is the User-Agent Antigravity sends.
func (p *Antigravity) userAgent() string {
	v := p.Version
	if v == "" {
		v = antigravityVersion
	}
	return fmt.Sprintf("antigravity/%s %s/%s", v, runtime.GOOS, runtime.GOARCH)
}

// discover finds the account's project, onboarding it when it has none.
func (p *Antigravity) discover(ctx context.Context, ui UI, access string) (string, error) {
	header := map[string]string{"Authorization": "Bearer " + access, "User-Agent": p.userAgent()}
	ui.Progress("Looking for the account's project…")
	var load codeAssistLoad
	if err := p.callJSON(ctx, p.ID(), "project discovery", http.MethodPost, p.CodeAssistURL+"/v1internal:loadCodeAssist",
		map[string]geminiMeta{"metadata": antigravityMeta}, header, &load); err != nil {
		return "", err
	}
	if id := projectID(load.Project); id != "" {
		return id, nil
	}
	ui.Progress("Provisioning a project…")
	onboard := struct {
		TierID string     `json:"tierId"`
		Meta   geminiMeta `json:"metadata"`
	}{load.defaultTier(), antigravityMeta}
	for try := 1; try <= antigravityOnboards; try++ {
		if try > 1 {
			ui.Progress(fmt.Sprintf("Waiting for the project (attempt %d of %d)…", try, antigravityOnboards))
			if err := p.sleep.wait(ctx, antigravityOpWait); err != nil {
				return "", err
			}
		}
		var op codeAssistOp
		if err := p.callJSON(ctx, p.ID(), "project onboarding", http.MethodPost, p.CodeAssistURL+"/v1internal:onboardUser", onboard, header, &op); err != nil {
			return "", err
		}
		if id := projectID(op.Response.Project); op.Done && id != "" {
			return id, nil
		}
	}
	return "", &Error{Provider: p.ID(), Step: "project onboarding", Detail: fmt.Sprintf("no project was provisioned after %d attempts", antigravityOnboards)}
}
