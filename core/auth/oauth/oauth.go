// Package oauth signs a user in to the subscription providers (Claude
// Pro/Max, ChatGPT/Codex, GitHub Copilot, Gemini CLI, Antigravity) and
// refreshes their tokens. Each provider is a Provider; a login talks to the
// user only through a UI, so the command line, the TUI and RPC/ACP hosts can
// all drive it. Credentials has the JSON shape omp stores in agent.db, so
// logins made by either program work in the other.
package oauth

import (
	"context"
	"time"
)

// Credentials are one OAuth sign-in as omp stores it (the data column of an
// "oauth" row in agent.db): tokens, the access token's expiry in Unix
// milliseconds and what some providers need besides the token.
type Credentials struct {
	Refresh       string `json:"refresh"`
	Access        string `json:"access"`
	Expires       int64  `json:"expires"`                 // Unix ms; 0 for a token that does not expire
	EnterpriseURL string `json:"enterpriseUrl,omitempty"` // GitHub Enterprise host (Copilot)
	ProjectID     string `json:"projectId,omitempty"`     // Google Cloud project (Gemini CLI, Antigravity)
	Email         string `json:"email,omitempty"`         // the signed-in account, when the provider says
	AccountID     string `json:"accountId,omitempty"`     // ChatGPT account (Codex)
}

// RefreshBuffer is how long before expiry a token counts as expired, so a
// request never leaves with a token that lapses on the way.
const RefreshBuffer = 5 * time.Minute

// Expired reports whether the access token must be refreshed before use at
// now (it expires within RefreshBuffer).
func (c Credentials) Expired(now time.Time) bool {
	return c.Expires > 0 && now.Add(RefreshBuffer).UnixMilli() >= c.Expires
}

// AuthInfo is what the user must open to sign in: a URL and, for device
// flows, what to type there.
type AuthInfo struct {
	URL          string
	Instructions string
}

// Prompt asks the user for one line (a pasted code or redirect URL).
type Prompt struct {
	Message     string
	Placeholder string
	AllowEmpty  bool
}

// UI is what a login needs from the front end that runs it.
type UI interface {
	// Auth shows where to sign in (and may open a browser).
	Auth(AuthInfo)
	// Progress reports a step ("Waiting for the browser…").
	Progress(message string)
	// Prompt asks for one line; it returns ctx's error when cancelled.
	Prompt(ctx context.Context, p Prompt) (string, error)
}

// Provider is one subscription sign-in.
type Provider interface {
	// ID is the provider name used in model ids and agent.db ("anthropic").
	ID() string
	// Name is the human-facing name ("Anthropic (Claude Pro/Max)").
	Name() string
	// Login runs the sign-in to the end and returns the new credentials.
	Login(ctx context.Context, ui UI) (Credentials, error)
	// Refresh exchanges the refresh token for a new access token.
	Refresh(ctx context.Context, c Credentials) (Credentials, error)
	// APIKey is what requests carry for these credentials (the access
	// token, or a provider-specific form of it).
	APIKey(c Credentials) string
}
