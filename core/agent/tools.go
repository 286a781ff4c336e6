package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
)

// SkippedText is the result of a call skipped because a steering message
// interrupted the batch.
const SkippedText = "Skipped: the user sent a new message before this call ran."

// callRecord is one call of a batch.
type callRecord struct {
	call *ai.ToolCall
	tool tool.Tool     // nil when no tool has the name
	done chan struct{} // closed when the call's goroutine is finished with it

	mu     sync.Mutex
	result *tool.Result
	stale  bool // the loop gave up waiting (abort grace): the goroutine's result is dropped
}

// finish records the call's result and announces it, unless the loop
// gave up on the call; it reports whether the result was taken.
func (r *callRecord) finish(a *Agent, res *tool.Result) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stale {
		return false
	}
	r.result = res
	a.emit(ToolExecutionEnd{ToolCallID: r.call.ID, ToolName: r.call.Name, Result: res, IsError: res.IsError})
	return true
}

// take returns the call's result.
func (r *callRecord) take() *tool.Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.result
}

// runTools runs the calls of msg and returns their results in call order,
// plus the steering messages that interrupted the batch (nil when none
// did).
//
// Scheduling: a shared call waits for the last exclusive call before it; an
// exclusive call waits for every call before it. Each call runs in its own
// goroutine; this function waits for all of them.
func (a *Agent) runTools(ctx context.Context, hooks *hookChain, msg *ai.AssistantMessage) ([]*ai.ToolResultMessage, []ai.Message) {
	a.mu.Lock()
	tools := a.tools
	a.mu.Unlock()
	immediate := a.queued.interruptImmediate()
	byName := make(map[string]tool.Tool, len(tools))
	for _, t := range tools {
		byName[t.Definition().Name] = t
	}

	calls := msg.ToolCalls()
	records := make([]*callRecord, len(calls))
	for i, c := range calls {
		records[i] = &callRecord{call: c, tool: byName[c.Name], done: make(chan struct{})}
	}

	// The steering context stops the rest of the batch when a steering
	// message arrives (immediate mode).
	steerCtx, stopBatch := context.WithCancel(ctx)
	defer stopBatch()
	var steerMu sync.Mutex
	var steered []ai.Message
	interrupted := func() bool {
		steerMu.Lock()
		defer steerMu.Unlock()
		return steered != nil
	}
	checkSteering := func() {
		if !immediate {
			return
		}
		steerMu.Lock()
		defer steerMu.Unlock()
		if steered != nil {
			return
		}
		if q := a.queued.takeSteering(); len(q) > 0 {
			steered = q
			stopBatch()
		}
	}

	var wg sync.WaitGroup
	var lastExclusive chan struct{}
	var sinceExclusive []chan struct{}
	for _, r := range records {
		var deps []chan struct{}
		exclusive := r.tool != nil && r.tool.Definition().Concurrency == tool.Exclusive
		if exclusive {
			deps = append(deps, sinceExclusive...)
			if lastExclusive != nil {
				deps = append(deps, lastExclusive)
			}
			lastExclusive, sinceExclusive = r.done, nil
		} else {
			if lastExclusive != nil {
				deps = append(deps, lastExclusive)
			}
			sinceExclusive = append(sinceExclusive, r.done)
		}
		wg.Add(1)
		go func(r *callRecord, deps []chan struct{}) {
			defer wg.Done()
			defer close(r.done)
			for _, d := range deps {
				<-d
			}
			skipped := &tool.Result{Content: []tool.Content{tool.Text(SkippedText)}, IsError: true}
			if interrupted() {
				a.emit(ToolExecutionStart{ToolCallID: r.call.ID, ToolName: r.call.Name, Args: r.call.Arguments})
				r.finish(a, skipped)
				return
			}
			res := a.runCall(ctx, steerCtx, hooks, r)
			if interrupted() {
				// A steer arrived while this call ran (concurrently with
				// the call that noticed it): its result is dropped too.
				res = skipped
			}
			if r.finish(a, res) {
				checkSteering()
			}
		}(r, deps)
	}

	// Results enter the conversation in call order, each as soon as it and
	// every call before it are done.
	results := make([]*ai.ToolResultMessage, 0, len(records))
	abandoned := false
	var deadline time.Time // set when the run is aborted: calls still running then get the abort grace
	for _, r := range records {
		if !a.waitCall(ctx, r, &deadline) {
			abandoned = true
		}
		res := r.take()
		m := &ai.ToolResultMessage{
			ToolCallID: r.call.ID,
			ToolName:   r.call.Name,
			Content:    ai.ContentList(res.Content),
			Details:    res.Details,
			IsError:    res.IsError,
			Timestamp:  a.now().UnixMilli(),
		}
		if m.Content == nil {
			m.Content = ai.ContentList{}
		}
		a.mu.Lock()
		a.messages = append(a.messages, m)
		a.mu.Unlock()
		a.emit(MessageStart{Message: m})
		a.emit(MessageEnd{Message: m})
		results = append(results, m)
	}
	if !abandoned {
		wg.Wait()
	}
	if !interrupted() {
		return results, nil
	}
	steerMu.Lock()
	defer steerMu.Unlock()
	return results, steered
}

