package extensions

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
)

// Hooks returns the loop hooks that run the extensions' handlers: one
// agent.Hooks per extension, in load order, so that the loop's rules
// apply between extensions (the first tool_call block wins, tool_result
// is chained, before_agent_start's first message wins), and within one
// extension its handlers run in registration order with the same rules.
func (r *Runtime) Hooks() []*agent.Hooks {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*agent.Hooks
	for _, x := range r.exts {
		h := &agent.Hooks{Name: x.entry.Path}
		if len(x.handlers["tool_call"]) > 0 {
			h.ToolCall = func(ctx context.Context, call *agent.ToolCallInfo) (*agent.ToolCallDecision, error) {
				return r.toolCall(ctx, x, call)
			}
		}
		if len(x.handlers["tool_result"]) > 0 {
			h.ToolResult = func(ctx context.Context, call *agent.ToolCallInfo, res *tool.Result) (*agent.ToolResultOverride, error) {
				return r.toolResult(ctx, x, call, res)
			}
		}
		if len(x.handlers["before_agent_start"]) > 0 {
			h.BeforeAgentStart = func(ctx context.Context, prompt []ai.Message) (ai.Message, error) {
				return r.beforeAgentStart(ctx, x, prompt)
			}
		}
		if len(x.handlers["context"]) > 0 {
			h.Context = func(ctx context.Context, msgs []ai.Message) ([]ai.Message, error) {
				return r.contextHook(ctx, x, msgs)
			}
		}
		r.sessionHooks(h, x)
		out = append(out, h)
	}
	return out
}

// toolCall runs tool_call handlers: {block: true, reason} refuses the
// call; a handler that throws refuses it too, with the error's text.
func (r *Runtime) toolCall(ctx context.Context, x *ext, call *agent.ToolCallInfo) (*agent.ToolCallDecision, error) {
	ev := map[string]any{"toolName": call.Name, "toolCallId": call.ID, "input": call.Args}
	for _, fn := range x.handlers["tool_call"] {
		out, err := r.callHandler(ctx, extHandler{x, fn}, "tool_call", ev)
		if err != nil {
			return &agent.ToolCallDecision{Block: true, Reason: err.Error()}, nil
		}
		var d struct {
			Block  bool   `json:"block"`
			Reason string `json:"reason"`
		}
		if len(out) > 0 && json.Unmarshal(out, &d) == nil && d.Block {
			if d.Reason == "" {
				d.Reason = "Blocked by an extension (" + x.entry.Name + ")"
			}
			return &agent.ToolCallDecision{Block: true, Reason: d.Reason}, nil
		}
	}
	return nil, nil
}

// toolResult runs tool_result handlers, each seeing the result as the
// previous one left it; {content, details, isError} replace those parts.
func (r *Runtime) toolResult(ctx context.Context, x *ext, call *agent.ToolCallInfo, res *tool.Result) (*agent.ToolResultOverride, error) {
	cur := &agent.ToolResultOverride{Content: res.Content, Details: res.Details}
	isErr := res.IsError
	changed := false
	for _, fn := range x.handlers["tool_result"] {
		ev := map[string]any{"toolName": call.Name, "toolCallId": call.ID, "input": call.Args,
			"content": cur.Content, "details": cur.Details, "isError": isErr}
		out, err := r.callHandler(ctx, extHandler{x, fn}, "tool_result", ev)
		if err != nil {
			return nil, err
		}
		if len(out) == 0 || string(out) == "null" {
			continue
		}
		var o struct {
			Content json.RawMessage `json:"content"`
			Details json.RawMessage `json:"details"`
			IsError *bool           `json:"isError"`
		}
		if err := json.Unmarshal(out, &o); err != nil {
			return nil, errors.New("tool_result: the handler's answer is not an object")
		}
		if len(o.Content) > 0 {
			var list ai.ContentList
			if err := json.Unmarshal(o.Content, &list); err != nil {
				return nil, errors.New("tool_result: content must be a list of blocks")
			}
			cur.Content = nil
			for _, c := range list {
				cur.Content = append(cur.Content, c)
			}
			changed = true
		}
		if len(o.Details) > 0 {
			cur.Details = o.Details
			changed = true
		}
		if o.IsError != nil {
			isErr = *o.IsError
			changed = true
		}
	}
	if !changed {
		return nil, nil
	}
	cur.IsError = &isErr
	return cur, nil
}

