package extensions

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/compaction"
)

// The session lifecycle and provider request handlers of one extension,
// mapped onto the Go hook points of agent.Hooks. Event payloads follow
// omp's shapes (camelCase, null for "no entry"); answers are read as omp
// reads them: a cancel stops at once, other fields are taken from the
// latest handler that gave them.

// sessionHooks fills h with the session and provider hook points x
// listens to.
func (r *Runtime) sessionHooks(h *agent.Hooks, x *ext) {
	has := func(event string) bool { return len(x.handlers[event]) > 0 }
	if has("session_before_compact") {
		h.SessionBeforeCompact = func(ctx context.Context, ev *compaction.BeforeCompactEvent) (*compaction.BeforeCompactResult, error) {
			return r.beforeCompact(ctx, x, ev)
		}
	}
	if has("session.compacting") {
		h.SessionCompacting = func(ctx context.Context, ev *compaction.CompactingEvent) (*compaction.CompactingResult, error) {
			return r.compacting(ctx, x, ev)
		}
	}
	if has("session_compact") {
		h.SessionCompact = func(ctx context.Context, ev *compaction.CompactEvent) {
			r.notify(ctx, x, "session_compact", map[string]any{"compactionEntry": ev.Entry, "fromExtension": ev.FromExtension})
		}
	}
	if has("session_before_tree") {
		h.SessionBeforeTree = func(ctx context.Context, ev *compaction.BeforeTreeEvent) (*compaction.BeforeTreeResult, error) {
			return r.beforeTree(ctx, x, ev)
		}
	}
	if has("session_tree") {
		h.SessionTree = func(ctx context.Context, ev *compaction.TreeEvent) {
			payload := map[string]any{"newLeafId": nullable(ev.NewLeafID), "oldLeafId": nullable(ev.OldLeafID)}
			if ev.SummaryEntry != nil {
				payload["summaryEntry"] = ev.SummaryEntry
				payload["fromExtension"] = ev.FromExtension
			}
			r.notify(ctx, x, "session_tree", payload)
		}
	}
	if has("session_before_branch") {
		h.SessionBeforeBranch = func(ctx context.Context, ev *agent.BeforeBranchEvent) (*agent.BeforeBranchResult, error) {
			var res agent.BeforeBranchResult
			err := r.decide(ctx, x, "session_before_branch", map[string]any{"entryId": ev.EntryID}, func(out json.RawMessage) (bool, error) {
				var o struct {
					Cancel                  bool `json:"cancel"`
					SkipConversationRestore bool `json:"skipConversationRestore"`
				}
				if err := json.Unmarshal(out, &o); err != nil {
					return false, err
				}
				res.Cancel = o.Cancel
				res.SkipConversationRestore = res.SkipConversationRestore || o.SkipConversationRestore
				return o.Cancel, nil
			})
			return &res, err
		}
	}
	if has("session_branch") {
		h.SessionBranch = func(ctx context.Context, ev *agent.BranchEvent) {
			r.notify(ctx, x, "session_branch", map[string]any{"previousSessionFile": nullable(ev.PreviousSessionFile)})
		}
	}
	if has("session_before_switch") {
		h.SessionBeforeSwitch = func(ctx context.Context, ev *agent.BeforeSwitchEvent) (*agent.BeforeSwitchResult, error) {
			payload := map[string]any{"reason": ev.Reason}
			if ev.TargetSessionFile != "" {
				payload["targetSessionFile"] = ev.TargetSessionFile
			}
			var res agent.BeforeSwitchResult
			err := r.decide(ctx, x, "session_before_switch", payload, func(out json.RawMessage) (bool, error) {
				var o struct {
					Cancel bool `json:"cancel"`
				}
				err := json.Unmarshal(out, &o)
				res.Cancel = o.Cancel
				return o.Cancel, err
			})
			return &res, err
		}
	}
	if has("session_switch") {
		h.SessionSwitch = func(ctx context.Context, ev *agent.SwitchEvent) {
			r.notify(ctx, x, "session_switch", map[string]any{"reason": ev.Reason, "previousSessionFile": nullable(ev.PreviousSessionFile)})
		}
	}
	if has("__onSession") {
		// A custom tool module: its tools' onSession hears these.
		h.SessionSwitch = func(context.Context, *agent.SwitchEvent) { r.onSessionOf(x, "switch") }
		h.SessionBranch = func(context.Context, *agent.BranchEvent) { r.onSessionOf(x, "branch") }
		h.SessionTree = func(context.Context, *compaction.TreeEvent) { r.onSessionOf(x, "tree") }
	}
	if has("input") {
		h.Input = func(ctx context.Context, ev *agent.InputEvent) {
			r.notify(ctx, x, "input", map[string]any{"text": ev.Text, "images": ev.Images, "source": "user"})
		}
	}
	if has("user_bash") {
		h.UserBash = func(ctx context.Context, ev *agent.UserBashEvent) (*agent.UserBashResult, error) {
			var res *agent.UserBashResult
			payload := map[string]any{"command": ev.Command, "excludeFromContext": ev.ExcludeFromContext, "cwd": ev.Cwd}
			err := r.decide(ctx, x, "user_bash", payload, func(out json.RawMessage) (bool, error) {
				var o struct {
					Result *struct {
						Output    string `json:"output"`
						ExitCode  *int   `json:"exitCode"`
						Cancelled bool   `json:"cancelled"`
						Truncated bool   `json:"truncated"`
					} `json:"result"`
				}
				if err := json.Unmarshal(out, &o); err != nil {
					return false, err
				}
				if o.Result == nil {
					return false, nil
				}
				res = &agent.UserBashResult{Output: o.Result.Output, ExitCode: o.Result.ExitCode, Cancelled: o.Result.Cancelled, Truncated: o.Result.Truncated}
				return true, nil
			})
			return res, err
		}
	}
	if has("before_provider_request") || has("provider_request_prepared") {
		h.BeforeProviderRequest = func(ctx context.Context, req *ai.ProviderRequest) error {
			return r.beforeProviderRequest(ctx, x, req)
		}
	}
	if has("after_provider_response") || has("provider_request_delivered") {
		h.AfterProviderResponse = func(ctx context.Context, resp *ai.ProviderResponse) {
			r.afterProviderResponse(ctx, x, resp)
		}
	}
}