// IncompleteArgsText is the result of a call whose streamed arguments were
// cut off before they were complete JSON: running it would act on a
// guess (a write tool would save half a file).
const IncompleteArgsText = "The arguments of this call were cut off before they formed complete JSON (the response ended early, for example at its length limit), so the call was not run. Make the call again; split very long content over several calls."

// StuckToolText is the result of a call that did not stop within the abort
// grace after the run was aborted; the loop ends without it.
const StuckToolText = "The run was aborted and this tool did not stop; it was left running and its result is lost."

// waitCall waits for r to finish. After the run is aborted it waits only
// until *deadline (the abort grace after the abort was seen, shared by the
// whole batch): a tool that ignores cancellation (a read blocked in the
// kernel) must not keep the agent from ending. It reports false, with a
// StuckToolText result in r, when it gave up; the call's goroutine ends
// when the tool returns and its late result is dropped.
func (a *Agent) waitCall(ctx context.Context, r *callRecord, deadline *time.Time) bool {
	select {
	case <-r.done:
		return true
	case <-ctx.Done():
	}
	if deadline.IsZero() {
		grace := a.opts.AbortGrace
		if grace <= 0 {
			grace = 2 * time.Second
		}
		*deadline = time.Now().Add(grace)
	}
	t := time.NewTimer(time.Until(*deadline))
	defer t.Stop()
	select {
	case <-r.done:
		return true
	case <-t.C:
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.result != nil {
		return true // finished just now
	}
	r.stale = true
	r.result = &tool.Result{Content: []tool.Content{tool.Text(StuckToolText)}, IsError: true}
	a.emit(ToolExecutionEnd{ToolCallID: r.call.ID, ToolName: r.call.Name, Result: r.result, IsError: true})
	return false
}

// runCall validates, checks hooks, executes and post-processes one call.
// It emits tool_execution_start and updates; the caller emits the end.
func (a *Agent) runCall(runCtx, batchCtx context.Context, hooks *hookChain, r *callRecord) *tool.Result {
	args, intent := splitIntent(r.call.Arguments)
	if a.opts.RestoreArgs != nil {
		args = a.opts.RestoreArgs(args)
	}
	a.emit(ToolExecutionStart{ToolCallID: r.call.ID, ToolName: r.call.Name, Args: args, Intent: intent})
	if r.tool == nil {
		return errorResult(unknownToolText(r.call.Name, a.Tools()))
	}
	def := r.tool.Definition()
	if r.call.Incomplete {
		return errorResult(IncompleteArgsText)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return errorResult(fmt.Sprintf("The arguments of the %s call could not be encoded: %v", def.Name, err))
	}
	decoded, err := tool.DecodeArgs(def, raw)
	if err != nil {
		return tool.ErrorResult(err)
	}
	info := &ToolCallInfo{ID: r.call.ID, Name: r.call.Name, Args: decoded, Tool: r.tool}
	if blocked, reason := hooks.toolCall(runCtx, info); blocked {
		return errorResult(reason)
	}
	execCtx := batchCtx
	if def.NonAbortable {
		execCtx = context.WithoutCancel(batchCtx)
	}
	onUpdate := func(partial *tool.Result) {
		a.emit(ToolExecutionUpdate{ToolCallID: r.call.ID, ToolName: r.call.Name, Args: args, PartialResult: partial})
	}
	res, err := tool.Invoke(tool.WithCallID(execCtx, r.call.ID), r.tool, decoded, onUpdate)
	if stop := (*tool.AbortRunError)(nil); errors.As(err, &stop) {
		a.Abort() // the tool ended the run (the user dismissed its question)
	}
	res = hooks.toolResult(runCtx, info, res)
	return a.capResult(def.Name, res)
}

// IntentField is the argument omp adds to every tool schema for the model
// to say why it makes a call. gopi does not ask for it, but models used to
// omp's tools send it; it is taken out before validation and reported as
// the call's intent.
const IntentField = "_i"

// splitIntent returns args without IntentField (a copy, only when it is
// there) and the intent it held.
func splitIntent(args map[string]any) (map[string]any, string) {
	v, ok := args[IntentField]
	if !ok {
		return args, ""
	}
	out := make(map[string]any, len(args)-1)
	for k, x := range args {
		if k != IntentField {
			out[k] = x
		}
	}
	s, _ := v.(string)
	return out, strings.TrimSpace(s)
}

func errorResult(text string) *tool.Result {
	return &tool.Result{Content: []tool.Content{tool.Text(text)}, IsError: true}
}

func unknownToolText(name string, tools []tool.Tool) string {
	names := make([]string, 0, len(tools))
	for _, t := range tools {
		if h, ok := t.(hidden); ok && h.Hidden() {
			continue
		}
		names = append(names, t.Definition().Name)
	}
	sort.Strings(names)
	return fmt.Sprintf("There is no tool named %q. Available tools: %s.", name, strings.Join(names, ", "))
}

// capResult keeps a result's text within MaxResultBytes: a larger text is
// saved whole as an artifact and the model gets its tail with a notice.
func (a *Agent) capResult(toolName string, res *tool.Result) *tool.Result {
	limit := a.opts.MaxResultBytes
	if limit <= 0 {
		limit = DefaultMaxResultBytes
	}
	total := 0
	for _, c := range res.Content {
		if t, ok := c.(*tool.TextContent); ok {
			total += len(t.Text)
		}
	}
	if total <= limit {
		return res
	}
	var full strings.Builder
	full.Grow(total)
	for _, c := range res.Content {
		if t, ok := c.(*tool.TextContent); ok {
			full.WriteString(t.Text)
		}
	}
	text := full.String()
	tail := text[len(text)-min(len(text), tool.DefaultMaxBytes):]
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	notice := fmt.Sprintf("[Output truncated: %d bytes; showing the last %d.", len(text), len(tail))
	if id := a.saveArtifact(toolName, text); id != "" {
		notice += " " + tool.FullOutputNotice(id)
	}
	notice += "]\n"
	out := *res
	out.Content = []tool.Content{tool.Text(notice + tail)}
	for _, c := range res.Content {
		if _, ok := c.(*tool.TextContent); !ok {
			out.Content = append(out.Content, c)
		}
	}
	return &out
}

// saveArtifact stores text as an artifact and returns its id ("" when
// there is no store or saving failed).
func (a *Agent) saveArtifact(toolName, text string) string {
	a.mu.Lock()
	store := a.artifacts
	a.mu.Unlock()
	if store == nil {
		return ""
	}
	sink := tool.NewOutputSink(store, toolName)
	// Writing more than the sink keeps forces it to spill to an artifact.
	_, _ = sink.Write([]byte(text))
	sum, err := sink.Close()
	if err != nil {
		return ""
	}
	return sum.ArtifactID
}

// resultOf wraps a tool result message's content as a tool.Result.
func resultOf(m *ai.ToolResultMessage) *tool.Result {
	return &tool.Result{Content: []tool.Content(m.Content), Details: m.Details, IsError: m.IsError}
}
