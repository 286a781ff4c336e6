package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/tool"
)

// Hooks are in-process extension points of the loop. Every field is
// optional. Several Hooks values run in the order they were given; how
// their results combine is documented per field. A hook that returns an
// error or panics is reported as a HookError event and, except for ToolCall,
// treated as if it had not answered.
type Hooks struct {
	// Name identifies the hook in HookError events (an extension's path).
	Name string

	// Context sees a copy of the messages before each model call and may
	// return a replacement (nil keeps them). Hooks chain: each sees the
	// previous one's result. The stored conversation never changes.
	Context func(ctx context.Context, messages []ai.Message) ([]ai.Message, error)

	// BeforeAgentStart runs when a prompt starts a run, with the prompt's
	// messages. A non-nil message is added after them (an extension's
	// context injection); the first hook to return one wins.
	BeforeAgentStart func(ctx context.Context, prompt []ai.Message) (ai.Message, error)

	// ToolCall sees each call after its arguments were validated and may
	// block it. The first hook that blocks stops the chain and the call
	// fails with the reason; an error or panic blocks too, with its text.
	ToolCall func(ctx context.Context, call *ToolCallInfo) (*ToolCallDecision, error)

	// ToolResult sees each result and may override parts of it. Hooks
	// chain like middleware: each sees the result as left by the previous.
	ToolResult func(ctx context.Context, call *ToolCallInfo, result *tool.Result) (*ToolResultOverride, error)

	// BeforeProviderRequest sees the exact JSON body of each provider
	// request, tagged with its request id, and may replace it. Hooks
	// chain: each sees the body as the previous one left it. A hook that
	// fails is reported and its change, if it made one, is dropped: the
	// request goes out as the hooks before it left it.
	BeforeProviderRequest func(ctx context.Context, req *ai.ProviderRequest) error

	// AfterProviderResponse sees the status and headers of each provider
	// response as soon as they arrive.
	AfterProviderResponse func(ctx context.Context, resp *ai.ProviderResponse)

	// The session-level points below are run by the session runtime
	// (package agentsession), not by the loop; they live here so that an
	// extension registers every hook in one place.

	// SessionBeforeCompact runs before a compaction (manual or automatic)
	// is generated. A result with Cancel stops it at once (later hooks do
	// not run); otherwise the latest result with a Compaction supplies the
	// compaction instead of the model, stored as fromExtension. ctx ends
	// when the compaction is aborted.
	SessionBeforeCompact func(ctx context.Context, ev *compaction.BeforeCompactEvent) (*compaction.BeforeCompactResult, error)

	// SessionCompacting runs before the default summary is written; it may
	// add context lines, replace the summary instructions and add data kept
	// on the entry. The latest non-nil result wins.
	SessionCompacting func(ctx context.Context, ev *compaction.CompactingEvent) (*compaction.CompactingResult, error)

	// SessionCompact reports a compaction stored in the session.
	SessionCompact func(ctx context.Context, ev *compaction.CompactEvent)

	// SessionBeforeTree runs before the leaf moves in the session tree
	// (/tree). A result with Cancel stops the move at once (later hooks
	// do not run); otherwise the latest result with a Summary supplies
	// the branch summary, when the user asked for one, instead of the
	// model. ctx ends when the move is aborted.
	SessionBeforeTree func(ctx context.Context, ev *compaction.BeforeTreeEvent) (*compaction.BeforeTreeResult, error)

	// SessionTree reports a move of the leaf.
	SessionTree func(ctx context.Context, ev *compaction.TreeEvent)

	// SessionBeforeBranch runs before /branch creates a session file. A
	// result with Cancel stops it at once; SkipConversationRestore from
	// any hook keeps the conversation the model sees.
	SessionBeforeBranch func(ctx context.Context, ev *BeforeBranchEvent) (*BeforeBranchResult, error)

	// SessionBranch reports a /branch.
	SessionBranch func(ctx context.Context, ev *BranchEvent)

	// SessionBeforeSwitch runs before the session is replaced (a new
	// session, another file). A result with Cancel stops it at once.
	SessionBeforeSwitch func(ctx context.Context, ev *BeforeSwitchEvent) (*BeforeSwitchResult, error)

	// SessionSwitch reports a switch to another session.
	SessionSwitch func(ctx context.Context, ev *SwitchEvent)

	// Input reports a prompt the user sent, before it starts a run (and
	// before the session is titled from it). It cannot change the prompt.
	Input func(ctx context.Context, ev *InputEvent)

	// UserBash runs before a shell command the user typed ("!cmd"). The
	// first hook to return a result supplies the command's outcome and
	// the command is not run (omp's user_bash {result}).
	UserBash func(ctx context.Context, ev *UserBashEvent) (*UserBashResult, error)
}

// ToolCallInfo describes one tool call to hooks.
type ToolCallInfo struct {
	ID   string    // the provider's call id
	Name string    // the tool's name
	Args tool.Args // validated arguments (hooks must not modify them)
	Tool tool.Tool // the tool called (nil when a hook is run outside the loop)
}

// ToolCallDecision is a ToolCall hook's answer.
type ToolCallDecision struct {
	Block  bool   // refuse the call
	Reason string // why; becomes the call's error text
}

