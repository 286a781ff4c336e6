package openaicompletions

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/sse"
)

func init() {
	ai.RegisterAPI(ai.APIOpenAICompletions, func(c *http.Client) ai.Provider { return New(c) })
}

// Provider streams Chat Completions.
type Provider struct {
	client *http.Client
}

// New returns a provider using client (http.DefaultClient when nil).
func New(client *http.Client) *Provider { return &Provider{client: client} }

// API returns "openai-completions".
func (*Provider) API() ai.API { return ai.APIOpenAICompletions }

// Stream starts the request; every failure ends the stream with an error event.
func (p *Provider) Stream(ctx context.Context, req *ai.Request) *ai.Stream {
	return ai.StreamFunc(ctx, req, func(ctx context.Context, em *ai.Emitter) error { return p.stream(ctx, req, em) })
}

func (p *Provider) stream(ctx context.Context, req *ai.Request, em *ai.Emitter) error {
	c := CompatFor(req.Model)
	headers := http.Header{}
	// OpenAI echoes this id in its logs; compatible servers ignore it.
	headers.Set("X-Client-Request-Id", req.RequestID)
	if req.APIKey != "" {
		headers.Set("Authorization", "Bearer "+req.APIKey)
	}
	url := ai.JoinURL(req.EffectiveBaseURL(), "chat/completions")
	resp, err := ai.Post(ctx, p.client, req, url, headers, buildPayload(req, c))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	em.Start()
	st := &state{em: em, tools: map[int]int{}}
	if _, err := ai.ReadEvents(ctx, resp.Body, func(ev sse.Event) (bool, error) {
		if string(ev.Data) == "[DONE]" {
			st.sawDone = true
			return true, nil
		}
		return false, st.chunk(ev.Data)
	}); err != nil {
		return err
	}
	if !st.sawDone && st.finish == "" {
		return ai.ErrStreamEnded
	}
	em.EndOpenBlocks()
	st.finishUsage()
	st.applyStop()
	return nil
}

