package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/tool"
)

// ErrBusy is returned by Prompt and Continue while a run is in progress.
var ErrBusy = errors.New("the agent is still working on the previous prompt: send the message as a steer or a follow-up (streamingBehavior \"steer\" or \"followUp\"), or wait until it finishes")

// ErrNothingToContinue is returned by Continue when the conversation gives
// the model nothing to answer: it is empty, or it ends with the assistant's
// answer and no steering or follow-up message is queued.
var ErrNothingToContinue = errors.New("agent: nothing to continue")

// ErrNoModel is returned when a run starts without a model.
var ErrNoModel = errors.New("no model is configured: pick one with --model or set a default model in the settings")

// StreamFunc starts one provider request; ai.StreamRequest (through a model
// registry that fills in credentials) is the usual one.
type StreamFunc func(ctx context.Context, req *ai.Request) *ai.Stream

// Options configure an Agent.
type Options struct {
	Model        *ai.Model        // the model to call
	Thinking     ai.ThinkingLevel // reasoning effort
	SystemPrompt string           // system prompt
	Tools        []tool.Tool      // callable tools, offered in this order
	Messages     []ai.Message     // initial conversation (a resumed session's context)

	// Stream starts provider requests. Required.
	Stream StreamFunc
	// ConvertToLLM turns the conversation (which may hold agent-level
	// messages such as custom or summary messages) into provider messages
	// before every call. Nil passes user, assistant and tool-result
	// messages and drops the rest.
	ConvertToLLM func([]ai.Message) []ai.Message
	// PrepareRequest, when set, may adjust each request before it is sent
	// (max tokens, cache retention, headers, API key).
	PrepareRequest func(req *ai.Request)
	// RestoreArgs, when set, rewrites each tool call's arguments before
	// anything else sees them (events, hooks, validation, the tool): the
	// session's secret obfuscation puts the real values back for the
	// placeholders the model wrote. It must not modify its argument.
	RestoreArgs func(args map[string]any) map[string]any
	// SessionID is sent to providers that key prompt caches by session.
	SessionID string

	SteeringMode  QueueMode     // "" means one-at-a-time
	FollowUpMode  QueueMode     // "" means one-at-a-time
	InterruptMode InterruptMode // "" means immediate

	// Retry configures automatic retries of transient provider errors.
	Retry RetryOptions
	// Hooks are the extension points, run in order.
	Hooks []*Hooks
	// Artifacts receives the full text of tool results too large to keep
	// (see MaxResultBytes); nil keeps only the tail.
	Artifacts *artifact.Store
	// MaxResultBytes caps the text of one tool result; larger results keep
	// their last tool.DefaultMaxBytes and the whole text goes to Artifacts.
	// 0 means DefaultMaxResultBytes.
	MaxResultBytes int
	// Interrupter, when set, sees each event of a streaming response
	// (not the terminal one); a non-nil answer stops the response and asks
	// again (see StreamInterrupt). It runs on the loop's goroutine.
	Interrupter func(ev ai.Event) *StreamInterrupt
	// AbortGrace is how long an aborted stream may take to end by itself
	// before the loop ends it; 0 means 2 s.
	AbortGrace time.Duration
	// Now returns the current time (tests replace it); nil means time.Now.
	Now func() time.Time
}

// RetryOptions configure automatic retries.
type RetryOptions struct {
	Enabled bool // retry transient provider errors
	// Policy gives the attempts and the backoff. Unlike ai.Retry's, its
	// MaxAttempts is taken as it is (retry.maxRetries): 0 (or less) means
	// no retry; a zero BaseDelay or MaxDelay takes core/ai's default.
	Policy ai.RetryPolicy
}

// DefaultMaxResultBytes is the default cap on one tool result's text: far
// above what the built-in tools return (they cap their own output), a net
// for tools that do not.
const DefaultMaxResultBytes = 1 << 20

// Agent runs the loop over one conversation. Its methods are safe for
// concurrent use: a front end prompts from one goroutine while another
// steers or aborts.
//
// Its state is in three parts, each with its own lock: the run state
// (runs, runstate.go), the conversation (mu) and the queues (queued,
// queue.go). Locks are taken in this order, never the other way round:
//
//	runs.serial → emitMu → runs.mu → mu → queued.mu
//
// runs.serial is held by a run while it emits, and subscribers may call any
// method; runs.mu is held while start checks the conversation and takes
// from the queues, and while SetMessages replaces the conversation, so
// that neither races with a run starting. No lock but runs.serial and
// emitMu is held while emitting or calling out (hooks, tools, providers).
type Agent struct {
	opts Options

	listeners Listeners
	emitMu    sync.Mutex // serialises delivery: subscribers never run concurrently

	runs   runState // whether a run is in progress and how to stop it
	queued queues   // steering, follow-up, forced tool choices, interrupt mode
	// endTurn asks the run to end after its current turn (EndRunAfterTurn).
	endTurn atomic.Bool

	mu           sync.Mutex
	messages     []ai.Message
	model        *ai.Model
	thinking     ai.ThinkingLevel
	systemPrompt string
	tools        []tool.Tool
	retry        RetryOptions
	artifacts    *artifact.Store
}

