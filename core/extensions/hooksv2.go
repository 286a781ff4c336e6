package extensions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
)

// hooks-v2: extensions that keep their own entries in the session and
// shape the context from them. A handler's ctx reads the session state
// (model, thinkingLevel, entries, sessionManager) and changes it
// (saveEntry, rebuildContext); the context event carries the branch's
// entries and, for each message, the index of the entry it came from;
// pi.command registers a command whose handler gets one ctx with its
// arguments.

// entriesJSON encodes entries as a JSON list, each entry as its session
// file line. Compaction entries also get firstKeptEntryIndex, the index in
// this list of their first kept entry (-1 when it is not in the list), so
// that index-based handlers need not search.
func entriesJSON(entries []*session.Entry) ([]byte, error) {
	index := make(map[string]int, len(entries))
	for i, e := range entries {
		index[e.ID] = i
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, e := range entries {
		if i > 0 {
			b.WriteByte(',')
		}
		line := e.Raw()
		if line == nil || e.Fields != nil {
			var err error
			if line, err = json.Marshal(e); err != nil {
				return nil, err
			}
		}
		if e.Compaction != nil && len(line) > 1 {
			at, ok := index[e.Compaction.FirstKeptEntryID]
			if !ok {
				at = -1
			}
			b.Write(line[:len(line)-1])
			fmt.Fprintf(&b, `,"firstKeptEntryIndex":%d}`, at)
			continue
		}
		b.Write(line)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// lazyJSON defines a property on o whose value is the JSON that build
// returns, parsed on first read (large sessions cost nothing until a
// handler looks).
func lazyJSON(rt *goja.Runtime, o *goja.Object, name string, build func() ([]byte, error)) {
	var cached goja.Value
	getter := rt.ToValue(func(goja.FunctionCall) goja.Value {
		if cached == nil {
			b, err := build()
			if err != nil {
				panic(rt.NewGoError(fmt.Errorf("%s: %w", name, err)))
			}
			v, err := jsonParse(rt, b)
			if err != nil {
				panic(err)
			}
			cached = v
		}
		return cached
	})
	_ = o.DefineAccessorProperty(name, getter, nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// entryIndexes maps each message of a model call to the index, in the
// branch entries, of the entry it came from; -1 marks a message no entry
// holds (added for this call only).
func entryIndexes(msgs []ai.Message, branch []*session.Entry) []int {
	byMsg := make(map[ai.Message]int, len(branch))
	type customKey struct {
		customType string
		ts         int64
	}
	byCustom := map[customKey]int{}
	byBranchFrom := map[string]int{}
	compaction := -1
	for i, e := range branch {
		switch {
		case e.Message != nil:
			byMsg[e.Message] = i
		case e.CustomMessage != nil:
			byCustom[customKey{e.CustomMessage.CustomType, e.Millis()}] = i
		case e.BranchSummary != nil:
			byBranchFrom[e.BranchSummary.FromID] = i
		case e.Compaction != nil:
			compaction = i
		}
	}
	out := make([]int, len(msgs))
	for i, m := range msgs {
		out[i] = -1
		if at, ok := byMsg[m]; ok {
			out[i] = at
			continue
		}
		switch m := m.(type) {
		case *message.Custom:
			if at, ok := byCustom[customKey{m.CustomType, m.Timestamp}]; ok {
				out[i] = at
			}
		case *message.BranchSummary:
			if at, ok := byBranchFrom[m.FromID]; ok {
				out[i] = at
			}
		case *message.CompactionSummary:
			out[i] = compaction
		}
	}
	return out
}

// contextMessagesJSON is the context event's contextMessages:
// [{message, entryIndex}] with null for messages no entry holds.
func contextMessagesJSON(msgs []ai.Message, idx []int) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, m := range msgs {
		if i > 0 {
			b.WriteByte(',')
		}
		mj, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		b.WriteString(`{"message":`)
		b.Write(mj)
		if idx[i] < 0 {
			b.WriteString(`,"entryIndex":null}`)
		} else {
			fmt.Fprintf(&b, `,"entryIndex":%d}`, idx[i])
		}
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// decodeContextMessage reads one message a context handler returned:
// an agent message, or hooks-v2's {message, entryIndex}.
func decodeContextMessage(raw json.RawMessage) (ai.Message, error) {
	var wrapped struct {
		Role    *string         `json:"role"`
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(raw, &wrapped) == nil && wrapped.Role == nil && len(wrapped.Message) > 0 {
		raw = wrapped.Message
	}
	m, err := message.Decode(raw)
	if err != nil {
		return nil, errors.New("context: a returned message cannot be read: " + err.Error())
	}
	return m, nil
}

// hooksV2Context adds hooks-v2's members to the shared part of a
// handler's ctx (ctxObject adds model and entries per call).
func (r *Runtime) hooksV2Context(rt *goja.Runtime, ctx *goja.Object, h Host) {
	_ = ctx.DefineAccessorProperty("thinkingLevel", rt.ToValue(func(goja.FunctionCall) goja.Value {
		return rt.ToValue(h.ThinkingLevel())
	}), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = ctx.Set("findModel", func(provider, id string) goja.Value {
		m := h.FindModel(provider, id)
		if m == nil {
			return goja.Null()
		}
		b, _ := json.Marshal(m)
		v, _ := jsonParse(rt, b)
		return v
	})
	_ = ctx.Set("availableModels", func(goja.FunctionCall) goja.Value {
		return r.async(rt, func() (any, error) {
			var out []any
			for _, m := range h.AvailableModels() {
				var v any
				b, _ := json.Marshal(m)
				_ = json.Unmarshal(b, &v)
				out = append(out, v)
			}
			return out, nil
		})
	})
	_ = ctx.Set("resolveApiKey", func(c goja.FunctionCall) goja.Value {
		provider := ""
		if o, ok := c.Argument(0).(*goja.Object); ok {
			provider = optString(o.Get("provider"))
		} else {
			provider = optString(c.Argument(0))
		}
		return r.async(rt, func() (any, error) {
			if key := h.APIKey(provider); key != "" {
				return key, nil
			}
			return nil, nil
		})
	})
	_ = ctx.Set("saveEntry", func(c goja.FunctionCall) goja.Value {
		var typ string
		var fields json.RawMessage
		if o, ok := c.Argument(0).(*goja.Object); ok {
			typ = optString(o.Get("type"))
			b, err := json.Marshal(o.Export())
			if err != nil {
				panic(rt.NewTypeError("ctx.saveEntry: the entry cannot be encoded as JSON: " + err.Error()))
			}
			fields = b
		}
		if typ == "" {
			panic(rt.NewTypeError("ctx.saveEntry: the entry needs a type, e.g. { type: \"myext_state\", ... }"))
		}
		return r.async(rt, func() (any, error) { return nil, h.SaveEntry(typ, fields) })
	})
	_ = ctx.Set("rebuildContext", func(goja.FunctionCall) goja.Value {
		return r.async(rt, func() (any, error) { return nil, h.RebuildContext() })
	})
	sm := rt.NewObject()
	_ = sm.Set("getBranch", func(goja.FunctionCall) goja.Value {
		return mustParse(rt, func() ([]byte, error) { return entriesJSON(h.Branch()) })
	})
	_ = sm.Set("getEntries", func(goja.FunctionCall) goja.Value {
		return mustParse(rt, func() ([]byte, error) { return entriesJSON(h.AllEntries()) })
	})
	_ = sm.Set("getLeafId", func() goja.Value { return nullOr(rt, h.LeafID()) })
	_ = sm.Set("getSessionFile", func() goja.Value { return nullOr(rt, h.SessionFile()) })
	_ = sm.Set("getSessionId", func() string { return h.SessionID() })
	_ = sm.Set("getSessionName", func() goja.Value { return nullOr(rt, h.SessionName()) })
	_ = sm.Set("getCwd", func() string { return h.Cwd() })
	_ = ctx.Set("sessionManager", sm)
	_ = ctx.DefineAccessorProperty("sessionFile", rt.ToValue(func(goja.FunctionCall) goja.Value {
		return nullOr(rt, h.SessionFile())
	}), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// mustParse parses what build returns, throwing its error in JavaScript.
func mustParse(rt *goja.Runtime, build func() ([]byte, error)) goja.Value {
	b, err := build()
	if err != nil {
		panic(rt.NewGoError(err))
	}
	v, err := jsonParse(rt, b)
	if err != nil {
		panic(err)
	}
	return v
}

// nullOr is s, or null when empty.
func nullOr(rt *goja.Runtime, s string) goja.Value {
	if s == "" {
		return goja.Null()
	}
	return rt.ToValue(s)
}

// commandContext is the ctx a pi.command handler gets: the handler ctx
// plus args (split at white space), argsRaw, signal, setModel and
// setThinkingLevel.
func (r *Runtime) commandContext(rt *goja.Runtime, x *ext, args string) *goja.Object {
	ctx := r.ctxObject(rt, x)
	_ = ctx.Set("argsRaw", args)
	_ = ctx.Set("args", strings.Fields(args))
	signal := rt.NewObject()
	_ = signal.Set("aborted", false)
	_ = ctx.Set("signal", signal)
	if h := r.hostOrNil(); h != nil {
		_ = ctx.Set("setModel", func(c goja.FunctionCall) goja.Value {
			var m struct {
				Provider string `json:"provider"`
				ID       string `json:"id"`
			}
			_ = exportTo(c.Argument(0), &m)
			return r.async(rt, func() (any, error) { return nil, h.SetModel(m.Provider, m.ID) })
		})
		_ = ctx.Set("setThinkingLevel", func(level string) goja.Value {
			return r.async(rt, func() (any, error) { return nil, h.SetThinkingLevel(level) })
		})
	}
	return ctx
}

// commandStatus reads a pi.command handler's {status} answer.
func commandStatus(out json.RawMessage) string {
	var o struct {
		Status string `json:"status"`
	}
	if len(out) > 0 && json.Unmarshal(out, &o) == nil {
		return o.Status
	}
	return ""
}

// runV2 runs a pi.command handler; its {status} is shown as a notice.
func (c *Command) runV2(ctx context.Context, args string) error {
	val, err := c.rt.vm.call(ctx, c.rt.opts.Budget, c.fn,
		func(rt *goja.Runtime) goja.Value { return c.rt.commandContext(rt, c.x, args) })
	if err != nil {
		return err
	}
	out, err := c.rt.exportJSON(val)
	if err != nil {
		return err
	}
	if status := commandStatus(out); status != "" {
		if h := c.rt.hostOrNil(); h != nil && h.UI() != nil {
			h.UI().Notify(status, "info")
		}
	}
	return nil
}
