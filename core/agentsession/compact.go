package agentsession

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/internal/ctxsleep"
)

// Errors of compaction that the user is told as they are (omp's texts).
var (
	// ErrCompacting: Compact was called while a manual compaction runs.
	ErrCompacting = errors.New("Compaction already in progress")
	// ErrCompactionCancelled: the compaction was aborted or a hook
	// cancelled it.
	ErrCompactionCancelled = errors.New("Compaction cancelled")
)

// overflowPersists is why overflow recovery gives up when the context is
// still too large after compacting once.
const overflowPersists = "the conversation is still too long for the model after compacting; shorten the last message or switch to a model with a larger context window"

// autoContinueText is what the agent sends itself after a threshold
// compaction (compaction.autoContinue): the answer before the compaction
// ended the run, and the model looks again at what is left to do.
const autoContinueText = `The conversation was just compacted: the summary above stands for the earlier messages. Check the most recent messages for what the user asked last and carry on with it if anything is left; when the user's latest request conflicts with the summary's plan, follow the request. If nothing is left to do, say so in one sentence.`

// AutoContinueType is the custom type of the message autoContinueText
// goes in.
const AutoContinueType = "auto-continue"

// Compactor is the part of a session that keeps the context in shape:
// manual and automatic compaction (threshold, overflow recovery, idle),
// pruning of old tool output, context promotion, and handoff to a new
// session. It owns the compactions in progress, the token counter and the
// run-time switch of automatic compaction, under its own lock; it reaches
// the turn, the store, the events and the hook points through
// compactorHost.
type Compactor struct {
	host  compactorHost
	turn  *Turn          // compactions and handoffs take the turn
	agent *agent.Agent   // the loop whose conversation is compacted
	model *ModelState    // credentials, context promotion's model change
	cfg   *config.Config // compaction.*, contextPromotion.* settings

	handoff opSlot // a handoff document being written

	mu           sync.Mutex
	manual, auto context.CancelFunc // cancel the manual / automatic compaction in progress
	tokens       *compaction.Counter
	counterModel string // the model id tokens counts for
	autoOverride *bool  // run-time override of compaction.enabled (SetAuto)
}

// compactorHost is what the compactor uses of the rest of the session:
// stopping the run (a manual compaction does first), the store and its
// replacement (handoff), the provider, the events and the compaction hook
// points.
type compactorHost interface {
	abortRun()
	Store() *session.Manager
	newStoreLike(cur *session.Manager, parent string) (*session.Manager, error)
	replaceStore(store *session.Manager, restore bool) error
	reloadFromStore() error
	LastAssistant() *ai.AssistantMessage
	emit(ev agent.Event)
	streamFunc() agent.StreamFunc
	summarizer(model *ai.Model) compaction.Summarizer
	beforeCompactHooks(ctx context.Context, ev *compaction.BeforeCompactEvent) (cancel bool, supplied *compaction.Result)
	compactingHooks(ctx context.Context, ev *compaction.CompactingEvent) *compaction.CompactingResult
	compactHooks(ctx context.Context, ev *compaction.CompactEvent)
}

// settings returns the compaction.* settings with the run-time
// override of SetAuto (turning it on also overrides a strategy
// of off, as omp's does).
func (c *Compactor) settings() compaction.Settings {
	set := c.cfg.Settings.Compaction()
	out := compaction.Settings{Enabled: set.Enabled, Strategy: set.Strategy, ThresholdPercent: set.ThresholdPercent,
		ThresholdTokens: set.ThresholdTokens, ReserveTokens: set.ReserveTokens, KeepRecentTokens: set.KeepRecentTokens}
	c.mu.Lock()
	override := c.autoOverride
	c.mu.Unlock()
	if override != nil {
		out.Enabled = *override
		if *override && out.Strategy == compaction.StrategyOff {
			out.Strategy = compaction.StrategyContextFull
		}
	}
	return out
}

// counter returns the token counter of the current model (recreated when
// the model changes; it remembers the counts of messages it has seen).
func (c *Compactor) counter() *compaction.Counter {
	id := ""
	if m := c.agent.Model(); m != nil {
		id = m.ID
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tokens == nil || c.counterModel != id {
		c.tokens, c.counterModel = compaction.NewCounter(id), id
	}
	return c.tokens
}

// abortAuto stops the automatic compaction in progress, if any.
func (c *Compactor) abortAuto() {
	c.mu.Lock()
	auto := c.auto
	c.mu.Unlock()
	if auto != nil {
		auto()
	}
}

// IsCompacting reports whether a compaction (manual or automatic) runs.
func (c *Compactor) IsCompacting() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.manual != nil || c.auto != nil
}

