package oauth

import "net/http"

// Options configure the built-in sign-ins with what the caller's
// configuration read (this package reads no environment).
type Options struct {
	Client *http.Client // nil: http.DefaultClient
	// GoogleCloudProject is GOOGLE_CLOUD_PROJECT, else
	// GOOGLE_CLOUD_PROJECT_ID: the project a Gemini CLI sign-in uses when
	// the account needs one.
	GoogleCloudProject string
	GeminiCLIVersion   string   // PI_AI_GEMINI_CLI_VERSION; "" is 0.35.3
	AntigravityVersion string   // PI_AI_ANTIGRAVITY_VERSION; "" is 1.104.0
	CopilotModels      []string // the github-copilot model ids whose policy a Copilot sign-in enables
}

// Providers are sign-ins in the order a picker lists them. Their methods
// are safe to call from several goroutines at once; the only state kept
// between calls is Copilot's cache of session tokens.
type Providers []Provider

// Builtin returns every built-in sign-in, in omp's order, using client for
// their requests.
func Builtin(client *http.Client) Providers {
	return BuiltinWith(Options{Client: client})
}

// BuiltinWith is Builtin with the settings the configuration supplies.
func BuiltinWith(o Options) Providers {
	copilot := NewCopilot(o.Client)
	copilot.Models = o.CopilotModels
	gemini := NewGeminiCLI(o.Client)
	gemini.Project, gemini.Version = o.GoogleCloudProject, o.GeminiCLIVersion
	antigravity := NewAntigravity(o.Client)
	antigravity.Version = o.AntigravityVersion
	return Providers{NewAnthropic(o.Client), NewCodex(o.Client), copilot, gemini, antigravity}
}

// Lookup finds the sign-in with provider id.
func (ps Providers) Lookup(id string) (Provider, bool) {
	for _, p := range ps {
		if p.ID() == id {
			return p, true
		}
	}
	return nil, false
}
