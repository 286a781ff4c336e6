package auth

import (
	"path/filepath"

	"github.com/gopi-agent/gopi/core/auth/oauth"
	"github.com/gopi-agent/gopi/core/config"
)

// OptionsFor places the store for a configuration: gopi's agent.db in its
// agent directory, and omp's in omp's user directory when core/config
// found one that is not gopi's own. logins are the sign-in flows that
// refresh stored tokens (nil: none; a sign-in that expires then asks for
// a new login).
func OptionsFor(cfg *config.Config, logins []oauth.Provider) Options {
	o := Options{Path: filepath.Join(cfg.AgentDir, DBFile), Providers: Lookup(logins), Getenv: cfg.Env.Get}
	for _, s := range cfg.Sources() {
		if s.ID == config.SourceOMP && s.UserDir != "" {
			o.OMPPath = filepath.Join(s.UserDir, DBFile)
		}
	}
	return o
}

// Lookup finds a provider by id in ps.
func Lookup(ps []oauth.Provider) func(id string) (oauth.Provider, bool) {
	return func(id string) (oauth.Provider, bool) {
		for _, p := range ps {
			if p.ID() == id {
				return p, true
			}
		}
		return nil, false
	}
}
