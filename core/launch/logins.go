package launch

import (
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/auth"
)

// KeyProviders are the registry's providers that take an API key (the
// ones that need one), for /login and the RPC login.
func KeyProviders(reg *models.Registry) []auth.KeyProvider {
	var out []auth.KeyProvider
	for _, p := range reg.Providers() {
		if !p.KeyOptional {
			out = append(out, auth.KeyProvider{ID: p.Name, Name: p.Title})
		}
	}
	return out
}
