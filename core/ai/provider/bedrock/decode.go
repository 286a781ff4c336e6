package bedrock

import (
	"encoding/base64"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"

	"github.com/gopi-agent/gopi/core/ai"
)

// decoder maps ConverseStream events to emitter calls. Converse announces
// only tool use with contentBlockStart; a text or reasoning block begins
// with its first delta, so blocks are opened on demand by the kind of that
// delta.
type decoder struct {
	em      *ai.Emitter
	blocks  map[int32]int // Converse content block index → our content index
	started bool
	stopped bool // messageStop arrived
}

func newDecoder(em *ai.Emitter) *decoder {
	return &decoder{em: em, blocks: map[int32]int{}}
}

// start emits "start" once, at the first event.
func (d *decoder) start() {
	if !d.started {
		d.started = true
		d.em.Start()
	}
}

// event handles one stream event.
func (d *decoder) event(ev types.ConverseStreamOutput) error {
	switch ev := ev.(type) {
	case *types.ConverseStreamOutputMemberMessageStart:
		if ev.Value.Role != "" && ev.Value.Role != types.ConversationRoleAssistant {
			return fmt.Errorf("the stream started a %s message instead of the assistant's", ev.Value.Role)
		}
		d.start()
	case *types.ConverseStreamOutputMemberContentBlockStart:
		d.start()
		if tu, ok := ev.Value.Start.(*types.ContentBlockStartMemberToolUse); ok {
			d.blocks[index(ev.Value.ContentBlockIndex)] = d.em.StartToolCall(toolID(str(tu.Value.ToolUseId)), str(tu.Value.Name))
		}
	case *types.ConverseStreamOutputMemberContentBlockDelta:
		d.start()
		d.delta(index(ev.Value.ContentBlockIndex), ev.Value.Delta)
	case *types.ConverseStreamOutputMemberContentBlockStop:
		d.stop(index(ev.Value.ContentBlockIndex))
	case *types.ConverseStreamOutputMemberMessageStop:
		d.start()
		d.em.EndOpenBlocks()
		reason, msg := MapStopReason(string(ev.Value.StopReason))
		d.em.SetStopReason(reason)
		if msg != "" {
			d.em.SetErrorMessage(msg)
		}
		d.stopped = true
	case *types.ConverseStreamOutputMemberMetadata:
		if u := ev.Value.Usage; u != nil {
			d.em.UpdateUsage(func(au *ai.Usage) {
				au.Input, au.Output = i32(u.InputTokens), i32(u.OutputTokens)
				au.CacheRead, au.CacheWrite = i32(u.CacheReadInputTokens), i32(u.CacheWriteInputTokens)
				au.TotalTokens = au.Input + au.Output + au.CacheRead + au.CacheWrite
			})
		}
	}
	return nil
}

// delta appends a delta to its block, opening the block by the delta's
// kind when it is the first.
func (d *decoder) delta(i int32, delta types.ContentBlockDelta) {
	idx, open := d.blocks[i]
	kind := func() any {
		if !open {
			return nil
		}
		return d.em.Message().Content[idx]
	}
	switch delta := delta.(type) {
	case *types.ContentBlockDeltaMemberText:
		if !open {
			idx = d.em.StartText()
			d.blocks[i] = idx
		}
		if _, ok := kind().(*ai.TextContent); ok || !open {
			d.em.TextDelta(idx, delta.Value)
		}
	case *types.ContentBlockDeltaMemberToolUse:
		if _, ok := kind().(*ai.ToolCall); ok {
			d.em.ToolCallDelta(idx, str(delta.Value.Input))
		}
	case *types.ContentBlockDeltaMemberReasoningContent:
		if !open {
			idx = d.em.StartThinking()
			d.blocks[i] = idx
		} else if _, ok := kind().(*ai.ThinkingContent); !ok {
			return
		}
		switch r := delta.Value.(type) {
		case *types.ReasoningContentBlockDeltaMemberText:
			d.em.ThinkingDelta(idx, r.Value)
		case *types.ReasoningContentBlockDeltaMemberSignature:
			d.em.AppendThinkingSignature(idx, r.Value)
		case *types.ReasoningContentBlockDeltaMemberRedactedContent:
			d.em.SetThinkingRedacted(idx, base64.StdEncoding.EncodeToString(r.Value))
		}
	}
}

// stop closes a block.
func (d *decoder) stop(i int32) {
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
	switch types.StopReason(s) {
	case types.StopReasonEndTurn, types.StopReasonStopSequence:
		return ai.StopReasonStop, ""
	case types.StopReasonMaxTokens, types.StopReasonModelContextWindowExceeded:
		return ai.StopReasonLength, ""
	case types.StopReasonToolUse:
		return ai.StopReasonToolUse, ""
	case types.StopReasonGuardrailIntervened:
		return ai.StopReasonError, "The response was blocked by a Bedrock guardrail (stopReason: guardrail_intervened)"
	case types.StopReasonContentFiltered:
		return ai.StopReasonError, "The response was stopped by the provider's content filter (stopReason: content_filtered)"
	case types.StopReasonMalformedModelOutput, types.StopReasonMalformedToolUse:
		return ai.StopReasonError, "The model produced output Bedrock could not parse (stopReason: " + s + ")"
	}
	return ai.StopReasonError, "unknown stop reason from provider: " + s
}

func index(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

func i32(p *int32) int {
	if p == nil {
		return 0
	}
	return int(*p)
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
