package agentsession

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/compaction"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
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

// compactState is the session's compaction state (guarded by Session.mu).
type compactState struct {
	manual, auto context.CancelFunc // cancel the manual / automatic compaction in progress
	counter      *compaction.Counter
	counterModel string // the model id counter counts for
}

// compactionSettings returns the compaction.* settings with the run-time
// override of SetAutoCompaction (turning it on also overrides a strategy
// of off, as omp's does).
func (s *Session) compactionSettings() compaction.Settings {
	c := s.cfg.Settings.Compaction()
	out := compaction.Settings{Enabled: c.Enabled, Strategy: c.Strategy, ThresholdPercent: c.ThresholdPercent,
		ThresholdTokens: c.ThresholdTokens, ReserveTokens: c.ReserveTokens, KeepRecentTokens: c.KeepRecentTokens}
	s.mu.Lock()
	override := s.autoCompaction
	s.mu.Unlock()
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
func (s *Session) counter() *compaction.Counter {
	id := ""
	if m := s.agent.Model(); m != nil {
		id = m.ID
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.compact.counter == nil || s.compact.counterModel != id {
		s.compact.counter, s.compact.counterModel = compaction.NewCounter(id), id
	}
	return s.compact.counter
}

// IsCompacting reports whether a compaction (manual or automatic) runs.
func (s *Session) IsCompacting() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.compact.manual != nil || s.compact.auto != nil
}

// AbortCompaction cancels the compaction in progress, manual or automatic;
// the session is left as it was.
func (s *Session) AbortCompaction() {
	s.mu.Lock()
	manual, auto := s.compact.manual, s.compact.auto
	s.mu.Unlock()
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
// ctx ends; AbortCompaction; a hook cancels), nothing is stored and the
// session is unchanged.
func (s *Session) Compact(ctx context.Context, customInstructions string) (*compaction.Result, error) {
	if s.isClosed() {
		return nil, errClosed
	}
	s.mu.Lock()
	if s.compact.manual != nil {
		s.mu.Unlock()
		return nil, ErrCompacting
	}
	cctx, cancel := context.WithCancel(ctx)
	s.compact.manual = cancel
	s.mu.Unlock()
	defer func() {
		cancel()
		s.mu.Lock()
		s.compact.manual = nil
		s.mu.Unlock()
	}()

	// Stop whatever runs (a prompt, its maintenance) and take the turn.
	s.abortRun()
	if err := s.acquire(cctx); err != nil {
		return nil, ErrCompactionCancelled
	}
	defer s.release()
	if s.agent.Model() == nil {
		return nil, errors.New("No model selected")
	}
	if err := s.checkModel(); err != nil {
		return nil, err
	}
	res, err := s.compactNow(cctx, customInstructions)
	if err != nil && cctx.Err() != nil {
		return nil, ErrCompactionCancelled
	}
	return res, err
}

// compactNow prepares, generates and stores a compaction of the current
// path. Nothing is stored unless everything succeeded.
func (s *Session) compactNow(ctx context.Context, customInstructions string) (*compaction.Result, error) {
	store := s.Store()
	path := store.Path("")
	prep, err := compaction.Prepare(path, s.compactionSettings(), s.counter())
	if err != nil {
		return nil, err
	}
	cancelled, supplied := s.beforeCompactHooks(ctx, &compaction.BeforeCompactEvent{Preparation: prep, BranchEntries: path, CustomInstructions: customInstructions})
	if cancelled {
		return nil, ErrCompactionCancelled
	}
	res, fromExt := supplied, supplied != nil
	if res == nil {
		opts := compaction.Options{CustomInstructions: customInstructions}
		if r := s.compactingHooks(ctx, &compaction.CompactingEvent{SessionID: store.SessionID(),
			Messages: append(append([]ai.Message(nil), prep.MessagesToSummarize...), prep.TurnPrefixMessages...)}); r != nil {
			opts.ExtraContext, opts.Prompt, opts.PreserveData = r.Context, r.Prompt, r.PreserveData
		}
		if res, err = s.generateWithRetry(ctx, prep, opts); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, ErrCompactionCancelled
	}
	if err := s.storeCompaction(ctx, res, fromExt); err != nil {
		return nil, err
	}
	return res, nil
}

// generateWithRetry writes the summaries with the current model, retrying
// transient provider failures as the retry.* settings say.
func (s *Session) generateWithRetry(ctx context.Context, prep *compaction.Preparation, opts compaction.Options) (*compaction.Result, error) {
	model := s.agent.Model()
	if model == nil {
		return nil, errors.New("No model selected")
	}
	retry := s.agent.Retry()
	policy := retry.Policy // MaxAttempts as set: 0 is no retry (agent.RetryOptions)
	for attempt := 0; ; attempt++ {
		res, err := compaction.Generate(ctx, prep, s.summarizer(model), opts)
		if err == nil || ctx.Err() != nil {
			return res, err
		}
		var se *summaryError
		if !retry.Enabled || attempt >= policy.MaxAttempts || !errors.As(err, &se) || !ai.IsRetryable(se.msg) {
			return nil, err
		}
		t := time.NewTimer(policy.Delay(attempt+1, se.msg.ErrorMessage))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
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
			SessionID:    s.SessionID(),
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
func (s *Session) storeCompaction(ctx context.Context, res *compaction.Result, fromExt bool) error {
	store := s.Store()
	c := session.Compaction{Summary: res.Summary, ShortSummary: res.ShortSummary, FirstKeptEntryID: res.FirstKeptEntryID,
		TokensBefore: res.TokensBefore, FromExtension: fromExt}
	var err error
	if res.Details != nil {
		if c.Details, err = marshalRaw(res.Details); err != nil {
			return fmt.Errorf("compaction details: %w", err)
		}
	}
	if res.PreserveData != nil {
		if c.PreserveData, err = marshalRaw(res.PreserveData); err != nil {
			return fmt.Errorf("compaction preserveData: %w", err)
		}
	}
	if store.Entry(c.FirstKeptEntryID) == nil {
		return fmt.Errorf("the compaction keeps entries from %q, which is not in this session", c.FirstKeptEntryID)
	}
	id, err := store.AppendCompaction(c)
	if id == "" {
		return err
	}
	// The entry is in the session (a write failure is latched and
	// reported by Err): the agent continues from it either way.
	if serr := s.agent.SetMessages(store.BuildContext().Messages); serr != nil && err == nil {
		err = serr
	}
	s.compactHooks(ctx, &compaction.CompactEvent{Entry: store.Entry(id), FromExtension: fromExt})
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
func (s *Session) maintain(ctx context.Context, gen int) error {
	recovered, continued := false, false
	for ctx.Err() == nil && !s.abortedSince(gen) {
		var err error
		switch m := s.checkCompaction(ctx, s.LastAssistant(), true, &recovered, continued); m {
		case maintainRetry:
			err = s.agent.Continue(ctx)
		case maintainContinue, maintainContinueHandoff:
			continued = true
			text := autoContinueText
			if m == maintainContinueHandoff {
				text = handoffContinueText
			}
			err = s.agent.Prompt(ctx, &message.Custom{CustomType: AutoContinueType, Content: message.PlainText(text),
				Display: false, Attribution: "agent", Timestamp: nowMillis()})
		default:
			if st, fu := s.agent.QueuedCount(); st+fu == 0 {
				return nil
			}
			err = s.agent.Continue(ctx)
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
func (s *Session) prePromptCheck(ctx context.Context) {
	recovered := false
	s.checkCompaction(ctx, s.LastAssistant(), false, &recovered, true)
}

// checkCompaction decides and runs the maintenance for the last assistant
// message: overflow recovery first (context promotion, else compaction
// that will retry), then pruning and the threshold (promotion, else
// compaction). postRun is false for the check before a prompt (which also
// looks at aborted answers and never retries); recovered says an overflow
// was already recovered in this prompt; continued that the agent was
// already told to continue.
func (s *Session) checkCompaction(ctx context.Context, last *ai.AssistantMessage, postRun bool, recovered *bool, continued bool) maintenance {
	model := s.agent.Model()
	if last == nil || model == nil || (postRun && last.StopReason == ai.StopReasonAborted) {
		return maintainNothing
	}
	set := s.compactionSettings()
	window := model.ContextWindow
	sameModel := last.Provider == model.Provider && last.Model == model.ID
	if sameModel && !s.beforeLatestCompaction(last) && ai.IsContextOverflow(last, window) {
		// The failed answer stays in the session file; the retry must not
		// see it. An answer the provider gave in full although it reports
		// more input than the window (a silent overflow) is kept: it is
		// the turn's answer, and there is no failed turn to retry.
		s.dropTrailingError()
		retry := maintainRetry
		if last.StopReason != ai.StopReasonError {
			retry = maintainNothing
		}
		if *recovered {
			s.emit(AutoCompactionStart{Reason: ReasonOverflow, Action: ActionContextFull})
			s.emit(AutoCompactionEnd{Action: ActionContextFull, ErrorMessage: "Context overflow recovery failed: " + overflowPersists})
			return maintainNothing
		}
		if postRun && s.promote(last) {
			*recovered = true
			return retry
		}
		if set.Auto() && s.autoCompact(ctx, ReasonOverflow, postRun && retry == maintainRetry) != outcomeNone {
			*recovered = true
			if postRun {
				s.dropTrailingError()
				return retry
			}
		}
		return maintainNothing
	}
	// An answer from before the latest compaction measured the context
	// that compaction already shrank.
	if !set.Auto() || last.StopReason == ai.StopReasonError || s.beforeLatestCompaction(last) {
		return maintainNothing
	}
	saved := s.pruneToolOutputs()
	tokens := max(0, compaction.ContextTokens(last.Usage)-saved)
	if !compaction.ShouldCompact(tokens, window, set) {
		return maintainNothing
	}
	if s.promote(last) {
		return maintainNothing
	}
	switch s.autoCompact(ctx, ReasonThreshold, false) {
	case outcomeCompacted:
		if postRun && !continued && s.cfg.Settings.Compaction().AutoContinue {
			return maintainContinue
		}
	case outcomeHandedOff:
		if postRun && !continued && s.cfg.Settings.Compaction().AutoContinue {
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
func (s *Session) autoCompact(ctx context.Context, reason string, willRetry bool) outcome {
	set := s.compactionSettings()
	if set.Strategy == compaction.StrategyOff || (reason != ReasonIdle && !set.Enabled) {
		return outcomeNone
	}
	handoff := set.Strategy == compaction.StrategyHandoff && reason != ReasonOverflow
	action := ActionContextFull
	if handoff {
		action = ActionHandoff
	}
	s.emit(AutoCompactionStart{Reason: reason, Action: action})
	actx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	if s.compact.auto != nil {
		s.compact.auto()
	}
	s.compact.auto = cancel
	s.mu.Unlock()
	defer func() {
		cancel()
		s.mu.Lock()
		s.compact.auto = nil
		s.mu.Unlock()
	}()
	end := AutoCompactionEnd{Action: action}
	if s.agent.Model() == nil {
		end.Skipped = true
		s.emit(end)
		return outcomeNone
	}
	if handoff {
		_, err := s.handoffNow(actx, autoHandoffFocus, true)
		switch {
		case err == nil:
			s.emit(end)
			return outcomeHandedOff
		case actx.Err() != nil || errors.Is(err, ErrHandoffCancelled):
			end.Aborted = true
			s.emit(end)
			return outcomeNone
		case errors.Is(err, ErrNothingToHandOff):
			end.Skipped = true
			s.emit(end)
			return outcomeNone
		case !errors.Is(err, ErrHandoffEmpty):
			end.ErrorMessage = "Auto-compaction failed: " + err.Error()
			s.emit(end)
			return outcomeNone
		}
		// No document: summarise in place instead.
		end.Action = ActionContextFull
	}
	res, err := s.compactNow(actx, "")
	switch {
	case err == nil:
		end.Result, end.WillRetry = res, willRetry
		s.emit(end)
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
	s.emit(end)
	return outcomeNone
}

// RunIdleCompaction compacts an idle session (reason idle, no
// auto-continue): front ends call it once the user has been away for
// compaction.idleTimeoutSeconds with a context of at least
// compaction.idleThresholdTokens (see IdleCompactionDue). It does nothing
// while a prompt runs or another compaction does.
func (s *Session) RunIdleCompaction(ctx context.Context) {
	if s.isClosed() || !s.tryAcquire() {
		return
	}
	defer s.release()
	if s.IsCompacting() {
		return
	}
	s.autoCompact(ctx, ReasonIdle, false)
}

// IdleCompactionDue says whether an idle session should be compacted and
// after how long: idle compaction is on, automatic compaction is not off,
// and the context is at least compaction.idleThresholdTokens. The wait is
// compaction.idleTimeoutSeconds, kept within 60 s … 1 h.
func (s *Session) IdleCompactionDue() (wait time.Duration, due bool) {
	c := s.cfg.Settings.Compaction()
	if !c.IdleEnabled || s.compactionSettings().Strategy == compaction.StrategyOff || c.IdleThresholdTokens <= 0 {
		return 0, false
	}
	if s.ContextTokens() < c.IdleThresholdTokens {
		return 0, false
	}
	return min(max(c.IdleTimeout, time.Minute), time.Hour), true
}

// ContextTokens estimates the size of the conversation the model sees
// next: the context the last complete answer reported (when it came after
// the latest compaction), plus the messages since, counted with the
// model's tokenizer.
func (s *Session) ContextTokens() int {
	msgs := s.agent.Messages()
	c := s.counter()
	n := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if u, ok := compaction.UsableUsage(msgs[i]); ok && !s.beforeLatestCompaction(msgs[i].(*ai.AssistantMessage)) {
			return n + compaction.ContextTokens(u)
		}
		n += c.Count(msgs[i])
	}
	return n
}

// promote switches to the model's context promotion target (a model with
// a larger window, named by contextPromotionTarget in models.yml) when
// contextPromotion.enabled is on and the target has credentials. The
// switch is recorded as a temporary model change: a resumed session goes
// back to its own model.
func (s *Session) promote(last *ai.AssistantMessage) bool {
	if !s.cfg.Settings.Bool("contextPromotion.enabled") {
		return false
	}
	cur := s.agent.Model()
	if cur == nil || cur.ContextPromotionTarget == "" || last.Provider != cur.Provider || last.Model != cur.ID || cur.ContextWindow <= 0 {
		return false
	}
	ref := strings.TrimSpace(cur.ContextPromotionTarget)
	var target *ai.Model
	for _, m := range s.reg.Models() {
		if m.Provider+"/"+m.ID == ref || (m.Provider == cur.Provider && m.ID == ref) {
			target = m
			break
		}
	}
	if target == nil || target == cur || target.ContextWindow <= cur.ContextWindow || !s.reg.HasAuth(target) {
		return false
	}
	s.agent.SetModel(target)
	s.agent.SetThinking(models.ClampThinking(target, s.agent.Thinking()))
	full := target.Provider + "/" + target.ID
	if _, err := s.Store().AppendModelChange(full, "temporary"); err == nil {
		s.mu.Lock()
		s.recorded.model = full
		s.mu.Unlock()
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
func (s *Session) beforeLatestCompaction(m *ai.AssistantMessage) bool {
	path := s.Store().ContextPath("")
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
func (s *Session) dropTrailingError() {
	msgs := s.agent.Messages()
	if n := len(msgs); n > 0 {
		if a, ok := msgs[n-1].(*ai.AssistantMessage); ok && a.StopReason == ai.StopReasonError {
			_ = s.agent.SetMessages(msgs[:n-1])
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
func (s *Session) pruneToolOutputs() int {
	store := s.Store()
	path := store.ContextPath("")
	prunes, saved := compaction.PlanPrune(path, compaction.DefaultPruneConfig, s.counter(), nowMillis())
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
	msgs := s.agent.Messages()
	for i, m := range msgs {
		if r, ok := repl[m]; ok {
			msgs[i] = r
		}
	}
	_ = s.agent.SetMessages(msgs)
	return saved
}