// New returns an idle agent.
func New(opts Options) *Agent {
	return &Agent{
		opts:         opts,
		runs:         newRunState(),
		queued:       newQueues(opts),
		messages:     append([]ai.Message(nil), opts.Messages...),
		model:        opts.Model,
		thinking:     opts.Thinking,
		systemPrompt: opts.SystemPrompt,
		tools:        append([]tool.Tool(nil), opts.Tools...),
		retry:        opts.Retry,
		artifacts:    opts.Artifacts,
	}
}

func orDefault[T ~string](v, def T) T {
	if v == "" {
		return def
	}
	return v
}

func (a *Agent) now() time.Time {
	if a.opts.Now != nil {
		return a.opts.Now()
	}
	return time.Now()
}

// Subscribe registers fn for every event and returns a function that
// removes it. Events are delivered synchronously and in order from the
// goroutine running the loop (tool events from the tool's goroutine), one
// at a time; a slow subscriber slows the loop.
func (a *Agent) Subscribe(fn func(Event)) (cancel func()) { return a.listeners.Add(fn) }

// emit delivers ev to every subscriber, one event at a time.
func (a *Agent) emit(ev Event) {
	a.emitMu.Lock()
	defer a.emitMu.Unlock()
	a.listeners.Emit(ev)
}

// Messages returns a copy of the conversation.
func (a *Agent) Messages() []ai.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]ai.Message(nil), a.messages...)
}

// SetMessages replaces the conversation (a session switch or branch). It
// fails with ErrBusy during a run.
func (a *Agent) SetMessages(msgs []ai.Message) error {
	return a.runs.whileIdle(func() error {
		a.mu.Lock()
		defer a.mu.Unlock()
		a.messages = append([]ai.Message(nil), msgs...)
		return nil
	})
}

// ReplaceMessages replaces the conversation also during a run: the loop's
// next model call is built from msgs. It is meant for a turn_end
// subscriber (events are delivered from the loop, which waits for it, so
// nothing else changes the conversation meanwhile), such as the rewind of
// a checkpoint; between runs SetMessages is the call.
func (a *Agent) ReplaceMessages(msgs []ai.Message) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.messages = append([]ai.Message(nil), msgs...)
}

// Model returns the current model.
func (a *Agent) Model() *ai.Model {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.model
}

// SetModel changes the model; a running loop uses it from its next call.
func (a *Agent) SetModel(m *ai.Model) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.model = m
}

// Thinking returns the reasoning effort.
func (a *Agent) Thinking() ai.ThinkingLevel {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.thinking
}

// SetThinking changes the reasoning effort from the next call on.
func (a *Agent) SetThinking(l ai.ThinkingLevel) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.thinking = l
}

// SystemPrompt returns the system prompt.
func (a *Agent) SystemPrompt() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.systemPrompt
}

// SetSystemPrompt changes the system prompt from the next call on.
func (a *Agent) SetSystemPrompt(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.systemPrompt = s
}

// Tools returns the callable tools.
func (a *Agent) Tools() []tool.Tool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]tool.Tool(nil), a.tools...)
}

// SetTools replaces the callable tools from the next call on.
func (a *Agent) SetTools(ts []tool.Tool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.tools = append([]tool.Tool(nil), ts...)
}

// Modes are how the loop delivers queued messages and when steering
// interrupts a turn.
type Modes struct {
	Steering  QueueMode     // how queued steering messages are delivered
	FollowUp  QueueMode     // how queued follow-up messages are delivered
	Interrupt InterruptMode // when steering interrupts a turn
}

// Modes returns the steering, follow-up and interrupt modes.
func (a *Agent) Modes() Modes { return a.queued.modes() }

// SetModes sets the modes m names; a zero field keeps the current mode, so
// one mode changes without a read-modify-write race with another.
func (a *Agent) SetModes(m Modes) { a.queued.setModes(m) }

// Retry returns the retry options.
func (a *Agent) Retry() RetryOptions {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.retry
}

