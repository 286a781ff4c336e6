package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/sse"
)

// DefaultBaseURL is the API root used when the model names none.
const DefaultBaseURL = "https://api.anthropic.com"

// APIVersion is the anthropic-version header value.
const APIVersion = "2023-06-01"

// betaFeatures are always requested: streamed tool arguments as they are
// generated, and thinking between tool calls.
const betaFeatures = "fine-grained-tool-streaming-2025-05-14,interleaved-thinking-2025-05-14"

// oauthBeta is added for OAuth (Claude subscription) tokens.
const oauthBeta = "oauth-2025-04-20"

func init() {
	ai.RegisterAPI(ai.APIAnthropicMessages, func(c *http.Client) ai.Provider { return New(c) })
}

// Provider streams Anthropic Messages responses.
type Provider struct {
	client *http.Client
}

// New returns a provider using client (nil means http.DefaultClient).
func New(client *http.Client) *Provider {
	if client == nil {
		client = http.DefaultClient
	}
	return &Provider{client: client}
}

// API returns ai.APIAnthropicMessages.
func (*Provider) API() ai.API { return ai.APIAnthropicMessages }

// IsOAuthToken reports whether key is an Anthropic OAuth access token.
func IsOAuthToken(key string) bool { return strings.HasPrefix(key, "sk-ant-oat") }

// MessagesURL returns the endpoint for a base URL, accepting roots with or
// without a trailing /v1.
func MessagesURL(base string) string {
	if base == "" {
		base = DefaultBaseURL
	}
	base = strings.TrimRight(base, "/")
	if strings.HasSuffix(base, "/v1") {
		return base + "/messages"
	}
	return base + "/v1/messages"
}

// Stream starts the request; see the package doc for the event mapping.
func (p *Provider) Stream(ctx context.Context, req *ai.Request) *ai.Stream {
	req.EnsureRequestID() // visible to the caller before any event
	em, s := ai.NewRequestEmitter(req)
	go p.run(ctx, req, em)
	return s
}

func (p *Provider) run(ctx context.Context, req *ai.Request, em *ai.Emitter) {
	h := http.Header{}
	h.Set("anthropic-version", APIVersion)
	beta := betaFeatures
	// No key is sent when none is given (local proxies); the model
	// registry reports a missing key before a request is made.
	if IsOAuthToken(req.APIKey) {
		h.Set("Authorization", "Bearer "+req.APIKey)
		beta = oauthBeta + "," + beta
	} else if req.APIKey != "" {
		h.Set("x-api-key", req.APIKey)
	}
	h.Set("anthropic-beta", beta)
	resp, err := ai.Post(ctx, p.client, req, MessagesURL(req.EffectiveBaseURL()), h, buildPayload(req))
	if err != nil {
		em.Fail(ctx, req.Model, err)
		return
	}
	defer resp.Body.Close()
	if err := decode(ctx, resp.Body, em); err != nil {
		em.Fail(ctx, req.Model, err)
		return
	}
	if ctx.Err() != nil {
		em.Fail(ctx, req.Model, ctx.Err())
		return
	}
	em.Done(req.Model)
}

