package google

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
)

func init() {
	ai.RegisterAPI(ai.APIGoogleGenerativeAI, func(c *http.Client) ai.Provider { return New(c) })
}

// Provider streams Gemini generateContent.
type Provider struct {
	client *http.Client
}

// New returns a provider using client (http.DefaultClient when nil).
func New(client *http.Client) *Provider { return &Provider{client: WithRetryInfo(client)} }

// API returns "google-generative-ai".
func (*Provider) API() ai.API { return ai.APIGoogleGenerativeAI }

// Stream starts the request; every failure ends the stream with an error event.
func (p *Provider) Stream(ctx context.Context, req *ai.Request) *ai.Stream {
	return ai.StreamFunc(ctx, req, func(ctx context.Context, em *ai.Emitter) error { return p.stream(ctx, req, em) })
}

func (p *Provider) stream(ctx context.Context, req *ai.Request, em *ai.Emitter) error {
	headers := http.Header{}
	if req.APIKey != "" {
		headers.Set("x-goog-api-key", req.APIKey)
	}
	endpoint := ai.JoinURL(req.EffectiveBaseURL(), "models/"+url.PathEscape(req.Model.ID)+":streamGenerateContent") + "?alt=sse"
	dec := NewDecoder(em, req.RequestID)
	if err := Run(ctx, p.client, req, dec, Call{URL: endpoint, Headers: headers, Payload: buildPayload(req)}); err != nil {
		return err
	}
	return dec.Finish()
}

// chunk is one streamed GenerateContentResponse.
type chunk struct {
	Candidates []struct {
		Content *struct {
			Parts []part `json:"parts"`
		} `json:"content"`
		FinishReason  string `json:"finishReason"`
		FinishMessage string `json:"finishMessage"`
	} `json:"candidates"`
	PromptFeedback *struct {
		BlockReason string `json:"blockReason"`
	} `json:"promptFeedback"`
	UsageMetadata *struct {
		PromptTokenCount        int `json:"promptTokenCount"`
		CandidatesTokenCount    int `json:"candidatesTokenCount"`
		ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
		CachedContentTokenCount int `json:"cachedContentTokenCount"`
	} `json:"usageMetadata"`
	ResponseID string `json:"responseId"`
	Error      *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"error"`
}

type part struct {
	Text             *string `json:"text"`
	Thought          bool    `json:"thought"`
	ThoughtSignature string  `json:"thoughtSignature"`
	FunctionCall     *struct {
		ID   string         `json:"id"`
		Name string         `json:"name"`
		Args map[string]any `json:"args"`
	} `json:"functionCall"`
}

// enveloped is a chunk wrapped as Cloud Code Assist sends it:
// {"response": {…}, "traceId": …}, or a bare error object.
type enveloped struct {
	chunk
	Response *chunk `json:"response"`
}

// state follows the open block while chunks arrive.
type state struct {
	em     *ai.Emitter
	reqID  string
	kind   string // "text", "thinking" or ""
	idx    int
	calls  int
	finish string
	// content is set once a text or function-call part arrives (Cloud
	// Code Assist sends the request again after a reply without any).
	content bool
	// envelope reads each chunk as an enveloped one.
	envelope bool
}

func (s *state) chunk(data []byte) error {
	var c chunk
	if s.envelope {
		var e enveloped
		if err := json.Unmarshal(data, &e); err != nil {
			return fmt.Errorf("decoding a response chunk: %w", err)
		}
		switch {
		case e.Error != nil:
			c = e.chunk
		case e.Response != nil:
			c = *e.Response
		default:
			return nil // no response in this chunk
		}
	} else if err := json.Unmarshal(data, &c); err != nil {
		return fmt.Errorf("decoding a response chunk: %w", err)
	}
	if c.Error != nil {
		msg := c.Error.Message
		if msg == "" {
			msg = fmt.Sprintf("Gemini reported an error in the stream (code %d)", c.Error.Code)
		}
		return &ai.StreamError{Kind: c.Error.Status, Message: msg}
	}
	if c.ResponseID != "" {
		s.em.SetResponseID(c.ResponseID)
	}
	if u := c.UsageMetadata; u != nil {
		s.em.SetUsage(ai.Usage{
			Input:     max(u.PromptTokenCount-u.CachedContentTokenCount, 0),
			Output:    u.CandidatesTokenCount + u.ThoughtsTokenCount,
			CacheRead: u.CachedContentTokenCount,
		})
	}
	if c.PromptFeedback != nil && c.PromptFeedback.BlockReason != "" && len(c.Candidates) == 0 {
		s.finish = "PROMPT_BLOCKED:" + c.PromptFeedback.BlockReason
		return nil
	}
	if len(c.Candidates) == 0 {
		return nil
	}
	cand := c.Candidates[0]
	if cand.Content != nil {
		for _, p := range cand.Content.Parts {
			s.part(p)
		}
	}
	if cand.FinishReason != "" {
		s.finish = cand.FinishReason
	}
	return nil
}

func (s *state) part(p part) {
	if p.FunctionCall != nil || p.Text != nil {
		s.content = true
	}
	if p.FunctionCall != nil {
		s.closeOpen()
		s.calls++
		id := p.FunctionCall.ID
		if id == "" {
			id = fmt.Sprintf("%s_%s_%d", p.FunctionCall.Name, s.reqID, s.calls)
		}
		idx := s.em.StartToolCall(id, p.FunctionCall.Name)
		s.em.ToolCallDelta(idx, argsJSON(p.FunctionCall.Args))
		s.em.EndToolCall(idx)
		return
	}
	if p.Text == nil {
		return
	}
	kind := "text"
	if p.Thought {
		kind = "thinking"
	}
	if *p.Text == "" && p.ThoughtSignature == "" {
		return
	}
	if s.kind != kind {
		s.closeOpen()
		if kind == "thinking" {
			s.idx = s.em.StartThinking()
		} else {
			s.idx = s.em.StartText()
		}
		s.kind = kind
	}
	if *p.Text != "" {
		if kind == "thinking" {
			s.em.ThinkingDelta(s.idx, *p.Text)
		} else {
			s.em.TextDelta(s.idx, *p.Text)
		}
	}
	if p.ThoughtSignature != "" {
		if kind == "thinking" {
			s.em.AppendThinkingSignature(s.idx, p.ThoughtSignature)
		} else {
			s.em.SetTextSignature(s.idx, p.ThoughtSignature)
		}
	}
}

func (s *state) closeOpen() {
	switch s.kind {
	case "text":
		s.em.EndText(s.idx)
	case "thinking":
		s.em.EndThinking(s.idx)
	}
	s.kind = ""
}

// applyStop maps finishReason to the message's stop reason.
func (s *state) applyStop() {
	switch {
	case s.finish == "STOP" || s.finish == "FINISH_REASON_UNSPECIFIED":
		if s.calls > 0 {
			s.em.SetStopReason(ai.StopReasonToolUse)
		} else {
			s.em.SetStopReason(ai.StopReasonStop)
		}
	case s.finish == "MAX_TOKENS":
		s.em.SetStopReason(ai.StopReasonLength)
	case strings.HasPrefix(s.finish, "PROMPT_BLOCKED:"):
		s.em.SetStopReason(ai.StopReasonError)
		s.em.SetErrorMessage("Gemini blocked the prompt (blockReason " + strings.TrimPrefix(s.finish, "PROMPT_BLOCKED:") + ")")
	default:
		s.em.SetStopReason(ai.StopReasonError)
		s.em.SetErrorMessage("Gemini stopped the response (finishReason " + s.finish + ")")
	}
}