// beforeAgentStart runs before_agent_start handlers with the prompt; a
// {message: {customType, content, display}} answer adds that message.
func (r *Runtime) beforeAgentStart(ctx context.Context, x *ext, prompt []ai.Message) (ai.Message, error) {
	text := ""
	for _, m := range prompt {
		if u, ok := m.(*ai.UserMessage); ok {
			for _, c := range u.Content {
				if t, ok := c.(*ai.TextContent); ok {
					text += t.Text
				}
			}
		}
	}
	for _, fn := range x.handlers["before_agent_start"] {
		out, err := r.callHandler(ctx, extHandler{x, fn}, "before_agent_start", map[string]any{"prompt": text})
		if err != nil {
			return nil, err
		}
		var o struct {
			Message *struct {
				CustomType string          `json:"customType"`
				Content    any             `json:"content"`
				Display    *bool           `json:"display"`
				Details    json.RawMessage `json:"details"`
			} `json:"message"`
		}
		if len(out) > 0 && json.Unmarshal(out, &o) == nil && o.Message != nil {
			m := o.Message
			return &message.Custom{CustomType: m.CustomType, Content: message.PlainText(contentText(m.Content)),
				Display: m.Display == nil || *m.Display, Details: m.Details}, nil
		}
	}
	return nil, nil
}

// contextHook runs context handlers on a copy of the messages; a
// {messages} answer replaces them for this model call. Besides messages
// the event has (read lazily) entries, the current branch as hooks-v2
// sees it, and contextMessages, each message with the index of its entry
// (null for messages no entry holds); handlers may answer with either
// form of message.
func (r *Runtime) contextHook(ctx context.Context, x *ext, msgs []ai.Message) ([]ai.Message, error) {
	cur := msgs
	h := r.hostOrNil()
	var branch []*session.Entry
	getBranch := func() []*session.Entry {
		if branch == nil {
			branch = h.Branch()
		}
		return branch
	}
	for _, fn := range x.handlers["context"] {
		seen := cur
		decorate := func(rt *goja.Runtime, ev *goja.Object) {
			if h == nil {
				return
			}
			lazyJSON(rt, ev, "entries", func() ([]byte, error) { return entriesJSON(getBranch()) })
			lazyJSON(rt, ev, "contextMessages", func() ([]byte, error) {
				return contextMessagesJSON(seen, entryIndexes(seen, getBranch()))
			})
		}
		out, err := r.callHandlerWith(ctx, extHandler{x, fn}, "context", map[string]any{"messages": cur}, decorate)
		if err != nil {
			return nil, err
		}
		var o struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if len(out) == 0 || json.Unmarshal(out, &o) != nil || o.Messages == nil {
			continue
		}
		next := make([]ai.Message, 0, len(o.Messages))
		for _, raw := range o.Messages {
			m, err := decodeContextMessage(raw)
			if err != nil {
				return nil, err
			}
			next = append(next, m)
		}
		cur = next
	}
	if len(x.handlers["context"]) == 0 {
		return nil, nil
	}
	return cur, nil
}

// Observe forwards the session's events to the extensions that listen
// for them (agent_start, turn_end, message_update, tool_execution_end,
// auto_compaction_start, …). They are queued and delivered in order by
// one goroutine the Runtime owns, so an observer never holds up the loop;
// when extensions fall far behind, message_update events are dropped
// first.
func (r *Runtime) Observe(e agent.Event) {
	if r.closed.Load() || len(r.handlers(e.EventType())) == 0 {
		return
	}
	r.observeOnce.Do(func() {
		r.observed = make(chan agent.Event, 1024)
		r.observerDone = make(chan struct{})
		go func() {
			defer close(r.observerDone)
			for ev := range r.observed {
				payload, err := json.Marshal(ev)
				if err == nil {
					r.Emit(context.Background(), ev.EventType(), json.RawMessage(payload))
				}
			}
		}()
	})
	r.obsMu.Lock()
	defer r.obsMu.Unlock()
	if r.obsClosed {
		return
	}
	select {
	case r.observed <- e:
	default:
		if e.EventType() != agent.TypeMessageUpdate {
			r.observed <- e
		}
	}
}

// stopObserver ends the observer goroutine after the queued events.
func (r *Runtime) stopObserver() {
	r.obsMu.Lock()
	r.obsClosed = true
	ch := r.observed
	r.obsMu.Unlock()
	if ch != nil {
		close(ch)
		<-r.observerDone
	}
}
