package permission

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gopi-agent/gopi/core/tool"
)

// Answer is the user's reply to a question: ACP's permission option
// kinds, which every front end offers.
type Answer string

// The answers.
const (
	AllowOnce    Answer = "allow_once"
	AllowAlways  Answer = "allow_always" // this tool, for the rest of the session
	RejectOnce   Answer = "reject_once"
	RejectAlways Answer = "reject_always" // this tool, for the rest of the session
)

// Allows reports whether the answer lets the call run.
func (a Answer) Allows() bool { return a == AllowOnce || a == AllowAlways }

// lasting reports whether the answer is remembered.
func (a Answer) lasting() bool { return a == AllowAlways || a == RejectAlways }

// Request is one call put to the user.
type Request struct {
	CallID string         // the provider's id of the call
	Tool   string         // the tool called
	Args   map[string]any // its validated arguments
	// Access is what the call does; Access.Tool is the tool whose
	// permission is asked for (and remembered).
	Access tool.Access
	// Agent is "" for the agent the user talks to, else the id of the
	// subagent's task ("0-Fix", "0-Fix.1-Tests" one level deeper).
	Agent string
}

// Subject is the tool whose permission the request asks for.
func (r Request) Subject() string { return r.Access.Tool }

// ErrCancelled is what an Asker returns when the front end withdrew the
// question because the turn was cancelled (ACP's "cancelled" outcome).
var ErrCancelled = errors.New("the permission request was cancelled")

// Asker puts a question to the user and waits for the answer. It returns
// ctx's error when ctx ends first (withdrawing the question),
// tool.ErrDialogCancelled when the user dismissed it, and ErrCancelled
// when the front end withdrew it.
type Asker interface {
	Ask(ctx context.Context, req Request) (Answer, error)
}

// Observer is implemented by askers that show each question as an item
// of their own (ACP's editor shows a subagent's call as a tool call card)
// and close it when the call has ended.
type Observer interface {
	// Settled reports the end of a call the user was asked about: its
	// result, or the refusal as an error result when it did not run.
	Settled(req Request, res *tool.Result)
}

// Options configure a Gate.
type Options struct {
	// Require are the policy's patterns (see the package doc); none asks
	// about nothing.
	Require []string
	// Setting names where Require comes from, for messages (e.g.
	// "acp.requirePermission").
	Setting string
	// Asker puts the questions. Nil: the gate asks through the UI the
	// runtime gives it later (UseUI); with neither, calls that need
	// approval are refused.
	Asker Asker
}

// Gate decides, asks and remembers for a tree of agents. Its methods are
// safe for concurrent use.
type Gate struct {
	policy  Policy
	setting string
	turn    chan struct{} // held while a question is out: one at a time

	mu       sync.Mutex
	asker    Asker
	explicit bool                  // the asker came with Options (UseUI leaves it)
	answers  map[string]Answer     // lasting answers by subject
	gen      int                   // bumped by Forget: answers to older questions are not kept
	asked    map[askedKey]*Request // allowed calls an Observer waits to see settled
}

type askedKey struct{ agent, callID string }

// New builds a gate; a malformed pattern is an error naming the setting.
func New(o Options) (*Gate, error) {
	p, err := ParsePolicy(o.Require)
	if err != nil {
		if o.Setting != "" {
			return nil, fmt.Errorf("setting %s: %w", o.Setting, err)
		}
		return nil, err
	}
	return &Gate{policy: p, setting: o.Setting, turn: make(chan struct{}, 1), asker: o.Asker, explicit: o.Asker != nil,
		answers: map[string]Answer{}, asked: map[askedKey]*Request{}}, nil
}

// Active reports whether any call can need approval.
func (g *Gate) Active() bool { return g != nil && !g.policy.Empty() }

// UseUI makes the gate ask through ui's select dialog (the TUI, RPC's
// extension UI), unless its Options named an asker; nil stops asking.
func (g *Gate) UseUI(ui tool.UI) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.explicit {
		return
	}
	g.asker = nil
	if ui != nil {
		g.asker = DialogAsker{UI: ui}
	}
}

// Asks reports whether a call that does a would be put to the user now:
// the policy requires it and no answer for its tool is remembered.
func (g *Gate) Asks(a tool.Access) bool {
	if !g.policy.Requires(a) {
		return false
	}
	_, ok := g.recall(a.Tool)
	return !ok
}

// Forget drops the remembered answers (the runtime switched to another
// session); questions out now are not remembered either.
func (g *Gate) Forget() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.answers = map[string]Answer{}
	g.gen++
}