// notify runs x's handlers of an event whose answers mean nothing;
// failures are reported and the session goes on.
func (r *Runtime) notify(ctx context.Context, x *ext, event string, payload any) {
	for _, fn := range x.handlers[event] {
		if _, err := r.callHandler(ctx, extHandler{x, fn}, event, payload); err != nil {
			r.report(LoadError{Path: x.entry.Path, Event: event, Err: err.Error()})
		}
	}
}

// decide runs x's handlers of a cancellable event in order, giving each
// non-empty answer to read; read says whether the answer stops the chain.
// A handler that throws fails the hook (the session reports it and goes
// on as if it had not answered).
func (r *Runtime) decide(ctx context.Context, x *ext, event string, payload any, read func(json.RawMessage) (stop bool, err error)) error {
	for _, fn := range x.handlers[event] {
		out, err := r.callHandler(ctx, extHandler{x, fn}, event, payload)
		if err != nil {
			return err
		}
		if len(out) == 0 || string(out) == "null" {
			continue
		}
		stop, err := read(out)
		if err != nil {
			return fmt.Errorf("%s: the handler's answer is not a valid object: %w", event, err)
		}
		if stop {
			return nil
		}
	}
	return nil
}

// beforeCompact offers session_before_compact; {cancel} stops the
// compaction, {compaction} supplies it.
func (r *Runtime) beforeCompact(ctx context.Context, x *ext, ev *compaction.BeforeCompactEvent) (*compaction.BeforeCompactResult, error) {
	payload := map[string]any{"preparation": preparationJSON(ev.Preparation), "branchEntries": ev.BranchEntries}
	if ev.CustomInstructions != "" {
		payload["customInstructions"] = ev.CustomInstructions
	}
	var res compaction.BeforeCompactResult
	err := r.decide(ctx, x, "session_before_compact", payload, func(out json.RawMessage) (bool, error) {
		var o struct {
			Cancel     bool               `json:"cancel"`
			Compaction *compaction.Result `json:"compaction"`
		}
		if err := json.Unmarshal(out, &o); err != nil {
			return false, err
		}
		if o.Cancel {
			res.Cancel = true
			return true, nil
		}
		if o.Compaction != nil {
			res.Compaction = o.Compaction
		}
		return false, nil
	})
	return &res, err
}

// compacting offers session.compacting: {context, prompt, preserveData}
// shape the default summary.
func (r *Runtime) compacting(ctx context.Context, x *ext, ev *compaction.CompactingEvent) (*compaction.CompactingResult, error) {
	var res *compaction.CompactingResult
	err := r.decide(ctx, x, "session.compacting", map[string]any{"sessionId": ev.SessionID, "messages": ev.Messages}, func(out json.RawMessage) (bool, error) {
		var o struct {
			Context      []string       `json:"context"`
			Prompt       string         `json:"prompt"`
			PreserveData map[string]any `json:"preserveData"`
		}
		if err := json.Unmarshal(out, &o); err != nil {
			return false, err
		}
		res = &compaction.CompactingResult{Context: o.Context, Prompt: o.Prompt, PreserveData: o.PreserveData}
		return false, nil
	})
	return res, err
}