// Abort cancels the compaction in progress, manual or automatic;
// the session is left as it was.
func (c *Compactor) Abort() {
	c.mu.Lock()
	manual, auto := c.manual, c.auto
	c.mu.Unlock()
	if manual != nil {
		manual()
	}
	if auto != nil {
		auto()
	}
}

// Compact summarises the older part of the conversation now (/compact,
// RPC compact): the run in progress is aborted first, the summary is
// written by the current model (with customInstructions as its focus,
// when given), stored as a compaction entry, and the conversation the
// model sees becomes the summary followed by the kept messages. A session
// too small to compact fails with compaction.ErrTooSmall ("Nothing to
// compact (session too small)"), one just compacted with
// compaction.ErrAlreadyCompacted. When the summary cannot be written
// (the model fails, or answers without text: compaction.ErrEmptySummary;
// ctx ends; Abort; a hook cancels), nothing is stored and the
// session is unchanged.
func (c *Compactor) Compact(ctx context.Context, customInstructions string) (*compaction.Result, error) {
	if c.turn.isClosed() {
		return nil, errClosed
	}
	c.mu.Lock()
	if c.manual != nil {
		c.mu.Unlock()
		return nil, ErrCompacting
	}
	cctx, cancel := context.WithCancel(ctx)
	c.manual = cancel
	c.mu.Unlock()
	defer func() {
		cancel()
		c.mu.Lock()
		c.manual = nil
		c.mu.Unlock()
	}()

	// Stop whatever runs (a prompt, its maintenance) and take the turn.
	c.host.abortRun()
	if err := c.turn.acquire(cctx); err != nil {
		return nil, ErrCompactionCancelled
	}
	defer c.turn.release()
	if c.agent.Model() == nil {
		return nil, errors.New("No model selected")
	}
	if err := c.model.check(); err != nil {
		return nil, err
	}
	res, err := c.compactNow(cctx, customInstructions)
	if err != nil && cctx.Err() != nil {
		return nil, ErrCompactionCancelled
	}
	return res, err
}

// compactNow prepares, generates and stores a compaction of the current
// path. Nothing is stored unless everything succeeded.
func (c *Compactor) compactNow(ctx context.Context, customInstructions string) (*compaction.Result, error) {
	store := c.host.Store()
	path := store.Path("")
	prep, err := compaction.Prepare(path, c.settings(), c.counter())
	if err != nil {
		return nil, err
	}
	cancelled, supplied := c.host.beforeCompactHooks(ctx, &compaction.BeforeCompactEvent{Preparation: prep, BranchEntries: path, CustomInstructions: customInstructions})
	if cancelled {
		return nil, ErrCompactionCancelled
	}
	res, fromExt := supplied, supplied != nil
	if res == nil {
		opts := compaction.Options{CustomInstructions: customInstructions}
		if r := c.host.compactingHooks(ctx, &compaction.CompactingEvent{SessionID: store.SessionID(),
			Messages: append(append([]ai.Message(nil), prep.MessagesToSummarize...), prep.TurnPrefixMessages...)}); r != nil {
			opts.ExtraContext, opts.Prompt, opts.PreserveData = r.Context, r.Prompt, r.PreserveData
		}
		if res, err = c.generateWithRetry(ctx, prep, opts); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, ErrCompactionCancelled
	}
	if err := c.storeCompaction(ctx, res, fromExt); err != nil {
		return nil, err
	}
	return res, nil
}

// generateWithRetry writes the summaries with the current model, retrying
// transient provider failures as the retry.* settings say.
func (c *Compactor) generateWithRetry(ctx context.Context, prep *compaction.Preparation, opts compaction.Options) (*compaction.Result, error) {
	model := c.agent.Model()
	if model == nil {
		return nil, errors.New("No model selected")
	}
	retry := c.agent.Retry()
	policy := retry.Policy // MaxAttempts as set: 0 is no retry (agent.RetryOptions)
	for attempt := 0; ; attempt++ {
		res, err := compaction.Generate(ctx, prep, c.host.summarizer(model), opts)
		if err == nil || ctx.Err() != nil {
			return res, err
		}
		var se *summaryError
		if !retry.Enabled || attempt >= policy.MaxAttempts || !errors.As(err, &se) || !ai.IsRetryable(se.msg) {
			return nil, err
		}
		if err := ctxsleep.Sleep(ctx, policy.Delay(attempt+1, se.msg.ErrorMessage)); err != nil {
			return nil, err
		}
	}
}