// Check lets a call run (nil) or refuses it with an error whose text is
// the call's result for the model. It asks the user when the policy
// requires it and no remembered answer settles it; it waits for the
// answer or the end of ctx.
func (g *Gate) Check(ctx context.Context, req Request) error {
	if !g.policy.Requires(req.Access) {
		return nil
	}
	if a, ok := g.recall(req.Subject()); ok {
		return verdict(req, a)
	}
	select {
	case g.turn <- struct{}{}:
	case <-ctx.Done():
		return refusal(req, cancelledText)
	}
	defer func() { <-g.turn }()
	// An "always" answer may have come while this call waited its turn.
	if a, ok := g.recall(req.Subject()); ok {
		return verdict(req, a)
	}
	g.mu.Lock()
	asker, gen := g.asker, g.gen
	g.mu.Unlock()
	if asker == nil {
		return g.settle(asker, req, refusal(req, noAskerText(g.setting)))
	}
	a, err := asker.Ask(ctx, req)
	switch {
	case ctx.Err() != nil, errors.Is(err, ErrCancelled):
		return g.settle(asker, req, refusal(req, cancelledText))
	case errors.Is(err, tool.ErrDialogCancelled):
		return g.settle(asker, req, refusal(req, dismissedText))
	case errors.Is(err, tool.ErrDialogTimedOut):
		return g.settle(asker, req, refusal(req, timedOutText))
	case err != nil:
		return g.settle(asker, req, &Refusal{Reason: fmt.Sprintf("The permission request for this %s call could not be answered (%v); the call was not run.", req.Tool, err)})
	}
	if a.lasting() {
		g.mu.Lock()
		if g.gen == gen {
			g.answers[req.Subject()] = a
		}
		g.mu.Unlock()
	}
	if err := verdict(req, a); err != nil {
		return g.settle(asker, req, err)
	}
	if _, ok := asker.(Observer); ok {
		g.mu.Lock()
		r := req
		g.asked[askedKey{req.Agent, req.CallID}] = &r
		g.mu.Unlock()
	}
	return nil
}

// Done reports the result of a call Check let run; an asker that
// observes calls hears of the ones it asked about.
func (g *Gate) Done(req Request, res *tool.Result) {
	k := askedKey{req.Agent, req.CallID}
	g.mu.Lock()
	asked, ok := g.asked[k]
	delete(g.asked, k)
	obs, _ := g.asker.(Observer)
	g.mu.Unlock()
	if ok && obs != nil {
		obs.Settled(*asked, res)
	}
}

// recall returns the remembered answer for subject.
func (g *Gate) recall(subject string) (Answer, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	a, ok := g.answers[subject]
	return a, ok
}

// settle tells an observing asker that a call it asked about was refused,
// and returns the refusal.
func (g *Gate) settle(asker Asker, req Request, refused error) error {
	if obs, ok := asker.(Observer); ok {
		obs.Settled(req, tool.ErrorResult(refused))
	}
	return refused
}

// Refusal is the error Check returns for a call that must not run; its
// text is written for the model.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }

// The reasons a call did not run, for the model. %[1]s is the tool
// called, %[2]s the tool whose permission was asked for.
const (
	rejectedText     = "The user rejected this %[1]s call; it was not run. Do not retry it: ask the user how to proceed."
	rejectAlwaysText = "The user rejected every %[2]s call for the rest of this session; this %[1]s call was not run. Do not call %[2]s again: do without it or ask the user."
	cancelledText    = "The permission request for this %[1]s call was cancelled before the user answered; the call was not run."
	dismissedText    = "The user dismissed the permission request for this %[1]s call; it was not run. Do not retry it: ask the user how to proceed."
	timedOutText     = "The permission request for this %[1]s call timed out without an answer; the call was not run."
)

// noAskerText is the reason when the mode has no one to ask.
func noAskerText(setting string) string {
	if setting == "" {
		return "This %[1]s call needs the user's approval, but there is no one to ask in this mode; it was not run."
	}
	return "This %[1]s call needs the user's approval (setting " + setting + "), but there is no one to ask in this mode; it was not run."
}

// refusal fills a reason in for req.
func refusal(req Request, format string) error {
	return &Refusal{Reason: fmt.Sprintf(format, req.Tool, req.Subject())}
}

// verdict turns an answer into Check's result.
func verdict(req Request, a Answer) error {
	switch {
	case a.Allows():
		return nil
	case a == RejectAlways:
		return refusal(req, rejectAlwaysText)
	}
	return refusal(req, rejectedText)
}
