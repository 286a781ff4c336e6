// Package printmode is the non-interactive front end: `gopi -p` (text) and
// `gopi --mode json`. It sends the prompts to a session one after the
// other and reports the outcome:
//
//   - text: when every prompt is done, the text blocks of the last
//     assistant message, each followed by a newline, on standard output;
//     with Verbose, tool calls and their outcome on standard error. When
//     an automatic compaction after the answer sent the model back to
//     work (compaction.autoContinue), the answer before it is printed
//     first, and the continuation's answer after it only when the model
//     did more work (ran tools): a reply that there was nothing left to
//     do does not replace the answer;
//   - json: the session header line, then every event as one JSON line —
//     the same objects RPC mode sends.
//
// The final failure is reported on standard error in both formats;
// retries too in text (in json they are auto_retry_start events only, as
// omp keeps standard error empty there). When the session cannot be
// written the answer is still printed. Exit status: 0 when the model
// finished, 1 when the run ended in an error (or the session could not be
// written), 130 when interrupted.
package printmode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/termsafe"
)

// Format is the output format.
type Format string

// Formats.
const (
	Text Format = "text" // the final answer
	JSON Format = "json" // every event as a JSON line
)

// Exit statuses.
const (
	ExitOK           = 0   // the model finished
	ExitFailed       = 1   // the run ended in an error, or the session could not be stored
	ExitInterrupted  = 130 // interrupted (Ctrl-C)
	ExitOutputClosed = 141 // standard output was closed (as a process killed by SIGPIPE)
)

// Prompt is one message to send.
type Prompt struct {
	Text   string             // the text
	Images []*ai.ImageContent // images attached after it
}

// Options configure Run.
type Options struct {
	Format  Format    // Text or JSON
	Verbose bool      // text: tool activity on stderr
	Stdout  io.Writer // answers and events
	Stderr  io.Writer // diagnostics
}

// Session is what print mode uses of a session; *agentsession.Session
// implements it (tests fake it).
type Session interface {
	// Prompt sends one prompt and runs the agent until it is done.
	Prompt(ctx context.Context, text string, opts agentsession.PromptOptions) error
	// Abort stops the run in progress.
	Abort()
	// Subscribe registers fn for every event and returns its removal.
	Subscribe(fn func(agent.Event)) (cancel func())
	// Store is the session file (its header starts the JSON output).
	Store() *session.Manager
	// Err is the latched failure to write the session.
	Err() error
	// LastAssistant is the last answer of the conversation, or nil.
	LastAssistant() *ai.AssistantMessage
	// WaitJobs waits for the background jobs and the runs they start.
	WaitJobs(ctx context.Context, onWait func(running int)) error
}

// Run sends prompts in order and prints as Format says; it returns the
// exit status. ctx cancelled (Ctrl-C) aborts the run in progress: what was
// streamed so far is kept in the session and printed.
func Run(ctx context.Context, s Session, prompts []Prompt, opts Options) int {
	out := &printer{opts: opts, abort: s.Abort}
	if opts.Format == JSON {
		out.jsonLine(s.Store().Header())
	}
	unsub := s.Subscribe(out.event)
	defer unsub()

	status := ExitOK
	for _, p := range prompts {
		out.newPrompt()
		err := s.Prompt(ctx, p.Text, agentsession.PromptOptions{Images: p.Images})
		if out.failed() {
			return ExitOutputClosed
		}
		if ctx.Err() != nil {
			status = ExitInterrupted
			break
		}
		if err != nil {
			if s.Err() == nil || !out.answered() {
				fmt.Fprintf(opts.Stderr, "gopi: %v\n", err)
				return ExitFailed
			}
			// The session could not be written, but the model answered:
			// print the answer, then report the failure (below).
			status = ExitFailed
			break
		}
		if out.failed() {
			// The output went away (a closed pipe): stop here.
			return ExitOutputClosed
		}
		if m := s.LastAssistant(); m != nil && m.StopReason == ai.StopReasonError {
			status = ExitFailed
			break
		}
	}
	if status == ExitOK {
		// Background jobs (async bash, background tasks) deliver their
		// results to the model, which answers again: wait for all of it.
		err := s.WaitJobs(ctx, func(n int) {
			fmt.Fprintf(opts.Stderr, "gopi: waiting for %d background job(s) to finish (Ctrl-C stops them)\n", n)
		})
		switch {
		case out.failed():
			return ExitOutputClosed
		case err != nil:
			s.Abort()
			status = ExitInterrupted
		}
	}
	last := s.LastAssistant()
	// A failed answer's text is a fragment: stdout is for answers, so it
	// stays in the session only. An interrupted one is shown, since the
	// user stopped it on purpose.
	showLast := last != nil && last.StopReason != ai.StopReasonError
	if before, worked := out.beforeAutoContinue(); before != nil && before != last && opts.Format == Text {
		out.finalText(before)
		showLast = showLast && worked
	}
	if opts.Format == Text && showLast {
		out.finalText(last)
	}
	if last != nil && last.StopReason == ai.StopReasonError {
		fmt.Fprintf(opts.Stderr, "gopi: %s\n", strings.TrimSpace(last.ErrorMessage))
	}
	if status == ExitInterrupted {
		msg := "gopi: interrupted"
		if last != nil && last.StopReason == ai.StopReasonAborted && len(last.Content) > 0 && s.Store().File() != "" {
			msg += "; the partial answer is kept in the session"
		}
		fmt.Fprintln(opts.Stderr, msg)
	}
	if err := s.Err(); err != nil {
		fmt.Fprintf(opts.Stderr, "gopi: the session could not be saved: %v\n", err)
		if status == ExitOK {
			status = ExitFailed
		}
	}
	return status
}

