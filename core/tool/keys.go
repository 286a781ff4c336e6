package tool

import "context"

// StoredKeys looks up credentials a tool needs beyond the settings: the
// session's model registry (keys stored by `gopi login` or omp's /login
// in agent.db, auth.json, models.yml, the environment). core/ai/models's
// Registry satisfies it; tools never see where a key is kept.
type StoredKeys interface {
	// KeySource names where provider's key would come from, without
	// refreshing it or using the network; "" when there is none.
	KeySource(provider string) string
	// APIKeyContext resolves provider's key (a sign-in about to expire is
	// refreshed first) and names its source.
	APIKeyContext(ctx context.Context, provider string) (key, baseURL, source string, err error)
}
