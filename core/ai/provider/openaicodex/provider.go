package openaicodex

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/openairesponses"
)

// DefaultBaseURL is the ChatGPT backend's API root, used when the model
// names none.
const DefaultBaseURL = "https://chatgpt.com/backend-api"

// Header names and values the backend expects.
const (
	HeaderAccountID = "chatgpt-account-id" // the account of the access token (AccountID)
	HeaderBeta      = "OpenAI-Beta"        // opts in to the Responses API
	BetaResponses   = "responses=experimental"
	HeaderOrigin    = "originator" // the client family; omp's is "pi"
	Originator      = "pi"
)

// userAgent names the client as omp's family ("pi"), then gopi and the
// platform.
var userAgent = "pi/gopi (" + runtime.GOOS + "; " + runtime.GOARCH + ")"

// errNoToken is the error for a request without an access token.
var errNoToken = errors.New("no ChatGPT sign-in for the openai-codex provider: run `" + loginHint + "` (or set OPENAI_CODEX_OAUTH_TOKEN to an access token)")

func init() {
	ai.RegisterAPI(ai.APIOpenAICodexResponses, func(c *http.Client) ai.Provider { return New(c) })
}

// Provider streams the ChatGPT backend's Responses API.
type Provider struct {
	client *http.Client
	now    func() time.Time // clock for "resets in" hints
}

// New returns a provider using client (http.DefaultClient when nil).
func New(client *http.Client) *Provider { return &Provider{client: client, now: time.Now} }

// API returns "openai-codex-responses".
func (*Provider) API() ai.API { return ai.APIOpenAICodexResponses }

// ResponsesURL returns the endpoint for a base URL: <base>/codex/responses,
// keeping a base that already ends in /codex or /codex/responses.
func ResponsesURL(base string) string {
	if strings.TrimSpace(base) == "" {
		base = DefaultBaseURL
	}
	base = strings.TrimRight(base, "/")
	switch {
	case strings.HasSuffix(base, "/codex/responses"):
		return base
	case strings.HasSuffix(base, "/codex"):
		return base + "/responses"
	}
	return base + "/codex/responses"
}

// Stream starts the request; every failure ends the stream with an error
// event.
func (p *Provider) Stream(ctx context.Context, req *ai.Request) *ai.Stream {
	return openairesponses.Start(ctx, req, func(ctx context.Context, em *ai.Emitter) error {
		if req.APIKey == "" {
			return errNoToken
		}
		account, err := AccountID(req.APIKey)
		if err != nil {
			return err
		}
		url := ResponsesURL(req.EffectiveBaseURL())
		err = openairesponses.Exchange(ctx, p.client, req, em, url, headers(req, account), buildPayload(req))
		return explainError(err, p.now())
	})
}

// headers are the backend's request headers; the model's and the
// request's own headers are applied after them (ai.Post).
func headers(req *ai.Request, account string) http.Header {
	h := http.Header{}
	h.Set("Authorization", "Bearer "+req.APIKey)
	h.Set(HeaderAccountID, account)
	h.Set(HeaderBeta, BetaResponses)
	h.Set(HeaderOrigin, Originator)
	h.Set("User-Agent", userAgent)
	if key := openairesponses.PromptCacheKey(req.SessionID); key != "" {
		h.Set("session_id", key)
		h.Set("conversation_id", key)
		h.Set("X-Client-Request-Id", key)
	} else {
		h.Set("X-Client-Request-Id", req.RequestID)
	}
	return h
}