// wire types of the stream.
type (
	wireUsage struct {
		InputTokens              *int `json:"input_tokens"`
		OutputTokens             *int `json:"output_tokens"`
		CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
		CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
	}
	wireEvent struct {
		Type    string `json:"type"`
		Index   int    `json:"index"`
		Message *struct {
			ID    string    `json:"id"`
			Usage wireUsage `json:"usage"`
		} `json:"message"`
		ContentBlock *struct {
			Type     string `json:"type"`
			ID       string `json:"id"`
			Name     string `json:"name"`
			Text     string `json:"text"`
			Thinking string `json:"thinking"`
			Data     string `json:"data"`
		} `json:"content_block"`
		Delta *struct {
			Type        string `json:"type"`
			Text        string `json:"text"`
			Thinking    string `json:"thinking"`
			PartialJSON string `json:"partial_json"`
			Signature   string `json:"signature"`
			StopReason  string `json:"stop_reason"`
		} `json:"delta"`
		Usage *wireUsage `json:"usage"`
		Error *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
)

// decode maps SSE events to emitter calls until message_stop. It returns an
// error for an "error" event, malformed JSON, or a stream that ends first.
func decode(ctx context.Context, body io.ReadCloser, em *ai.Emitter) error {
	d := &decoder{em: em, blocks: map[int]int{}}
	done, err := ai.ReadEvents(ctx, body, d.event)
	if (!done && err == nil) || errors.Is(err, ai.ErrStreamEnded) {
		// A cut body ends like a clean early end here, with no cause
		// appended (the other providers append it; the goldens pin both).
		return ai.ErrStreamEnded
	}
	return err
}

// decoder is the state of one stream's decoding.
type decoder struct {
	em      *ai.Emitter
	blocks  map[int]int // Anthropic block index → our content index
	started bool
}

// event handles one SSE event; done means message_stop.
func (d *decoder) event(sev sse.Event) (done bool, err error) {
	em, blocks := d.em, d.blocks
	if index, text, thinking, ok := fastDelta(sev.Data); ok {
		d.delta(index, text, thinking)
		return false, nil
	}
	var ev wireEvent
	if err := json.Unmarshal(sev.Data, &ev); err != nil {
		return false, fmt.Errorf("decode %q event: %w", sev.Name, err)
	}
	if ev.Type == "" {
		ev.Type = string(sev.Name)
	}
	if !d.started && ev.Type != "error" && ev.Type != "ping" {
		em.Start()
		d.started = true
	}
	switch ev.Type {
	case "message_start":
		if ev.Message != nil {
			em.SetResponseID(ev.Message.ID)
			em.UpdateUsage(func(u *ai.Usage) { applyUsage(u, ev.Message.Usage) })
		}
	case "content_block_start":
		cb := ev.ContentBlock
		if cb == nil {
			return false, nil
		}
		switch cb.Type {
		case "text":
			idx := em.StartText()
			blocks[ev.Index] = idx
			if cb.Text != "" {
				em.TextDelta(idx, cb.Text)
			}
		case "thinking":
			idx := em.StartThinking()
			blocks[ev.Index] = idx
			if cb.Thinking != "" {
				em.ThinkingDelta(idx, cb.Thinking)
			}
		case "redacted_thinking":
			idx := em.StartThinking()
			blocks[ev.Index] = idx
			em.SetThinkingRedacted(idx, cb.Data)
		case "tool_use":
			blocks[ev.Index] = em.StartToolCall(cb.ID, cb.Name)
		}
	case "content_block_delta":
		idx, ok := blocks[ev.Index]
		if !ok || ev.Delta == nil {
			return false, nil
		}
		switch ev.Delta.Type {
		case "text_delta":
			em.TextDelta(idx, ev.Delta.Text)
		case "thinking_delta":
			em.ThinkingDelta(idx, ev.Delta.Thinking)
		case "input_json_delta":
			em.ToolCallDelta(idx, ev.Delta.PartialJSON)
		case "signature_delta":
			em.AppendThinkingSignature(idx, ev.Delta.Signature)
		}
	case "content_block_stop":
		idx, ok := blocks[ev.Index]
		if !ok {
			return false, nil
		}
		delete(blocks, ev.Index)
		switch em.Message().Content[idx].(type) {
		case *ai.TextContent:
			em.EndText(idx)
		case *ai.ThinkingContent:
			em.EndThinking(idx)
		case *ai.ToolCall:
			em.EndToolCall(idx)
		}
	case "message_delta":
		if ev.Delta != nil && ev.Delta.StopReason != "" {
			reason, msg := MapStopReason(ev.Delta.StopReason)
			em.SetStopReason(reason)
			if msg != "" {
				em.SetErrorMessage(msg)
			}
		}
		if ev.Usage != nil {
			em.UpdateUsage(func(u *ai.Usage) { applyUsage(u, *ev.Usage) })
		}
	case "message_stop":
		em.EndOpenBlocks()
		return true, nil
	case "error":
		if ev.Error != nil {
			return false, &ai.StreamError{Kind: ev.Error.Type, Message: ev.Error.Message}
		}
		return false, &ai.StreamError{Message: "the provider reported an error: " + string(sev.Data)}
	}
	return false, nil
}

// delta is a text or thinking delta read by fastDelta, handled as the
// general path handles the same event.
func (d *decoder) delta(index int, text string, thinking bool) {
	if !d.started {
		d.em.Start()
		d.started = true
	}
	idx, ok := d.blocks[index]
	if !ok {
		return
	}
	if thinking {
		d.em.ThinkingDelta(idx, text)
	} else {
		d.em.TextDelta(idx, text)
	}
}

func applyUsage(u *ai.Usage, w wireUsage) {
	if w.InputTokens != nil {
		u.Input = *w.InputTokens
	}
	if w.OutputTokens != nil {
		u.Output = *w.OutputTokens
	}
	if w.CacheReadInputTokens != nil {
		u.CacheRead = *w.CacheReadInputTokens
	}
	if w.CacheCreationInputTokens != nil {
		u.CacheWrite = *w.CacheCreationInputTokens
	}
	u.TotalTokens = u.Input + u.Output + u.CacheRead + u.CacheWrite
}

// MapStopReason maps an Anthropic stop_reason to ours, with an error text
// for the reasons that map to error.
func MapStopReason(s string) (ai.StopReason, string) {
	switch s {
	case "end_turn", "stop_sequence", "pause_turn":
		return ai.StopReasonStop, ""
	case "max_tokens":
		return ai.StopReasonLength, ""
	case "tool_use":
		return ai.StopReasonToolUse, ""
	case "refusal":
		return ai.StopReasonError, "The model refused to answer (stop_reason: refusal)"
	case "sensitive":
		return ai.StopReasonError, "The response was stopped by the provider's safety filter (stop_reason: sensitive)"
	case "model_context_window_exceeded":
		return ai.StopReasonError, "prompt is too long: the model's context window was exceeded (stop_reason: model_context_window_exceeded)"
	}
	return ai.StopReasonError, "unknown stop reason from provider: " + s
}
