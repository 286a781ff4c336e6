package main

import (
	"net/http"

	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// loginProviders are the subscription sign-in flows `gopi login` offers and
// the credential store refreshes tokens with, in omp's order, configured
// from the environment of this run (getenv: the configuration's Env.Get;
// nil before the configuration is loaded). client is the providers' HTTP
// client; nil for the default.
func loginProviders(client *http.Client, getenv func(string) string) []oauth.Provider {
	opts := oauth.Options{Client: client}
	if getenv != nil {
		opts.GoogleCloudProject = getenv("GOOGLE_CLOUD_PROJECT")
		if opts.GoogleCloudProject == "" {
			opts.GoogleCloudProject = getenv("GOOGLE_CLOUD_PROJECT_ID")
		}
		opts.GeminiCLIVersion = getenv("PI_AI_GEMINI_CLI_VERSION")
		opts.AntigravityVersion = getenv("PI_AI_ANTIGRAVITY_VERSION")
	}
	return oauth.BuiltinWith(opts)
}

// signIns returns the sign-in flows of this run: the ones a test set, or
// loginProviders.
func (env *cliEnv) signIns() []oauth.Provider {
	if env.logins != nil {
		return env.logins
	}
	var getenv func(string) string
	if env.cfg != nil {
		getenv = env.cfg.Env.Get
	}
	return loginProviders(env.httpClient, getenv)
}
