package models

import (
	"net/http"
	"sync"

	"github.com/gopi-agent/gopi/core/ai"
)

// providerCache keeps one provider per wire API and HTTP client for the
// registry's lifetime, so a provider with state (Bedrock's AWS session and
// its credentials cache) keeps it from one request to the next instead of
// fetching credentials again for every turn. Providers are safe for
// concurrent use.
type providerCache struct {
	mu sync.Mutex
	m  map[providerKey]ai.Provider
}

type providerKey struct {
	api    ai.API
	client *http.Client
}

// get returns the provider for api and client, building it on first use.
func (c *providerCache) get(api ai.API, client *http.Client) (ai.Provider, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := providerKey{api, client}
	if p, ok := c.m[k]; ok {
		return p, nil
	}
	p, err := ai.NewProvider(api, client)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[providerKey]ai.Provider{}
	}
	c.m[k] = p
	return p, nil
}
