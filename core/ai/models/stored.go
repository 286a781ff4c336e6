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
