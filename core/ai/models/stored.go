package models

import "context"

// StoredCredentials is the credential store the registry asks after a
// runtime --api-key and before auth.json, models.yml and the environment:
// gopi's agent.db, then omp's (core/auth's Store). The registry only holds
// this interface, so core/ai does not depend on how credentials are kept
// or refreshed.
type StoredCredentials interface {
	// Resolve returns the key to send for provider (an OAuth token
	// refreshed first when it is about to expire), the API root its
	// credential names ("" for the model's own) and the source's name.
	// session is the request's session id: with several credentials, one
	// session keeps to one of them ("" takes them in turn). Nothing stored
	// is key "" and a nil error; a stored credential that cannot be used
	// is an error saying what to do.
	Resolve(ctx context.Context, provider, session string) (key, baseURL, source string, err error)
	// Stored names the source holding credentials for provider, without
	// refreshing or using the network; "" when none does. It is asked for
	// every model a listing shows, so it must be cheap.
	Stored(provider string) string
}

// RenewingCredentials is StoredCredentials that can also refresh a stored
// sign-in before its expiry, when a provider refused its token (agent.db's
// store, core/auth, is one).
type RenewingCredentials interface {
	// Renew refreshes the sign-in of provider whose key is stale and
	// returns the new key and base URL.
	Renew(ctx context.Context, provider, stale string) (key, baseURL string, err error)
}

// RenewKey refreshes provider's stored sign-in whose key a provider
// refused (stale) and returns the new key; "" and a nil error when the
// key is not a stored sign-in that can be renewed (a runtime override, an
// environment key, a store without sign-ins).
func (r *Registry) RenewKey(ctx context.Context, provider, stale string) (string, error) {
	if r.overrides[provider] != "" {
		return "", nil
	}
	rs, ok := r.stored.(RenewingCredentials)
	if !ok {
		return "", nil
	}
	key, _, err := rs.Renew(ctx, provider, stale)
	if key == stale {
		return "", err
	}
	return key, err
}