// chunk is one streamed Chat Completions chunk.
type chunk struct {
	ID      string `json:"id"`
	Choices []struct {
		Delta struct {
			Content          *string `json:"content"`
			Refusal          *string `json:"refusal"`
			ReasoningContent *string `json:"reasoning_content"`
			Reasoning        *string `json:"reasoning"`
			ReasoningText    *string `json:"reasoning_text"`
			ToolCalls        []struct {
				Index    *int   `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
		Usage        *usage  `json:"usage"` // some servers (Moonshot) report usage in the choice
	} `json:"choices"`
	Usage *usage `json:"usage"`
	XGroq *struct {
		Usage *usage `json:"usage"`
	} `json:"x_groq"` // Groq reports usage here
	Timings *timings        `json:"timings"` // llama.cpp's own counts, on its last chunk
	Error   json.RawMessage `json:"error"`   // {"message","type","code"} or a plain string
}

// streamError decodes an in-stream error in either shape servers use.
func streamError(raw json.RawMessage) error {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			s = "the provider reported an error in the stream"
		}
		return &ai.StreamError{Message: s}
	}
	var e struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	_ = json.Unmarshal(raw, &e)
	if e.Message == "" {
		e.Message = "the provider reported an error in the stream"
	}
	return &ai.StreamError{Kind: e.Type, Message: e.Message}
}

// timings is the part of llama.cpp's "timings" object that counts tokens:
// prompt tokens evaluated, prompt tokens reused from its cache, and tokens
// generated.
type timings struct {
	PromptN    *int `json:"prompt_n"`
	CacheN     int  `json:"cache_n"`
	PredictedN *int `json:"predicted_n"`
}

type usage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"` // DeepSeek
}

// state follows the open block while chunks arrive.
type state struct {
	em       *ai.Emitter
	kind     string      // kind of the open block: "text", "thinking", "tool" or ""
	idx      int         // content index of the open text/thinking block
	tools    map[int]int // tool index → content index
	curTool  int         // tool index of the open tool block
	finish   string      // finish_reason once seen
	sawDone  bool        // "[DONE]" arrived
	hasTools bool
	hasUsage bool     // a usage object arrived
	timings  *timings // llama.cpp's counts, used when no usage arrives
}

func (s *state) chunk(data []byte) error {
	var c chunk
	if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("decoding a response chunk: %w", err)
	}
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return streamError(c.Error)
	}
	if c.ID != "" {
		s.em.SetResponseID(c.ID)
	}
	switch {
	case c.Usage != nil:
		s.setUsage(c.Usage)
	case c.XGroq != nil && c.XGroq.Usage != nil:
		s.setUsage(c.XGroq.Usage)
	case len(c.Choices) > 0 && c.Choices[0].Usage != nil:
		s.setUsage(c.Choices[0].Usage)
	}
	if t := c.Timings; t != nil && t.PromptN != nil && t.PredictedN != nil {
		s.timings = t
	}
	if len(c.Choices) == 0 {
		return nil
	}
	ch := c.Choices[0]
	d := ch.Delta
	for _, r := range []*string{d.ReasoningContent, d.Reasoning, d.ReasoningText} {
		if r != nil && *r != "" {
			s.open("thinking")
			s.em.ThinkingDelta(s.idx, *r)
			break
		}
	}
	for _, t := range []*string{d.Content, d.Refusal} {
		if t != nil && *t != "" {
			s.open("text")
			s.em.TextDelta(s.idx, *t)
		}
	}
	for i, tc := range d.ToolCalls {
		ti := i
		if tc.Index != nil {
			ti = *tc.Index
		}
		idx, seen := s.tools[ti]
		if !seen {
			s.closeOpen()
			idx = s.em.StartToolCall(tc.ID, tc.Function.Name)
			s.tools[ti] = idx
			s.kind, s.curTool, s.hasTools = "tool", ti, true
		} else if s.kind != "tool" || s.curTool != ti {
			continue // a late delta for a call already closed; OpenAI never interleaves
		}
		if tc.Function.Arguments != "" {
			s.em.ToolCallDelta(idx, tc.Function.Arguments)
		}
	}
	if ch.FinishReason != nil && *ch.FinishReason != "" {
		s.finish = *ch.FinishReason
	}
	return nil
}

// open makes sure a block of kind is the open one.
func (s *state) open(kind string) {
	if s.kind == kind {
		return
	}
	s.closeOpen()
	switch kind {
	case "text":
		s.idx = s.em.StartText()
	case "thinking":
		s.idx = s.em.StartThinking()
	}
	s.kind = kind
}

// closeOpen ends the open block.
func (s *state) closeOpen() {
	switch s.kind {
	case "text":
		s.em.EndText(s.idx)
	case "thinking":
		s.em.EndThinking(s.idx)
	case "tool":
		s.em.EndToolCall(s.tools[s.curTool])
	}
	s.kind = ""
}

func (s *state) setUsage(u *usage) {
	s.hasUsage = true
	cached := u.PromptCacheHitTokens
	if u.PromptTokensDetails != nil && u.PromptTokensDetails.CachedTokens > 0 {
		cached = u.PromptTokensDetails.CachedTokens
	}
	s.em.SetUsage(ai.Usage{
		Input:     max(u.PromptTokens-cached, 0),
		Output:    u.CompletionTokens,
		CacheRead: cached,
	})
}

// finishUsage falls back to llama.cpp's timings when the server sent no
// usage object (it sends one only when asked with include_usage, and
// older versions never do). Without either, Done estimates the usage.
func (s *state) finishUsage() {
	if s.hasUsage || s.timings == nil {
		return
	}
	t := s.timings
	s.em.SetUsage(ai.Usage{Input: *t.PromptN, Output: *t.PredictedN, CacheRead: t.CacheN})
}

// applyStop maps finish_reason to the message's stop reason.
func (s *state) applyStop() {
	switch s.finish {
	case "length":
		s.em.SetStopReason(ai.StopReasonLength)
	case "tool_calls", "function_call":
		s.em.SetStopReason(ai.StopReasonToolUse)
	case "content_filter":
		s.em.SetStopReason(ai.StopReasonError)
		s.em.SetErrorMessage("the provider's content filter stopped the response (finish_reason content_filter)")
	default:
		if s.hasTools {
			s.em.SetStopReason(ai.StopReasonToolUse)
		} else {
			s.em.SetStopReason(ai.StopReasonStop)
		}
	}
}
