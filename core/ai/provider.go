package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"
)

// Provider streams responses for one wire API.
type Provider interface {
	// API returns the wire API this provider speaks.
	API() API
	// Stream starts a request and returns its stream at once. Providers set
	// req.RequestID (EnsureRequestID) before returning. Every failure
	// (bad request, HTTP error, broken stream, cancellation of ctx) ends the
	// stream with an "error" event; Stream itself never fails.
	Stream(ctx context.Context, req *Request) *Stream
}

// Tool is a tool definition offered to the model.
type Tool struct {
	Name        string          `json:"name"`        // identifier the model calls
	Description string          `json:"description"` // model-facing description
	Parameters  json.RawMessage `json:"parameters"`  // JSON Schema of the arguments (an object schema)
}

// CacheRetention chooses how long prompt-cache marks live.
type CacheRetention string

// Cache retention values.
const (
	CacheShort CacheRetention = "short" // provider default (Anthropic: 5 minutes)
	CacheLong  CacheRetention = "long"  // extended (Anthropic: 1 hour); PI_CACHE_RETENTION=long
	CacheNone  CacheRetention = "none"  // no cache marks
)

// Request is everything a provider needs for one streamed response.
type Request struct {
	Model        *Model            // the model; its API selects the provider
	SystemPrompt string            // system prompt ("" for none)
	Messages     []Message         // the conversation
	Tools        []Tool            // tools the model may call
	ToolChoice   *ToolChoice       // constraint on tool use; nil means auto
	MaxTokens    int               // output limit; 0 means the model's MaxTokens (capped per provider)
	Temperature  *float64          // sampling temperature; nil for the provider default
	Thinking     ThinkingLevel     // reasoning effort; "" or off disables it
	APIKey       string            // credential (API key or OAuth token)
	BaseURL      string            // overrides Model.BaseURL when set
	Headers      map[string]string // extra headers, applied after the model's
	RequestID    string            // correlates hooks, logs and events; NewRequestID when empty
	SessionID    string            // session id for providers that accept one (cache keys)
	Cache        CacheRetention    // prompt-cache marks; "" means short
	ServiceTier  string            // OpenAI service tier ("priority" is /fast); "" sends none

	// FirstEventTimeout bounds the wait for the response to start (0: the
	// default, max(DefaultFirstEventTimeout, IdleTimeout); negative: none).
	FirstEventTimeout time.Duration
	// IdleTimeout bounds silence inside a streaming response (0:
	// DefaultIdleTimeout; negative: none). A stalled request fails with a
	// *StallError.
	IdleTimeout time.Duration

	// OnRequest is the before_provider_request hook: it sees the exact JSON
	// payload before it is sent and may replace p.Payload. An error aborts
	// the request with that error.
	OnRequest func(ctx context.Context, p *ProviderRequest) error
	// OnResponse is the after_provider_response hook: it sees the status
	// and headers as soon as they arrive, before the body is read.
	OnResponse func(ctx context.Context, r *ProviderResponse)
}

// ProviderRequest is what the before_provider_request hook sees.
type ProviderRequest struct {
	RequestID string          // the request's id
	Model     *Model          // the model
	URL       string          // endpoint
	Payload   json.RawMessage // JSON body; the hook may replace it
}

// ProviderResponse is what the after_provider_response hook sees.
type ProviderResponse struct {
	RequestID string      // the request's id
	Model     *Model      // the model
	Status    int         // HTTP status code
	Headers   http.Header // response headers
}

// EffectiveBaseURL returns the request's base URL override or the model's.
func (r *Request) EffectiveBaseURL() string {
	if r.BaseURL != "" {
		return r.BaseURL
	}
	if r.Model != nil {
		return r.Model.BaseURL
	}
	return ""
}

// EffectiveMaxTokens returns MaxTokens, or the model's limit when 0.
func (r *Request) EffectiveMaxTokens() int {
	if r.MaxTokens > 0 {
		return r.MaxTokens
	}
	if r.Model != nil && r.Model.MaxTokens > 0 {
		return r.Model.MaxTokens
	}
	return 4096
}

// Constructor builds a provider; client is the HTTP client to use (nil
// means http.DefaultClient).
type Constructor func(client *http.Client) Provider

var (
	registryMu sync.RWMutex
	registry   = map[API]Constructor{}
)

// RegisterAPI makes a provider constructor available for api; provider
// packages call it from init. A second registration replaces the first.
func RegisterAPI(api API, c Constructor) {
	registryMu.Lock()
	defer registryMu.Unlock()
	registry[api] = c
}

// RegisteredAPIs lists the APIs with a registered provider, sorted.
func RegisteredAPIs() []API {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]API, 0, len(registry))
	for a := range registry {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// HasAPI reports whether a provider is registered for api.
func HasAPI(api API) bool {
	registryMu.RLock()
	defer registryMu.RUnlock()
	_, ok := registry[api]
	return ok
}

// NewProvider builds the provider registered for api.
func NewProvider(api API, client *http.Client) (Provider, error) {
	registryMu.RLock()
	c, ok := registry[api]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("no provider for API %q (known: %v); import its package under core/ai/provider", api, RegisteredAPIs())
	}
	return c(client), nil
}

// StreamRequest streams req with the provider registered for its model's API.
// It sets req.RequestID (when empty) before returning, so callers can
// correlate hook calls and events. An unknown API yields a stream holding a
// single "error" event.
func StreamRequest(ctx context.Context, req *Request, client *http.Client) *Stream {
	if req.Model == nil {
		em, s := NewEmitter(nil)
		em.Fail(nil, nil, fmt.Errorf("no model given"))
		return s
	}
	req.EnsureRequestID()
	p, err := NewProvider(req.Model.API, client)
	if err != nil {
		em, s := NewEmitter(req.Model)
		em.Fail(nil, req.Model, err)
		return s
	}
	return p.Stream(ctx, req)
}