// printer renders events.
type printer struct {
	opts  Options
	abort func() // stops the run when the output went away

	mu     sync.Mutex
	werr   error
	tools  map[string]string // tool call id → short description, for -v
	update int
	answer bool // an assistant message ended during the run
	// The prompt in progress (reset by newPrompt): the last assistant
	// message that ended, the answer the auto-continue turn came after
	// (nil when there was none) and whether that turn ran tools.
	lastEnded *ai.AssistantMessage
	before    *ai.AssistantMessage
	worked    bool
}

// newPrompt forgets what the previous prompt's turns did.
func (p *printer) newPrompt() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastEnded, p.before, p.worked = nil, nil, false
}

// beforeAutoContinue returns the complete answer the current prompt's
// auto-continue turn came after (nil when there was no such turn) and
// whether the continuation ran tools.
func (p *printer) beforeAutoContinue() (*ai.AssistantMessage, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.before, p.worked
}

// track follows the turns of a prompt for beforeAutoContinue.
func (p *printer) track(ev agent.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case agent.MessageEnd:
		switch m := e.Message.(type) {
		case *ai.AssistantMessage:
			p.answer = true
			p.lastEnded = m
		case *message.Custom:
			if m.CustomType == agentsession.AutoContinueType && p.before == nil && p.lastEnded != nil &&
				p.lastEnded.StopReason != ai.StopReasonError && p.lastEnded.StopReason != ai.StopReasonAborted {
				p.before = p.lastEnded
			}
		}
	case agent.ToolExecutionStart:
		if p.before != nil {
			p.worked = true
		}
	}
}

// answered reports whether the model finished a message during the run.
func (p *printer) answered() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.answer
}

func (p *printer) failed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.werr != nil
}

func (p *printer) write(w io.Writer, s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.werr != nil {
		return
	}
	if _, err := io.WriteString(w, s); err != nil {
		// Nobody reads any more (a closed pipe): stop the run; what it
		// produced so far is already in the session.
		p.werr = err
		if p.abort != nil {
			go p.abort()
		}
	}
}

func (p *printer) jsonLine(v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(map[string]string{"type": "error", "error": err.Error()})
	}
	p.write(p.opts.Stdout, string(data)+"\n")
}

func (p *printer) event(ev agent.Event) {
	p.track(ev)
	if p.opts.Format == JSON {
		p.jsonLine(ev)
		return
	}
	switch e := ev.(type) {
	case agent.AutoRetryStart:
		p.write(p.opts.Stderr, fmt.Sprintf("gopi: %s; retry %d/%d in %.1fs\n", strings.TrimSpace(e.ErrorMessage), e.Attempt, e.MaxAttempts, float64(e.DelayMs)/1000))
	case agent.HookError:
		p.write(p.opts.Stderr, fmt.Sprintf("gopi: hook %s failed at %s: %s\n", e.Hook, e.Event, e.Error))
	case agent.ToolExecutionStart:
		if p.opts.Verbose {
			p.write(p.opts.Stderr, fmt.Sprintf("→ %s %s\n", e.ToolName, summarizeArgs(e.Args)))
		}
	case agent.ToolExecutionEnd:
		if p.opts.Verbose {
			mark := "✓"
			if e.IsError || e.ToolName == "web_search" && e.Result != nil && tool.ResultError(e.Result.Details) != "" {
				mark = "✗"
			}
			p.write(p.opts.Stderr, fmt.Sprintf("%s %s %s\n", mark, e.ToolName, firstLine(e.Result.FirstText())))
		}
	}
}

// finalText prints each text block of m followed by a newline.
func (p *printer) finalText(m *ai.AssistantMessage) {
	for _, b := range m.Content {
		if t, ok := b.(*ai.TextContent); ok && t.Text != "" {
			p.write(p.opts.Stdout, t.Text+"\n")
		}
	}
}

// summarizeArgs renders tool arguments on one short line.
func summarizeArgs(args map[string]any) string {
	data, err := json.Marshal(args)
	if err != nil {
		return ""
	}
	return clip(termsafe.Line(string(data)), 160)
}

// firstLine is the first line of a tool's result, cleaned of escape
// sequences and control characters (a web page or a file must not drive
// the terminal -v prints on), clipped to 160 characters.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return clip(termsafe.Line(s), 160)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// ErrNoPrompt is returned when there is nothing to send.
var ErrNoPrompt = errors.New("nothing to send: give a message, @files or piped input")