// summaryError is a summary request the provider failed.
type summaryError struct{ msg *ai.AssistantMessage }

func (e *summaryError) Error() string {
	if e.msg.ErrorMessage == "" {
		return "the model returned an error without a message"
	}
	return e.msg.ErrorMessage
}

// summarizer sends summary requests to model: no tools, high reasoning
// when the model reasons.
func (s *Session) summarizer(model *ai.Model) compaction.Summarizer {
	return func(ctx context.Context, req compaction.SummaryRequest) (string, error) {
		thinking := ai.ThinkingOff
		if model.Reasoning {
			thinking = models.ClampThinking(model, ai.ThinkingHigh)
		}
		max := req.MaxTokens
		if model.MaxTokens > 0 && max > model.MaxTokens {
			max = model.MaxTokens
		}
		r := &ai.Request{
			Model:        model,
			SystemPrompt: req.SystemPrompt,
			Messages:     []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(req.Prompt)}, Attribution: "agent", Timestamp: nowMillis()}},
			MaxTokens:    max,
			Thinking:     thinking,
			SessionID:    s.Store().SessionID(),
		}
		s.prepareRequest(r)
		msg := s.streamFunc()(ctx, r).Result(ctx)
		switch {
		case ctx.Err() != nil:
			return "", ctx.Err()
		case msg == nil:
			return "", errors.New("the model sent no answer")
		case msg.StopReason == ai.StopReasonAborted:
			return "", context.Canceled
		case msg.StopReason == ai.StopReasonError:
			return "", &summaryError{msg}
		}
		return msg.Text(), nil
	}
}

// storeCompaction appends the compaction entry, makes the agent see the
// rebuilt context (summary, kept messages) and reports it to the hooks.
func (c *Compactor) storeCompaction(ctx context.Context, res *compaction.Result, fromExt bool) error {
	store := c.host.Store()
	entry := session.Compaction{Summary: res.Summary, ShortSummary: res.ShortSummary, FirstKeptEntryID: res.FirstKeptEntryID,
		TokensBefore: res.TokensBefore, FromExtension: fromExt}
	var err error
	if res.Details != nil {
		if entry.Details, err = marshalRaw(res.Details); err != nil {
			return fmt.Errorf("compaction details: %w", err)
		}
	}
	if res.PreserveData != nil {
		if entry.PreserveData, err = marshalRaw(res.PreserveData); err != nil {
			return fmt.Errorf("compaction preserveData: %w", err)
		}
	}
	if store.Entry(entry.FirstKeptEntryID) == nil {
		return fmt.Errorf("the compaction keeps entries from %q, which is not in this session", entry.FirstKeptEntryID)
	}
	id, err := store.Record(entry)
	if id == "" {
		return err
	}
	// The entry is in the session (a write failure is latched and
	// reported by Err): the agent continues from it either way.
	if serr := c.agent.SetMessages(store.BuildContext().Messages); serr != nil && err == nil {
		err = serr
	}
	c.host.compactHooks(ctx, &compaction.CompactEvent{Entry: store.Entry(id), FromExtension: fromExt})
	return err
}

// maintenance is what the session does after a run ended.
type maintenance int

const (
	maintainNothing         maintenance = iota
	maintainRetry                       // the failed turn is sent again (overflow recovered)
	maintainContinue                    // the agent is prompted to continue (after a threshold compaction)
	maintainContinueHandoff             // the agent is prompted to continue in the session a threshold handoff started
)

