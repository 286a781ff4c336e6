package main

import (
	"net/http"

	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// loginProviders are the subscription sign-in flows `gopi login` offers and
// the credential store refreshes tokens with, in omp's order. None are
// wired yet: core/auth/oauth's Builtin(client) takes this place when it
// lands (client is the providers' HTTP client; nil for the default).
func loginProviders(client *http.Client) []oauth.Provider {
	_ = client
	return nil
}

// signIns returns the sign-in flows of this run: the ones a test set, or
// loginProviders.
func (env *cliEnv) signIns() []oauth.Provider {
	if env.logins != nil {
		return env.logins
	}
	return loginProviders(env.httpClient)
}