// SetRetry changes the retry options from the next failure on.
func (a *Agent) SetRetry(r RetryOptions) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.retry = r
}

// SetArtifacts changes where oversized tool results are spilled (a new
// session file has its own artifacts directory); nil keeps only the
// truncated text.
func (a *Agent) SetArtifacts(store *artifact.Store) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.artifacts = store
}

// Steer queues m for delivery before the next model call of the current
// run (or of the next run).
func (a *Agent) Steer(m ai.Message) { a.queued.steer(m) }

// FollowUp queues m for delivery when the current run would otherwise end.
func (a *Agent) FollowUp(m ai.Message) { a.queued.followUpWith(m) }

// Queued returns the steering and follow-up messages waiting, oldest
// first, without taking them (a UI lists them).
func (a *Agent) Queued() (steering, followUp []ai.Message) { return a.queued.list() }

// ClearQueues removes and returns every queued message.
func (a *Agent) ClearQueues() (steering, followUp []ai.Message) { return a.queued.clear() }

// ForceToolChoice makes a coming model call use the named tool once. If the
// response does not call it, the directive is put back for the next call.
// An empty toolName makes the call use some tool, whichever the model
// picks (tool choice "required"); that directive is used once either way.
func (a *Agent) ForceToolChoice(toolName, label string) {
	a.queued.force(forcedChoice{tool: toolName, label: label})
}

// pendingToolChoices returns the tools of queued forced choices, in order.
func (a *Agent) pendingToolChoices() []string { return a.queued.forcedTools() }

// IsRunning reports whether a run is in progress.
func (a *Agent) IsRunning() bool { return a.runs.isRunning() }

// Abort cancels the current run, if any: the stream ends as an aborted
// message keeping its partial content and running tools are cancelled.
func (a *Agent) Abort() { a.runs.abort() }

// EndRunAfterTurn asks the run in progress to end once its current turn
// is over — the tool calls of the model's answer have their results — as
// if the model had stopped there: no further model call, queued messages
// stay queued. A listener calls it when a tool result hands control to
// the user (exit_plan_mode). Without a run it does nothing.
func (a *Agent) EndRunAfterTurn() {
	if a.IsRunning() {
		a.endTurn.Store(true)
	}
}

// AbortRetry cancels a retry wait in progress; the run ends with the
// failed message.
func (a *Agent) AbortRetry() { a.runs.abortRetry() }

// WaitIdle waits until no run is in progress or ctx is done.
func (a *Agent) WaitIdle(ctx context.Context) error {
	idle := a.runs.idleChan()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Prompt adds msgs to the conversation and runs the loop until it ends. It
// returns ErrBusy when a run is already in progress, ErrNoModel without a
// model, and ctx's error when ctx ended the run; provider failures end the
// run with an assistant message whose stop reason is error, not with an
// error here.
func (a *Agent) Prompt(ctx context.Context, msgs ...ai.Message) error {
	if len(msgs) == 0 {
		return errors.New("agent: Prompt needs at least one message")
	}
	return a.start(ctx, msgs, false)
}

// Continue runs the loop from the current conversation, which must end in
// a message the model can answer (a user message or tool results); when it
// ends in an assistant message, queued steering or follow-up messages are
// delivered first, and without any it fails with ErrNothingToContinue.
func (a *Agent) Continue(ctx context.Context) error {
	return a.start(ctx, nil, true)
}

func (a *Agent) start(ctx context.Context, msgs []ai.Message, cont bool) error {
	skipInitialSteer := false
	runCtx, cancel, idle, err := a.runs.begin(ctx, func() error {
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.model == nil {
			return ErrNoModel
		}
		if !cont {
			return nil
		}
		if len(a.messages) == 0 {
			return fmt.Errorf("%w: the conversation is empty", ErrNothingToContinue)
		}
		if _, ok := a.messages[len(a.messages)-1].(*ai.AssistantMessage); ok {
			if msgs, skipInitialSteer = a.queued.takeAny(); len(msgs) == 0 {
				return fmt.Errorf("%w: the conversation ends with the assistant's answer and no message is queued", ErrNothingToContinue)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}

	// Runs are serialised including their agent_end: a prompt that arrives
	// once agent_end is being delivered (the agent is no longer running)
	// starts after that event, never before it.
	a.runs.serial.Lock()
	defer a.runs.serial.Unlock()
	added := a.run(runCtx, msgs, skipInitialSteer)
	cancel()
	a.runs.end()
	a.emit(AgentEnd{Messages: added})
	close(idle)
	if err := ctx.Err(); err != nil {
		return err
	}
	return nil
}
