package agent

import (
	"context"

	"github.com/gopi-agent/gopi/core/ai"
)

// RequestWith builds the provider request the next turn would send — the
// same system prompt, tools, context hooks, message conversion and
// provider hooks — with extra messages after the conversation (converted
// like it, but not shown to the context hooks). It is for one-off requests
// that share the conversation's prompt-cache prefix, such as a handoff
// document; the caller sets ToolChoice, Thinking or MaxTokens as it needs
// and sends the request itself. Nothing is added to the conversation.
func (a *Agent) RequestWith(ctx context.Context, extra ...ai.Message) *ai.Request {
	req := a.request(ctx, &hookChain{hooks: a.opts.Hooks, emit: a.emit}, nil)
	if a.opts.ConvertToLLM != nil {
		extra = a.opts.ConvertToLLM(extra)
	} else {
		extra = onlyProviderRoles(extra)
	}
	req.Messages = append(req.Messages, extra...)
	return req
}
