package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime"
	"time"
)

// Gemini CLI's sign-in facts (omp 14.9.9's, which are Gemini CLI's own).
var geminiCLIClient = googleClient{
	id:       "681255809395-oo8ft2oprdrnp9e3aqf6av3hmdib135j.apps.googleusercontent.com",
	secret64: "R09DU1BYLTR1SGdNUG0tMW83U2stZ2VWNkN1NWNsWEZzeGw=",
	scopes: []string{
		"https://www.googleapis.com/auth/cloud-platform",
		"https://www.googleapis.com/auth/userinfo.email",
		"https://www.googleapis.com/auth/userinfo.profile",
	},
}

const (
	geminiCLIVersion     = "0.35.3"
	geminiCLIModel       = "gemini-3.1-pro-preview"
	geminiClientMetadata = "ideType=IDE_UNSPECIFIED,platform=PLATFORM_UNSPECIFIED,pluginType=GEMINI"
	geminiOpWait         = 5 * time.Second // between polls of an onboarding operation
	geminiOpPolls        = 60              // polls before giving up (five minutes)
	geminiProjectHelp    = "https://goo.gle/gemini-cli-auth-docs#workspace-gca"
)

// GeminiCLI signs in to Google Cloud Code Assist as Gemini CLI does (the
// google-gemini-cli provider): the Google sign-in, then the account's Code
// Assist project: the one it already has, or one provisioned for the free
// tier, or the configured GOOGLE_CLOUD_PROJECT for paid and Workspace tiers.
type GeminiCLI struct {
	Google
	// Project is the Google Cloud project configured for the account
	// (GOOGLE_CLOUD_PROJECT, else GOOGLE_CLOUD_PROJECT_ID; read by the
	// caller's configuration); "" when none.
	Project string
	// Version is the Gemini CLI version the requests claim
	// (PI_AI_GEMINI_CLI_VERSION); "" is omp's default.
	Version string
}

// NewGeminiCLI returns the Gemini CLI sign-in with Google's endpoints.
func NewGeminiCLI(client *http.Client) *GeminiCLI {
	return &GeminiCLI{Google: newGoogle(client, geminiCLIClient, Callback{Port: 8085, Path: "/oauth2callback"})}
}

// ID is "google-gemini-cli".
func (*GeminiCLI) ID() string { return "google-gemini-cli" }

// Name is the name omp shows.
func (*GeminiCLI) Name() string { return "Google Cloud Code Assist (Gemini CLI)" }

// APIKey is the credentials as the JSON the provider reads (token and
// project).
func (*GeminiCLI) APIKey(c Credentials) string { return structuredKey(c) }

// Login runs the Google sign-in and finds the project.
func (p *GeminiCLI) Login(ctx context.Context, ui UI) (Credentials, error) {
	return p.login(ctx, ui, p.ID(), p.discover)
}

// Refresh trades the refresh token for a new access token.
func (p *GeminiCLI) Refresh(ctx context.Context, c Credentials) (Credentials, error) {
	return p.refresh(ctx, p.ID(), c)
}

// userAgent is the User-Agent Gemini CLI sends.
func (p *GeminiCLI) userAgent() string {
	v := p.Version
	if v == "" {
		v = geminiCLIVersion
	}
	goos, arch := runtime.GOOS, runtime.GOARCH
	if goos == "windows" {
		goos = "win32"
	}
	switch arch {
	case "amd64":
		arch = "x64"
	case "386":
		arch = "ia32"
	}
	return fmt.Sprintf("GeminiCLI/%s/%s (%s; %s; terminal)", v, geminiCLIModel, goos, arch)
}

// geminiMeta is the client metadata of Code Assist requests.
type geminiMeta struct {
	IDEType     string `json:"ideType"`
	Platform    string `json:"platform"`
	PluginType  string `json:"pluginType"`
	DuetProject string `json:"duetProject,omitempty"`
}