// ToolResultOverride replaces parts of a result; nil fields keep them.
type ToolResultOverride struct {
	Content []tool.Content // replaces the content blocks
	Details any            // replaces the details
	IsError *bool          // replaces the error flag
}

// hookChain runs a list of Hooks and reports their failures through emit.
type hookChain struct {
	hooks []*Hooks
	emit  func(Event)
}

// Guard runs fn, turning a panic into an error: hook callers outside the
// loop (the session runtime) use it as the loop does.
func Guard(fn func() error) error { return guard(fn) }

// guard runs fn, turning a panic into an error.
func guard(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return fn()
}

func (c *hookChain) fail(h *Hooks, point string, err error) {
	c.emit(HookError{Hook: h.Name, Event: point, Error: err.Error()})
}

// context runs the Context hooks on a copy of msgs.
func (c *hookChain) context(ctx context.Context, msgs []ai.Message) []ai.Message {
	for _, h := range c.hooks {
		if h.Context == nil {
			continue
		}
		in := append([]ai.Message(nil), msgs...)
		var out []ai.Message
		if err := guard(func() (err error) { out, err = h.Context(ctx, in); return }); err != nil {
			c.fail(h, "context", err)
			continue
		}
		if out != nil {
			msgs = out
		}
	}
	return msgs
}

// beforeAgentStart returns the first message a hook injects, or nil.
func (c *hookChain) beforeAgentStart(ctx context.Context, prompt []ai.Message) ai.Message {
	for _, h := range c.hooks {
		if h.BeforeAgentStart == nil {
			continue
		}
		var m ai.Message
		if err := guard(func() (err error) { m, err = h.BeforeAgentStart(ctx, append([]ai.Message(nil), prompt...)); return }); err != nil {
			c.fail(h, "before_agent_start", err)
			continue
		}
		if m != nil {
			return m
		}
	}
	return nil
}

// toolCall returns the reason a call is blocked, or "" to let it run.
func (c *hookChain) toolCall(ctx context.Context, call *ToolCallInfo) (blocked bool, reason string) {
	for _, h := range c.hooks {
		if h.ToolCall == nil {
			continue
		}
		var d *ToolCallDecision
		if err := guard(func() (err error) { d, err = h.ToolCall(ctx, call); return }); err != nil {
			c.fail(h, "tool_call", err)
			return true, fmt.Sprintf("The call was blocked because a tool_call hook failed: %v", err)
		}
		if d != nil && d.Block {
			if d.Reason == "" {
				return true, "The call was blocked by a tool_call hook."
			}
			return true, d.Reason
		}
	}
	return false, ""
}

// toolResult runs the ToolResult hooks as middleware over res.
func (c *hookChain) toolResult(ctx context.Context, call *ToolCallInfo, res *tool.Result) *tool.Result {
	for _, h := range c.hooks {
		if h.ToolResult == nil {
			continue
		}
		var o *ToolResultOverride
		if err := guard(func() (err error) { o, err = h.ToolResult(ctx, call, res); return }); err != nil {
			c.fail(h, "tool_result", err)
			continue
		}
		if o == nil {
			continue
		}
		next := *res
		if o.Content != nil {
			next.Content = o.Content
		}
		if o.Details != nil {
			next.Details = o.Details
		}
		if o.IsError != nil {
			next.IsError = *o.IsError
		}
		res = &next
	}
	return res
}

// requestHooks wires the provider hooks into req.
func (c *hookChain) requestHooks(req *ai.Request) {
	var before []*Hooks
	var after []*Hooks
	for _, h := range c.hooks {
		if h.BeforeProviderRequest != nil {
			before = append(before, h)
		}
		if h.AfterProviderResponse != nil {
			after = append(after, h)
		}
	}
	if len(before) > 0 {
		req.OnRequest = func(ctx context.Context, p *ai.ProviderRequest) error {
			for _, h := range before {
				kept := bytes.Clone(p.Payload) // a hook may have edited the bytes in place
				if err := guard(func() error { return h.BeforeProviderRequest(ctx, p) }); err != nil {
					p.Payload = kept
					c.fail(h, "before_provider_request", err)
				}
			}
			return nil
		}
	}
	if len(after) > 0 {
		req.OnResponse = func(ctx context.Context, r *ai.ProviderResponse) {
			for _, h := range after {
				if err := guard(func() error { h.AfterProviderResponse(ctx, r); return nil }); err != nil {
					c.fail(h, "after_provider_response", err)
				}
			}
		}
	}
}

// RunOutsideLoop runs a tool call that does not come from the model but
// from inside another tool (eval's JavaScript tool.<name>) through a's
// hooks as a's loop would: the ToolCall hooks first (the
// permission gate among them; a blocked call is not run and its reason
// is returned as an error), then run, then the ToolResult hooks over its
// result. Extension policies and the user's approval apply alike.
func RunOutsideLoop(ctx context.Context, a *Agent, info *ToolCallInfo, run func() (*tool.Result, error)) (*tool.Result, error) {
	chain := &hookChain{hooks: a.opts.Hooks, emit: a.emit}
	if blocked, reason := chain.toolCall(ctx, info); blocked {
		return nil, errors.New(reason)
	}
	res, err := run()
	if err != nil {
		return nil, err
	}
	return chain.toolResult(ctx, info, res), nil
}
