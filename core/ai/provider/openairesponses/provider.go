package openairesponses

import (
	"context"
	"net/http"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/sse"
)

func init() {
	ai.RegisterAPI(ai.APIOpenAIResponses, func(c *http.Client) ai.Provider { return New(c) })
}

// Provider streams the Responses API.
type Provider struct {
	client *http.Client
}

// New returns a provider using client (http.DefaultClient when nil).
func New(client *http.Client) *Provider { return &Provider{client: client} }

// API returns "openai-responses".
func (*Provider) API() ai.API { return ai.APIOpenAIResponses }

// Stream starts the request; every failure ends the stream with an error event.
func (p *Provider) Stream(ctx context.Context, req *ai.Request) *ai.Stream {
	return Start(ctx, req, func(ctx context.Context, em *ai.Emitter) error {
		headers := http.Header{}
		// OpenAI echoes this id in its logs; compatible servers ignore it.
		headers.Set("X-Client-Request-Id", req.RequestID)
		if req.APIKey != "" {
			headers.Set("Authorization", "Bearer "+req.APIKey)
		}
		url := ai.JoinURL(req.EffectiveBaseURL(), "responses")
		return Exchange(ctx, p.client, req, em, url, headers, BuildPayload(req))
	})
}

// Start runs exchange on a goroutine and returns the stream it feeds at
// once. The goroutine is owned by the stream: it ends when exchange
// returns, which it must do when ctx ends. An error from exchange, or a
// cancelled ctx, ends the stream with an error event; otherwise it ends
// with done. It is the driver every Responses-family provider shares
// (openai-responses, openai-codex-responses, azure-openai-responses).
func Start(ctx context.Context, req *ai.Request, exchange func(ctx context.Context, em *ai.Emitter) error) *ai.Stream {
	return ai.StreamFunc(ctx, req, exchange)
}

// Exchange posts payload to url (ai.Post: hooks, headers, timeouts, HTTP
// errors as *ai.HTTPError) and decodes the Responses event stream that
// answers it into em, from start to the terminal event. A stream that
// ends before a terminal event is ai.ErrStreamEnded.
func Exchange(ctx context.Context, client *http.Client, req *ai.Request, em *ai.Emitter, url string, headers http.Header, payload any) error {
	resp, err := ai.Post(ctx, client, req, url, headers, payload)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	em.Start()
	d := NewDecoder(em)
	if _, err := ai.ReadEvents(ctx, resp.Body, func(ev sse.Event) (bool, error) {
		err := d.Event(ev.Data)
		return d.Finished(), err
	}); err != nil {
		return err
	}
	if !d.Finished() {
		return ai.ErrStreamEnded
	}
	return nil
}