// discover finds the account's project, onboarding it when it has none.
func (p *GeminiCLI) discover(ctx context.Context, ui UI, access string) (string, error) {
	header := map[string]string{"Authorization": "Bearer " + access, "User-Agent": p.userAgent(), "Client-Metadata": geminiClientMetadata}
	meta := geminiMeta{IDEType: "IDE_UNSPECIFIED", Platform: "PLATFORM_UNSPECIFIED", PluginType: "GEMINI", DuetProject: p.Project}
	fail := func(detail string) error {
		return &Error{Provider: p.ID(), Step: "project discovery", Detail: detail}
	}
	needProject := fail("this account needs a Google Cloud project: set GOOGLE_CLOUD_PROJECT or GOOGLE_CLOUD_PROJECT_ID, see " + geminiProjectHelp)

	ui.Progress("Looking for the account's Cloud Code Assist project…")
	var load codeAssistLoad
	r, err := p.call(ctx, p.ID(), "project discovery", http.MethodPost, p.CodeAssistURL+"/v1internal:loadCodeAssist",
		struct {
			Project string     `json:"cloudaicompanionProject,omitempty"`
			Meta    geminiMeta `json:"metadata"`
		}{p.Project, meta}, header)
	switch {
	case err != nil && r.Status != 0 && securityPolicyViolated(r.Body):
		load.CurrentTier = &struct{}{} // behind VPC Service Controls: a standard-tier account
	case err != nil:
		return "", err
	default:
		if json.Unmarshal(r.Body, &load) != nil {
			return "", fail("loadCodeAssist answered with something other than the JSON expected")
		}
	}
	if load.CurrentTier != nil {
		if id := projectID(load.Project); id != "" {
			return id, nil
		}
		if p.Project != "" {
			return p.Project, nil
		}
		return "", needProject
	}

	tier := load.defaultTier()
	if tier != tierFree && p.Project == "" {
		return "", needProject
	}
	ui.Progress("Provisioning a Cloud Code Assist project (this can take a while)…")
	onboard := struct {
		TierID  string     `json:"tierId"`
		Project string     `json:"cloudaicompanionProject,omitempty"`
		Meta    geminiMeta `json:"metadata"`
	}{TierID: tier, Meta: meta}
	onboard.Meta.DuetProject = ""
	if tier != tierFree {
		onboard.Project, onboard.Meta.DuetProject = p.Project, p.Project
	}
	var op codeAssistOp
	if err := p.callJSON(ctx, p.ID(), "project onboarding", http.MethodPost, p.CodeAssistURL+"/v1internal:onboardUser", onboard, header, &op); err != nil {
		return "", err
	}
	for poll := 1; !op.Done && op.Name != ""; poll++ {
		if poll > geminiOpPolls {
			return "", fail("the project was still being provisioned after five minutes")
		}
		ui.Progress(fmt.Sprintf("Waiting for the project (check %d)…", poll+1))
		if err := p.sleep.wait(ctx, geminiOpWait); err != nil {
			return "", err
		}
		if err := p.callJSON(ctx, p.ID(), "project onboarding", http.MethodGet, p.CodeAssistURL+"/v1internal/"+op.Name, nil, header, &op); err != nil {
			return "", err
		}
	}
	if id := projectID(op.Response.Project); id != "" {
		return id, nil
	}
	if p.Project != "" {
		return p.Project, nil
	}
	return "", fail("no Google Cloud project could be found or provisioned: set GOOGLE_CLOUD_PROJECT or GOOGLE_CLOUD_PROJECT_ID, see " + geminiProjectHelp)
}

// securityPolicyViolated reports a Google error whose details name the
// SECURITY_POLICY_VIOLATED reason (an account behind VPC Service Controls).
func securityPolicyViolated(body []byte) bool {
	var e struct {
		Error struct {
			Details []struct {
				Reason string `json:"reason"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return false
	}
	for _, d := range e.Error.Details {
		if d.Reason == "SECURITY_POLICY_VIOLATED" {
			return true
		}
	}
	return false
}
