package resolve

import (
	"context"
	"errors"
	"sync"

	"github.com/gopi-agent/gopi/core/tool"
)

// Reminder is the steering message a session injects when a preview is
// queued.
const Reminder = "This is a preview. Call the resolve tool to apply or discard these changes."

// ErrNothingPending is the error resolve returns when no action is queued.
var ErrNothingPending = errors.New("No pending action to resolve. Nothing to apply or discard.")

// Action is a staged change waiting for the model's apply or discard.
type Action struct {
	Label      string // short summary shown with the result, e.g. "AST edit: 3 replacements in 2 files"
	SourceTool string // tool that staged it ("ast_edit"); "custom_tool" when empty
	// Apply commits the change; reason is informational.
	Apply func(ctx context.Context, reason string) (*tool.Result, error)
	// Reject, when set, runs on discard; a nil result means "use the
	// default discard message".
	Reject func(ctx context.Context, reason string) (*tool.Result, error)
}

// Queue holds a session's pending actions, oldest first. resolve always
// acts on the oldest. It is safe for concurrent use.
type Queue struct {
	mu      sync.Mutex
	actions []*Action

	// OnPush, when set, is called after an action is queued (outside the
	// lock): the session forces a one-shot resolve tool choice and adds
	// Reminder as a steering message there.
	OnPush func(a *Action)
}

// NewQueue returns an empty queue.
func NewQueue() *Queue { return &Queue{} }

// Push queues an action.
func (q *Queue) Push(a *Action) {
	if a.SourceTool == "" {
		a.SourceTool = "custom_tool"
	}
	q.mu.Lock()
	q.actions = append(q.actions, a)
	hook := q.OnPush
	q.mu.Unlock()
	if hook != nil {
		hook(a)
	}
}

// Peek returns the oldest pending action, or nil.
func (q *Queue) Peek() *Action {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.actions) == 0 {
		return nil
	}
	return q.actions[0]
}

// Len returns the number of pending actions.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.actions)
}

// remove drops a (if still queued).
func (q *Queue) remove(a *Action) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, x := range q.actions {
		if x == a {
			q.actions = append(q.actions[:i], q.actions[i+1:]...)
			return
		}
	}
}