// beforeTree offers session_before_tree; {cancel} stops the move,
// {summary: {summary, details}} supplies the branch summary.
func (r *Runtime) beforeTree(ctx context.Context, x *ext, ev *compaction.BeforeTreeEvent) (*compaction.BeforeTreeResult, error) {
	p := ev.Preparation
	payload := map[string]any{"preparation": map[string]any{
		"targetId": p.TargetID, "oldLeafId": nullable(p.OldLeafID), "commonAncestorId": nullable(p.CommonAncestorID),
		"entriesToSummarize": orEmpty(p.EntriesToSummarize), "userWantsSummary": p.UserWantsSummary,
	}}
	var res compaction.BeforeTreeResult
	err := r.decide(ctx, x, "session_before_tree", payload, func(out json.RawMessage) (bool, error) {
		var o struct {
			Cancel  bool `json:"cancel"`
			Summary *struct {
				Summary string `json:"summary"`
				Details any    `json:"details"`
			} `json:"summary"`
		}
		if err := json.Unmarshal(out, &o); err != nil {
			return false, err
		}
		if o.Cancel {
			res.Cancel = true
			return true, nil
		}
		if o.Summary != nil {
			res.Summary = &compaction.TreeSummary{Summary: o.Summary.Summary, Details: o.Summary.Details}
		}
		return false, nil
	})
	return &res, err
}

// beforeProviderRequest runs before_provider_request handlers (an answer
// other than undefined replaces the payload the next one sees and the
// provider gets), then reports the final payload as
// provider_request_prepared. A handler that throws, runs out of time or
// answers something that is not an object is reported and skipped, as
// omp does: the request goes out as the other handlers left it.
func (r *Runtime) beforeProviderRequest(ctx context.Context, x *ext, req *ai.ProviderRequest) error {
	const event = "before_provider_request"
	for _, fn := range x.handlers[event] {
		out, err := r.callHandler(ctx, extHandler{x, fn}, event,
			map[string]any{"requestId": req.RequestID, "model": modelRef(req.Model), "payload": req.Payload})
		if err != nil {
			r.report(LoadError{Path: x.entry.Path, Event: event, Err: err.Error() + " (the request was sent without this handler's change)"})
			continue
		}
		if len(out) == 0 || string(out) == "null" {
			continue
		}
		if !json.Valid(out) || out[0] != '{' {
			r.report(LoadError{Path: x.entry.Path, Event: event, Err: fmt.Sprintf("the replacement payload must be an object, got %.40s (the request was sent without this handler's change)", out)})
			continue
		}
		req.Payload = out
	}
	if len(x.handlers["provider_request_prepared"]) > 0 {
		payload := map[string]any{"requestId": req.RequestID, "model": modelRef(req.Model), "payload": req.Payload}
		if h := r.hostOrNil(); h != nil {
			payload["sessionId"] = h.SessionID()
		}
		r.notify(ctx, x, "provider_request_prepared", payload)
	}
	return nil
}

// afterProviderResponse runs after_provider_response, then
// provider_request_delivered, with the status and headers.
func (r *Runtime) afterProviderResponse(ctx context.Context, x *ext, resp *ai.ProviderResponse) {
	headers := make(map[string]string, len(resp.Headers))
	for _, k := range slices.Sorted(maps.Keys(resp.Headers)) {
		headers[k] = resp.Headers.Get(k)
	}
	payload := map[string]any{"requestId": resp.RequestID, "model": modelRef(resp.Model), "status": resp.Status, "headers": headers}
	r.notify(ctx, x, "after_provider_response", payload)
	if len(x.handlers["provider_request_delivered"]) > 0 {
		if h := r.hostOrNil(); h != nil {
			payload["sessionId"] = h.SessionID()
		}
		r.notify(ctx, x, "provider_request_delivered", payload)
	}
}

// preparationJSON is omp's CompactionPreparation.
func preparationJSON(p *compaction.Preparation) map[string]any {
	if p == nil {
		return nil
	}
	out := map[string]any{
		"firstKeptEntryId":    p.FirstKeptEntryID,
		"messagesToSummarize": orEmpty(p.MessagesToSummarize),
		"turnPrefixMessages":  orEmpty(p.TurnPrefixMessages),
		"isSplitTurn":         p.SplitTurn,
		"tokensBefore":        p.TokensBefore,
	}
	if p.PreviousSummary != "" {
		out["previousSummary"] = p.PreviousSummary
	}
	if p.FileOps != nil {
		out["fileOps"] = map[string]any{"read": sortedKeys(p.FileOps.Read), "written": sortedKeys(p.FileOps.Written), "edited": sortedKeys(p.FileOps.Edited)}
	}
	return out
}

// modelRef is the {provider, id} of a model (nil when unknown).
func modelRef(m *ai.Model) any {
	if m == nil {
		return nil
	}
	return map[string]string{"provider": m.Provider, "id": m.ID}
}

// nullable is s, or JSON null when empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// orEmpty keeps a nil list from becoming JSON null.
func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

func sortedKeys(m map[string]bool) []string {
	return orEmpty(slices.Sorted(maps.Keys(m)))
}
