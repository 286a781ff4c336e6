package agentsession

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
)

// Handoff: instead of summarising the conversation in place, the model
// writes a document for a fresh session, and the work goes on there. The
// document is written by one request that is the next turn's request (same
// system prompt, tools and history, so the provider's prompt cache
// applies) with a trailing user message asking for it and tool use turned
// off; nothing of it is stored in the old session. The new session's
// parentSession is the old file, and its first entry is a visible custom
// message of type "handoff" carrying the document.

// Errors of a handoff that the user is told as they are (omp's texts).
var (
	// ErrNothingToHandOff: the conversation has fewer than two messages.
	ErrNothingToHandOff = errors.New("Nothing to hand off (no messages yet)")
	// ErrHandoffCancelled: the handoff was aborted (AbortHandoff, Abort,
	// the context).
	ErrHandoffCancelled = errors.New("Handoff cancelled")
	// ErrHandoffEmpty: the model answered without any text; the session
	// is unchanged.
	ErrHandoffEmpty = errors.New("the model wrote no handoff document; the session is unchanged")
)

// HandoffType is the custom type of the message that carries a handoff
// document into the new session.
const HandoffType = "handoff"

// HandoffResult is a completed handoff.
type HandoffResult struct {
	Document    string `json:"document"`            // the document the model wrote
	SessionFile string `json:"sessionFile"`         // the new session's file ("" in memory)
	SavedPath   string `json:"savedPath,omitempty"` // the document saved as an artifact (automatic handoffs with compaction.handoffSaveToDisk)
}

// handoffInstructions ask for the document; %s is the focus paragraph.
const handoffInstructions = `Stop the work here and write a handoff document instead: a fresh assistant, with the same tools but without this conversation, will continue from it, so it must hold everything needed to carry on without asking. Reply with the document alone, in Markdown, no introduction or closing remarks, under these headings:

## Goal
What the user wants done.

## Constraints and preferences
- requirements, conventions and wishes the user stated

## Progress
### Done
- [x] completed work, with specifics
### In progress
- [ ] work started and not finished
### Pending
- [ ] work asked for and not started

## Key decisions
- **decision**: the reason behind it

## Critical context
- exact file paths, function and type names, commands run, test results, error messages, code the next steps depend on, the state of the repository

## Next steps
1. what to do next, in order
%s`

// handoffFocusIntro introduces the caller's focus for the document.
const handoffFocusIntro = "\nPay particular attention to: "

// autoHandoffFocus is the focus of a handoff the threshold starts
// (compaction.strategy handoff).
const autoHandoffFocus = "the context window is nearly full; keep the exact state of the work in progress and the immediate next actions."

// handoffNote follows the document in the new session's first message.
const handoffNote = "The document above was written at the end of the previous session to hand its work over to this one. Continue the work from it."

// handoffContinueText is what the agent sends itself after a handoff the
// threshold started (compaction.autoContinue).
const handoffContinueText = `The previous session was handed over to this one: the handoff document above describes the work. Carry on with its next steps; if nothing is left to do, say so in one sentence.`

// Handoff asks the model for a handoff document and continues in a new
// session that starts with it (/handoff, RPC handoff); customInstructions,
// when given, say what the document should focus on. It fails with
// ErrNothingToHandOff when the conversation has fewer than two messages,
// ErrWorking while a run streams (the work after a run is waited for),
// ErrHandoffCancelled when aborted (AbortHandoff, Session.Abort, ctx),
// ErrHandoffEmpty when the model wrote nothing, and with "Handoff failed:
// …" when the request fails. In every failure the session is unchanged.
func (c *Compactor) Handoff(ctx context.Context, customInstructions string) (*HandoffResult, error) {
	if err := c.turn.take(ctx); err != nil {
		return nil, err
	}
	defer c.turn.release()
	return c.handoffNow(ctx, customInstructions, false)
}

// AbortHandoff stops the handoff document being written; the session
// stays as it was.
func (c *Compactor) AbortHandoff() {
	c.handoff.abort()
}

