package openairesponses

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gopi-agent/gopi/core/ai"
)

// event is the union of the Responses stream events we read.
type event struct {
	Type         string          `json:"type"`
	ItemID       string          `json:"item_id"`
	SummaryIndex int             `json:"summary_index"`
	Delta        string          `json:"delta"`
	Arguments    *string         `json:"arguments"`
	Item         json.RawMessage `json:"item"`
	Response     *response       `json:"response"`
	Code         string          `json:"code"`
	Message      string          `json:"message"`
}

type item struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type response struct {
	ID                string `json:"id"`
	Status            string `json:"status"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Usage *struct {
		InputTokens        int `json:"input_tokens"`
		OutputTokens       int `json:"output_tokens"`
		InputTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"input_tokens_details"`
	} `json:"usage"`
}

// Decoder turns Responses stream events into emitter calls (see the package
// doc for the mapping). It keeps which output item feeds which content
// block; one Decoder serves one response. Every Responses-family provider
// decodes with it.
type Decoder struct {
	em       *ai.Emitter
	items    map[string]int // item id → content index
	hasTools bool
	finished bool
}

// NewDecoder returns a decoder feeding em; em.Start is the caller's.
func NewDecoder(em *ai.Emitter) *Decoder { return &Decoder{em: em, items: map[string]int{}} }

// Finished reports whether the terminal event (response.completed,
// response.incomplete, response.failed, response.cancelled or
// response.done) has been decoded.
func (s *Decoder) Finished() bool { return s.finished }

// Event decodes one event's JSON data. An undecodable event or an "error"
// event is returned as an error, which ends the response.
func (s *Decoder) Event(data []byte) error {
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		return fmt.Errorf("decoding a response event: %w", err)
	}
	switch ev.Type {
	case "response.created":
		if ev.Response != nil {
			s.em.SetResponseID(ev.Response.ID)
		}
	case "response.output_item.added":
		var it item
		if err := json.Unmarshal(ev.Item, &it); err != nil {
			return fmt.Errorf("decoding an output item: %w", err)
		}
		switch it.Type {
		case "reasoning":
			s.items[it.ID] = s.em.StartThinking()
		case "message":
			s.items[it.ID] = s.em.StartText()
		case "function_call":
			idx := s.em.StartToolCall(it.CallID+"|"+it.ID, it.Name)
			s.items[it.ID] = idx
			s.hasTools = true
			if it.Arguments != "" {
				s.em.ToolCallDelta(idx, it.Arguments)
			}
		}
	case "response.reasoning_summary_part.added":
		if idx, ok := s.items[ev.ItemID]; ok && ev.SummaryIndex > 0 {
			s.em.ThinkingDelta(idx, "\n\n")
		}
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		if idx, ok := s.items[ev.ItemID]; ok {
			s.em.ThinkingDelta(idx, ev.Delta)
		}
	case "response.output_text.delta", "response.refusal.delta":
		if idx, ok := s.items[ev.ItemID]; ok {
			s.em.TextDelta(idx, ev.Delta)
		}
	case "response.function_call_arguments.delta":
		if idx, ok := s.items[ev.ItemID]; ok {
			s.em.ToolCallDelta(idx, ev.Delta)
		}
	case "response.function_call_arguments.done":
		if idx, ok := s.items[ev.ItemID]; ok && ev.Arguments != nil {
			s.em.SetToolCallArguments(idx, *ev.Arguments)
		}
	case "response.output_item.done":
		return s.itemDone(ev.Item)
	case "response.completed", "response.incomplete", "response.failed", "response.cancelled", "response.done":
		s.finish(ev.Response)
	case "error":
		msg := ev.Message
		if msg == "" {
			msg = "the provider reported an error in the stream"
		}
		return &ai.StreamError{Kind: ev.Code, Message: msg}
	}
	return nil
}

// itemDone closes the block of a finished output item.
func (s *Decoder) itemDone(raw json.RawMessage) error {
	var it item
	if err := json.Unmarshal(raw, &it); err != nil {
		return fmt.Errorf("decoding an output item: %w", err)
	}
	idx, ok := s.items[it.ID]
	if !ok {
		return nil
	}
	switch it.Type {
	case "reasoning":
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err == nil {
			s.em.AppendThinkingSignature(idx, compact.String())
		}
		s.em.EndThinking(idx)
	case "message":
		s.em.SetTextSignature(idx, it.ID)
		s.em.EndText(idx)
	case "function_call":
		if it.Arguments != "" {
			s.em.SetToolCallArguments(idx, it.Arguments)
		}
		s.em.EndToolCall(idx)
	}
	return nil
}

// finish maps the terminal response's status and usage.
func (s *Decoder) finish(r *response) {
	s.finished = true
	s.em.EndOpenBlocks()
	if r == nil {
		return
	}
	if r.ID != "" {
		s.em.SetResponseID(r.ID)
	}
	if u := r.Usage; u != nil {
		cached := 0
		if u.InputTokensDetails != nil {
			cached = u.InputTokensDetails.CachedTokens
		}
		s.em.SetUsage(ai.Usage{Input: max(u.InputTokens-cached, 0), Output: u.OutputTokens, CacheRead: cached})
	}
	switch r.Status {
	case "incomplete":
		if r.IncompleteDetails != nil && r.IncompleteDetails.Reason == "content_filter" {
			s.em.SetStopReason(ai.StopReasonError)
			s.em.SetErrorMessage("the provider's content filter stopped the response (status incomplete, reason content_filter)")
			return
		}
		s.em.SetStopReason(ai.StopReasonLength)
	case "failed", "cancelled":
		s.em.SetStopReason(ai.StopReasonError)
		msg := "the response ended with status " + r.Status
		if r.Error != nil && r.Error.Message != "" {
			msg = r.Error.Message
			if r.Error.Code != "" {
				msg = r.Error.Code + ": " + msg
			}
		}
		s.em.SetErrorMessage(msg)
	default:
		if s.hasTools {
			s.em.SetStopReason(ai.StopReasonToolUse)
		} else {
			s.em.SetStopReason(ai.StopReasonStop)
		}
	}
}
