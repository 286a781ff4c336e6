package bedrock

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/gopi-agent/gopi/core/ai"
)

// decoder maps ConverseStream events to emitter calls. Converse announces
// only tool use with contentBlockStart; a text or reasoning block begins
// with its first delta, so blocks are opened on demand by the kind of that
// delta.
type decoder struct {
	em      *ai.Emitter
	blocks  map[int]int // Converse content block index → our content index
	started bool
	stopped bool // messageStop arrived
}

func newDecoder(em *ai.Emitter) *decoder {
	return &decoder{em: em, blocks: map[int]int{}}
}

// start emits "start" once, at the first event.
func (d *decoder) start() {
	if !d.started {
		d.started = true
		d.em.Start()
	}
}

// event handles one stream event: its type (the :event-type header) and
// JSON payload. Unknown event types are skipped, as new ones may appear.
func (d *decoder) event(name string, payload []byte) error {
	var ev streamEvent
	switch name {
	case "messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata":
		if err := json.Unmarshal(payload, &ev); err != nil {
			return fmt.Errorf("Bedrock sent a %s event that is not valid JSON: %w", name, err)
		}
	default:
		return nil
	}
	switch name {
	case "messageStart":
		if ev.Role != "" && ev.Role != roleAssistant {
			return fmt.Errorf("the stream started a %s message instead of the assistant's", ev.Role)
		}
		d.start()
	case "contentBlockStart":
		d.start()
		if ev.Start != nil && ev.Start.ToolUse != nil {
			d.blocks[ev.ContentBlockIndex] = d.em.StartToolCall(toolID(ev.Start.ToolUse.ToolUseID), ev.Start.ToolUse.Name)
		}
	case "contentBlockDelta":
		d.start()
		if ev.Delta != nil {
			d.delta(ev.ContentBlockIndex, ev.Delta)
		}
	case "contentBlockStop":
		d.stop(ev.ContentBlockIndex)
	case "messageStop":
		d.start()
		d.em.EndOpenBlocks()
		reason, msg := MapStopReason(ev.StopReason)
		d.em.SetStopReason(reason)
		if msg != "" {
			d.em.SetErrorMessage(msg)
		}
		d.stopped = true
	case "metadata":
		if u := ev.Usage; u != nil {
			d.em.UpdateUsage(func(au *ai.Usage) {
				au.Input, au.Output = u.InputTokens, u.OutputTokens
				au.CacheRead, au.CacheWrite = u.CacheReadInputTokens, u.CacheWriteInputTokens
				au.TotalTokens = au.Input + au.Output + au.CacheRead + au.CacheWrite
			})
		}
	}
	return nil
}

// delta appends a delta to its block, opening the block by the delta's
// kind when it is the first.
func (d *decoder) delta(i int, delta *blockDelta) {
	idx, open := d.blocks[i]
	kind := func() any {
		if !open {
			return nil
		}
		return d.em.Message().Content[idx]
	}
	switch {
	case delta.Text != nil:
		if !open {
			idx = d.em.StartText()
			d.blocks[i] = idx
		}
		if _, ok := kind().(*ai.TextContent); ok || !open {
			d.em.TextDelta(idx, *delta.Text)
		}
	case delta.ToolUse != nil:
		if _, ok := kind().(*ai.ToolCall); ok {
			d.em.ToolCallDelta(idx, delta.ToolUse.Input)
		}
	case delta.ReasoningContent != nil:
		if !open {
			idx = d.em.StartThinking()
			d.blocks[i] = idx
		} else if _, ok := kind().(*ai.ThinkingContent); !ok {
			return
		}
		switch r := delta.ReasoningContent; {
		case r.Text != nil:
			d.em.ThinkingDelta(idx, *r.Text)
		case r.Signature != nil:
			d.em.AppendThinkingSignature(idx, *r.Signature)
		case r.RedactedContent != nil:
			d.em.SetThinkingRedacted(idx, base64.StdEncoding.EncodeToString(r.RedactedContent))
		}
	}
}

// stop closes a block.
func (d *decoder) stop(i int) {
	idx, ok := d.blocks[i]
	if !ok {
		return
	}
	delete(d.blocks, i)
	switch d.em.Message().Content[idx].(type) {
	case *ai.TextContent:
		d.em.EndText(idx)
	case *ai.ThinkingContent:
		d.em.EndThinking(idx)
	case *ai.ToolCall:
		d.em.EndToolCall(idx)
	}
}

// MapStopReason maps a Converse stopReason to ours, with an error text for
// the reasons that map to error.
func MapStopReason(s string) (ai.StopReason, string) {
	switch s {
	case "end_turn", "stop_sequence":
		return ai.StopReasonStop, ""
	case "max_tokens", "model_context_window_exceeded":
		return ai.StopReasonLength, ""
	case "tool_use":
		return ai.StopReasonToolUse, ""
	case "guardrail_intervened":
		return ai.StopReasonError, "The response was blocked by a Bedrock guardrail (stopReason: guardrail_intervened)"
	case "content_filtered":
		return ai.StopReasonError, "The response was stopped by the provider's content filter (stopReason: content_filtered)"
	case "malformed_model_output", "malformed_tool_use":
		return ai.StopReasonError, "The model produced output Bedrock could not parse (stopReason: " + s + ")"
	}
	return ai.StopReasonError, "unknown stop reason from provider: " + s
}