// IsGeneratingHandoff reports whether a handoff document is being written.
func (c *Compactor) IsGeneratingHandoff() bool {
	return c.handoff.active()
}

// handoffNow writes the document and switches to the new session; the
// caller holds the turn. auto marks a handoff the threshold started.
func (c *Compactor) handoffNow(ctx context.Context, focus string, auto bool) (*HandoffResult, error) {
	store := c.host.Store()
	n := 0
	for _, e := range store.Path("") {
		if e.Type == session.TypeMessage {
			n++
		}
	}
	if n < 2 {
		return nil, ErrNothingToHandOff
	}
	model := c.agent.Model()
	if model == nil {
		return nil, errors.New("No model selected")
	}
	if err := c.model.check(); err != nil {
		return nil, err
	}
	hctx, done := c.handoff.start(ctx)
	defer done()

	doc, err := c.writeHandoff(hctx, model, focus)
	if hctx.Err() != nil || errors.Is(err, context.Canceled) {
		return nil, ErrHandoffCancelled
	}
	if err != nil {
		return nil, err
	}
	doc = strings.TrimSpace(doc)
	if doc == "" {
		return nil, ErrHandoffEmpty
	}

	prev := store.File()
	_ = store.Flush()
	next, err := c.host.newStoreLike(store, prev)
	if err != nil {
		return nil, err
	}
	if err := c.host.replaceStore(next, true); err != nil {
		return nil, err
	}
	content := "<handoff-context>\n" + doc + "\n</handoff-context>\n\n" + handoffNote
	_, err = next.Record(session.CustomMessage{CustomType: HandoffType, Content: message.PlainText(content), Display: true, Attribution: "agent"})
	if err == nil {
		err = next.EnsureOnDisk()
	}
	if rerr := c.host.reloadFromStore(); rerr != nil && err == nil {
		err = rerr
	}
	res := &HandoffResult{Document: doc, SessionFile: next.File()}
	if auto && c.cfg.Settings.Compaction().HandoffSaveToDisk {
		// A failure to save the copy does not fail the handoff.
		if store := next.Artifacts(); store != nil {
			dir := store.Dir()
			name := "handoff-" + strings.NewReplacer(":", "-", ".", "-").Replace(time.Now().UTC().Format("2006-01-02T15:04:05.000Z")) + ".md"
			path := filepath.Join(dir, name)
			if os.MkdirAll(dir, 0o755) == nil && tool.WriteFileAtomic(path, []byte(doc+"\n"), 0o644) == nil {
				res.SavedPath = path
			}
		}
	}
	return res, err
}

// writeHandoff sends the one request that writes the document and returns
// the text of the answer (tool calls a provider sends anyway are ignored).
func (c *Compactor) writeHandoff(ctx context.Context, model *ai.Model, focus string) (string, error) {
	extra := ""
	if f := strings.TrimSpace(focus); f != "" {
		extra = handoffFocusIntro + f
	}
	ask := &ai.UserMessage{Content: ai.ContentList{ai.Text(fmt.Sprintf(handoffInstructions, extra))}, Attribution: "agent", Timestamp: nowMillis()}
	req := c.agent.RequestWith(ctx, ask)
	req.ToolChoice = &ai.ToolChoice{Mode: ai.ToolChoiceNone}
	req.Thinking = ai.ThinkingOff
	if model.Reasoning {
		req.Thinking = models.ClampThinking(model, ai.ThinkingHigh)
	}
	msg := c.host.streamFunc()(ctx, req).Result(ctx)
	switch {
	case ctx.Err() != nil:
		return "", ctx.Err()
	case msg == nil:
		return "", errors.New("Handoff failed: the model sent no answer")
	case msg.StopReason == ai.StopReasonAborted:
		return "", context.Canceled
	case msg.StopReason == ai.StopReasonError:
		text := msg.ErrorMessage
		if text == "" {
			text = "the model returned an error without a message"
		}
		return "", fmt.Errorf("Handoff failed: %s", text)
	}
	var parts []string
	for _, b := range msg.Content {
		if t, ok := b.(*ai.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n"), nil
}
