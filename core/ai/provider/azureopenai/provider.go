package azureopenai

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/provider/openairesponses"
)

// errNoBaseURL is the error for a model whose resource is not known.
var errNoBaseURL = errors.New("Azure OpenAI needs the resource's address: set AZURE_OPENAI_BASE_URL (https://<resource>.openai.azure.com/openai/v1) or AZURE_OPENAI_RESOURCE_NAME, or the provider's baseUrl in models.yml")

// errNoCredential is the error for a request without a key or token.
var errNoCredential = errors.New("no Azure OpenAI credential: set AZURE_OPENAI_API_KEY to the resource's key or to a Microsoft Entra ID access token, or pass --api-key")

func init() {
	ai.RegisterAPI(ai.APIAzureOpenAIResponses, func(c *http.Client) ai.Provider { return New(c) })
}

// Provider streams Azure OpenAI's Responses API.
type Provider struct {
	client *http.Client
}

// New returns a provider using client (http.DefaultClient when nil).
func New(client *http.Client) *Provider { return &Provider{client: client} }

// API returns "azure-openai-responses".
func (*Provider) API() ai.API { return ai.APIAzureOpenAIResponses }

// ResponsesURL returns the endpoint for a base URL and api-version.
func ResponsesURL(base, version string) string {
	return ai.JoinURL(base, "responses") + "?api-version=" + url.QueryEscape(version)
}

// Stream starts the request; every failure ends the stream with an error
// event.
func (p *Provider) Stream(ctx context.Context, req *ai.Request) *ai.Stream {
	return openairesponses.Start(ctx, req, func(ctx context.Context, em *ai.Emitter) error {
		base := strings.TrimSpace(req.EffectiveBaseURL())
		if base == "" {
			return errNoBaseURL
		}
		if req.APIKey == "" {
			return errNoCredential
		}
		h := http.Header{}
		h.Set("X-Client-Request-Id", req.RequestID)
		if IsEntraToken(req.APIKey) {
			h.Set("Authorization", "Bearer "+req.APIKey)
		} else {
			h.Set("api-key", req.APIKey)
		}
		deployment := Deployment(req.Model)
		err := openairesponses.Exchange(ctx, p.client, req, em, ResponsesURL(base, APIVersion(req.Model)), h, buildPayload(req, deployment))
		return explainError(err, req.Model, deployment, base)
	})
}

// buildPayload is the Responses body with Azure's differences (see the
// package doc).
func buildPayload(req *ai.Request, deployment string) map[string]any {
	p := openairesponses.BuildPayload(req)
	p["model"] = deployment
	delete(p, "prompt_cache_retention") // an api.openai.com option
	if req.SessionID != "" {
		p["prompt_cache_key"] = openairesponses.PromptCacheKey(req.SessionID)
	}
	m := req.Model
	if !m.Reasoning {
		return p
	}
	p["include"] = []string{"reasoning.encrypted_content"}
	off := req.Thinking == "" || req.Thinking == ai.ThinkingOff
	if off && strings.HasPrefix(strings.ToLower(m.Name), "gpt-5") {
		// GPT-5 reasons unless told not to; this is how omp tells it.
		input, _ := p["input"].([]any)
		p["input"] = append(input, map[string]any{"role": "developer", "content": []any{
			map[string]any{"type": "input_text", "text": "# Juice: 0 !important"},
		}})
	}
	return p
}