// maintain runs context maintenance after a run (omp's agent_end check)
// until there is nothing more to do: an overflow is recovered (a larger
// model, or a compaction) and the turn retried, a context over the
// threshold is compacted and the agent told to continue (once), messages
// queued meanwhile are delivered. gen is the abort generation the prompt
// started in: after Abort nothing more runs. When the conversation turns
// out to end with an answer and nothing is queued (a queue another caller
// emptied first), there is nothing to continue: the answer stands and the
// maintenance is done, as omp's scheduled continue gives up silently.
func (c *Compactor) maintain(ctx context.Context, gen int) error {
	recovered, continued := false, false
	for ctx.Err() == nil && !c.turn.abortedSince(gen) {
		var err error
		switch m := c.checkCompaction(ctx, c.host.LastAssistant(), true, &recovered, continued); m {
		case maintainRetry:
			err = c.agent.Continue(ctx)
		case maintainContinue, maintainContinueHandoff:
			continued = true
			text := autoContinueText
			if m == maintainContinueHandoff {
				text = handoffContinueText
			}
			err = c.agent.Prompt(ctx, &message.Custom{CustomType: AutoContinueType, Content: message.PlainText(text),
				Display: false, Attribution: "agent", Timestamp: nowMillis()})
		default:
			if st, fu := c.agent.Queued(); len(st)+len(fu) == 0 {
				return nil
			}
			err = c.agent.Continue(ctx)
		}
		if errors.Is(err, agent.ErrNothingToContinue) {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// prePromptCheck runs before a prompt is sent: a context left over the
// threshold (or an overflow left unrecovered) by the previous prompt is
// compacted first, so the new prompt starts small. Nothing is retried or
// continued: the prompt follows.
func (c *Compactor) prePromptCheck(ctx context.Context) {
	recovered := false
	c.checkCompaction(ctx, c.host.LastAssistant(), false, &recovered, true)
}

// checkCompaction decides and runs the maintenance for the last assistant
// message: overflow recovery first (context promotion, else compaction
// that will retry), then pruning and the threshold (promotion, else
// compaction). postRun is false for the check before a prompt (which also
// looks at aborted answers and never retries); recovered says an overflow
// was already recovered in this prompt; continued that the agent was
// already told to continue.
func (c *Compactor) checkCompaction(ctx context.Context, last *ai.AssistantMessage, postRun bool, recovered *bool, continued bool) maintenance {
	model := c.agent.Model()
	if last == nil || model == nil || (postRun && last.StopReason == ai.StopReasonAborted) {
		return maintainNothing
	}
	set := c.settings()
	window := model.ContextWindow
	sameModel := last.Provider == model.Provider && last.Model == model.ID
	if sameModel && !c.beforeLatestCompaction(last) && ai.IsContextOverflow(last, window) {
		// The failed answer stays in the session file; the retry must not
		// see it. An answer the provider gave in full although it reports
		// more input than the window (a silent overflow) is kept: it is
		// the turn's answer, and there is no failed turn to retry.
		c.dropTrailingError()
		retry := maintainRetry
		if last.StopReason != ai.StopReasonError {
			retry = maintainNothing
		}
		if *recovered {
			c.host.emit(AutoCompactionStart{Reason: ReasonOverflow, Action: ActionContextFull})
			c.host.emit(AutoCompactionEnd{Action: ActionContextFull, ErrorMessage: "Context overflow recovery failed: " + overflowPersists})
			return maintainNothing
		}
		if postRun && c.promote(last) {
			*recovered = true
			return retry
		}
		if set.Auto() && c.autoCompact(ctx, ReasonOverflow, postRun && retry == maintainRetry) != outcomeNone {
			*recovered = true
			if postRun {
				c.dropTrailingError()
				return retry
			}
		}
		return maintainNothing
	}
	// An answer from before the latest compaction measured the context
	// that compaction already shrank.
	if !set.Auto() || last.StopReason == ai.StopReasonError || c.beforeLatestCompaction(last) {
		return maintainNothing
	}
	saved := c.pruneToolOutputs()
	tokens := max(0, compaction.ContextTokens(last.Usage)-saved)
	if !compaction.ShouldCompact(tokens, window, set) {
		return maintainNothing
	}
	if c.promote(last) {
		return maintainNothing
	}
	switch c.autoCompact(ctx, ReasonThreshold, false) {
	case outcomeCompacted:
		if postRun && !continued && c.cfg.Settings.Compaction().AutoContinue {
			return maintainContinue
		}
	case outcomeHandedOff:
		if postRun && !continued && c.cfg.Settings.Compaction().AutoContinue {
			return maintainContinueHandoff
		}
	}
	return maintainNothing
}

// outcome is what automatic maintenance did.
type outcome int

const (
	outcomeNone      outcome = iota // nothing stored (skipped, cancelled, failed)
	outcomeCompacted                // a compaction entry was stored
	outcomeHandedOff                // the work went on in a new session (strategy handoff)
)

// autoCompact runs automatic maintenance with its events: a compaction,
// or with compaction.strategy handoff (except for an overflow, which is
// always compacted in place) a handoff to a new session, falling back to
// a compaction when the model wrote no document. It reports what was done.
func (c *Compactor) autoCompact(ctx context.Context, reason string, willRetry bool) outcome {
	set := c.settings()
	if set.Strategy == compaction.StrategyOff || (reason != ReasonIdle && !set.Enabled) {
		return outcomeNone
	}
	handoff := set.Strategy == compaction.StrategyHandoff && reason != ReasonOverflow
	action := ActionContextFull
	if handoff {
		action = ActionHandoff
	}
	c.host.emit(AutoCompactionStart{Reason: reason, Action: action})
	actx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	if c.auto != nil {
		c.auto()
	}
	c.auto = cancel
	c.mu.Unlock()
	defer func() {
		cancel()
		c.mu.Lock()
		c.auto = nil
		c.mu.Unlock()
	}()
	end := AutoCompactionEnd{Action: action}
	if c.agent.Model() == nil {
		end.Skipped = true
		c.host.emit(end)
		return outcomeNone
	}
	if handoff {
		_, err := c.handoffNow(actx, autoHandoffFocus, true)
		switch {
		case err == nil:
			c.host.emit(end)
			return outcomeHandedOff
		case actx.Err() != nil || errors.Is(err, ErrHandoffCancelled):
			end.Aborted = true
			c.host.emit(end)
			return outcomeNone
		case errors.Is(err, ErrNothingToHandOff):
			end.Skipped = true
			c.host.emit(end)
			return outcomeNone
		case !errors.Is(err, ErrHandoffEmpty):
			end.ErrorMessage = "Auto-compaction failed: " + err.Error()
			c.host.emit(end)
			return outcomeNone
		}
		// No document: summarise in place instead.
		end.Action = ActionContextFull
	}
	res, err := c.compactNow(actx, "")
	switch {
	case err == nil:
		end.Result, end.WillRetry = res, willRetry
		c.host.emit(end)
		return outcomeCompacted
	case actx.Err() != nil || errors.Is(err, ErrCompactionCancelled):
		end.Aborted = true
	case (errors.Is(err, compaction.ErrTooSmall) || errors.Is(err, compaction.ErrAlreadyCompacted)) && reason != ReasonOverflow:
		end.Skipped = true
	case reason == ReasonOverflow:
		end.ErrorMessage = "Context overflow recovery failed: " + err.Error()
	default:
		end.ErrorMessage = "Auto-compaction failed: " + err.Error()
	}
	c.host.emit(end)
	return outcomeNone
}

// RunIdle compacts an idle session (reason idle, no
// auto-continue): front ends call it once the user has been away for
// compaction.idleTimeoutSeconds with a context of at least
// compaction.idleThresholdTokens (see IdleDue). It does nothing
// while a prompt runs or another compaction does.
func (c *Compactor) RunIdle(ctx context.Context) {
	if c.turn.isClosed() || !c.turn.tryAcquire() {
		return
	}
	defer c.turn.release()
	if c.IsCompacting() {
		return
	}
	c.autoCompact(ctx, ReasonIdle, false)
}

// IdleDue says whether an idle session should be compacted and
// after how long: idle compaction is on, automatic compaction is not off,
// and the context is at least compaction.idleThresholdTokens. The wait is
// compaction.idleTimeoutSeconds, kept within 60 s … 1 h.
func (c *Compactor) IdleDue() (wait time.Duration, due bool) {
	set := c.cfg.Settings.Compaction()
	if !set.IdleEnabled || c.settings().Strategy == compaction.StrategyOff || set.IdleThresholdTokens <= 0 {
		return 0, false
	}
	if c.ContextTokens() < set.IdleThresholdTokens {
		return 0, false
	}
	return min(max(set.IdleTimeout, time.Minute), time.Hour), true
}

// ContextTokens estimates the size of the conversation the model sees
// next: the context the last complete answer reported (when it came after
// the latest compaction), plus the messages since, counted with the
// model's tokenizer.
func (c *Compactor) ContextTokens() int {
	msgs := c.agent.Messages()
	tokens := c.counter()
	n := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if u, ok := compaction.UsableUsage(msgs[i]); ok && !c.beforeLatestCompaction(msgs[i].(*ai.AssistantMessage)) {
			return n + compaction.ContextTokens(u)
		}
		n += tokens.Count(msgs[i])
	}
	return n
}

// promote switches to the model's context promotion target (a model with
// a larger window, named by contextPromotionTarget in models.yml) when
// contextPromotion.enabled is on and the target has credentials. The
// switch is recorded as a temporary model change: a resumed session goes
// back to its own model.
func (c *Compactor) promote(last *ai.AssistantMessage) bool {
	if !c.cfg.Settings.Bool("contextPromotion.enabled") {
		return false
	}
	cur := c.agent.Model()
	if cur == nil || cur.ContextPromotionTarget == "" || last.Provider != cur.Provider || last.Model != cur.ID || cur.ContextWindow <= 0 {
		return false
	}
	ref := strings.TrimSpace(cur.ContextPromotionTarget)
	var target *ai.Model
	for _, m := range c.model.reg.Models() {
		if m.Provider+"/"+m.ID == ref || (m.Provider == cur.Provider && m.ID == ref) {
			target = m
			break
		}
	}
	if target == nil || target == cur || target.ContextWindow <= cur.ContextWindow || !c.model.reg.HasAuth(target) {
		return false
	}
	c.agent.SetModel(target)
	c.agent.SetThinking(models.ClampThinking(target, c.agent.Thinking()))
	full := target.Provider + "/" + target.ID
	if _, err := c.host.Store().Record(session.ModelChange{Model: full, Role: "temporary"}); err == nil {
		c.model.setRecorded(&full, nil)
	}
	return true
}

// beforeLatestCompaction reports whether an answer predates the latest
// compaction on the path (an error kept in the kept part must not set off
// another compaction; a usage measured before it is stale). The session
// stores the very messages the agent holds, so the path is searched for
// the message itself; one not on the path counts as old when there is a
// compaction. Only the part after the latest compaction matters, and only
// that part is read (ContextPath): a long session's older messages stay
// undecoded.
func (c *Compactor) beforeLatestCompaction(m *ai.AssistantMessage) bool {
	path := c.host.Store().ContextPath("")
	for i := len(path) - 1; i >= 0; i-- {
		switch {
		case path[i].Message == ai.Message(m):
			return false
		case path[i].Type == session.TypeCompaction:
			return true
		}
	}
	return false
}

// dropTrailingError removes a failed last answer from what the model sees
// next (it stays in the session file).
func (c *Compactor) dropTrailingError() {
	msgs := c.agent.Messages()
	if n := len(msgs); n > 0 {
		if a, ok := msgs[n-1].(*ai.AssistantMessage); ok && a.StopReason == ai.StopReasonError {
			_ = c.agent.SetMessages(msgs[:n-1])
		}
	}
}

// marshalRaw encodes v for a session entry (a json.RawMessage as is).
func marshalRaw(v any) (json.RawMessage, error) {
	if r, ok := v.(json.RawMessage); ok {
		return r, nil
	}
	return json.Marshal(v)
}

// pruneToolOutputs replaces old tool output with notices (see
// compaction.PlanPrune), in the session file and in what the model sees,
// and returns the tokens saved. Only output the model still sees is
// pruned, so the part of the path the context is built from is enough.
func (c *Compactor) pruneToolOutputs() int {
	store := c.host.Store()
	path := store.ContextPath("")
	prunes, saved := compaction.PlanPrune(path, compaction.DefaultPruneConfig, c.counter(), nowMillis())
	if len(prunes) == 0 {
		return 0
	}
	old := make(map[string]ai.Message, len(prunes))
	for _, e := range path {
		old[e.ID] = e.Message
	}
	if err := store.PruneToolResults(prunes); err != nil {
		// Latched by the store when it is a write error; the model keeps
		// seeing the old output.
		return 0
	}
	repl := make(map[ai.Message]ai.Message, len(prunes))
	for _, p := range prunes {
		if e := store.Entry(p.EntryID); e != nil {
			repl[old[p.EntryID]] = e.Message
		}
	}
	msgs := c.agent.Messages()
	for i, m := range msgs {
		if r, ok := repl[m]; ok {
			msgs[i] = r
		}
	}
	_ = c.agent.SetMessages(msgs)
	return saved
}
