package agent

import (
	"context"

	"github.com/gopi-agent/gopi/core/ai"
)

// run is one run of the loop; start holds the running flag around it and
// emits agent_end with the messages run returns, once the agent is idle.
func (a *Agent) run(ctx context.Context, prompts []ai.Message, skipInitialSteer bool) []ai.Message {
	hooks := &hookChain{hooks: a.opts.Hooks, emit: a.emit}
	var added []ai.Message
	add := func(m ai.Message) {
		a.mu.Lock()
		a.messages = append(a.messages, m)
		a.mu.Unlock()
		added = append(added, m)
		a.emit(MessageStart{Message: m})
		a.emit(MessageEnd{Message: m})
	}

	a.endTurn.Store(false)
	a.emit(AgentStart{})
	turn := 0
	a.emit(TurnStart{TurnIndex: turn, Timestamp: a.now().UnixMilli()})
	if len(prompts) > 0 && !skipInitialSteer {
		if extra := hooks.beforeAgentStart(ctx, prompts); extra != nil {
			prompts = append(append([]ai.Message(nil), prompts...), extra)
		}
	}
	for _, m := range prompts {
		add(m)
	}

	var pending []ai.Message
	if !skipInitialSteer {
		pending = a.queued.takeSteering()
	}
	firstTurn := true
	for {
		moreTools := true
		for moreTools || len(pending) > 0 {
			if !firstTurn {
				turn++
				a.emit(TurnStart{TurnIndex: turn, Timestamp: a.now().UnixMilli()})
			}
			firstTurn = false
			for _, m := range pending {
				add(m)
			}
			pending = nil

			msg := a.respond(ctx, hooks)
			added = append(added, msg)
			if msg.StopReason == ai.StopReasonError || msg.StopReason == ai.StopReasonAborted {
				results := a.failCalls(msg)
				added = append(added, toMessages(results)...)
				a.emit(TurnEnd{TurnIndex: turn, Message: msg, ToolResults: results})
				return added
			}
			calls := msg.ToolCalls()
			moreTools = len(calls) > 0
			var results []*ai.ToolResultMessage
			var steered []ai.Message
			if moreTools {
				results, steered = a.runTools(ctx, hooks, msg)
				added = append(added, toMessages(results)...)
			}
			a.emit(TurnEnd{TurnIndex: turn, Message: msg, ToolResults: results})
			if a.endTurn.Swap(false) {
				return added
			}
			if steered != nil {
				pending = steered
			} else {
				pending = a.queued.takeSteering()
			}
		}
		if follow := a.queued.takeFollowUp(); len(follow) > 0 {
			pending = follow
			continue
		}
		break
	}
	return added
}

func toMessages(rs []*ai.ToolResultMessage) []ai.Message {
	out := make([]ai.Message, len(rs))
	for i, r := range rs {
		out[i] = r
	}
	return out
}

// failCalls answers every call of a failed or aborted assistant message
// with an error result, so the history stays well formed.
func (a *Agent) failCalls(msg *ai.AssistantMessage) []*ai.ToolResultMessage {
	var out []*ai.ToolResultMessage
	for _, tc := range msg.ToolCalls() {
		text := "The tool was not run because the response failed"
		if msg.StopReason == ai.StopReasonAborted {
			text = "The tool was not run because the request was aborted"
		}
		if msg.ErrorMessage != "" {
			text += ": " + msg.ErrorMessage
		} else {
			text += "."
		}
		res := &ai.ToolResultMessage{ToolCallID: tc.ID, ToolName: tc.Name, Content: ai.ContentList{ai.Text(text)}, IsError: true, Timestamp: a.now().UnixMilli()}
		a.emit(ToolExecutionStart{ToolCallID: tc.ID, ToolName: tc.Name, Args: tc.Arguments})
		a.emit(ToolExecutionEnd{ToolCallID: tc.ID, ToolName: tc.Name, Result: resultOf(res), IsError: true})
		a.mu.Lock()
		a.messages = append(a.messages, res)
		a.mu.Unlock()
		a.emit(MessageStart{Message: res})
		a.emit(MessageEnd{Message: res})
		out = append(out, res)
	}
	return out
}
