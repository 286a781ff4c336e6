// Package resolve is the hidden resolve tool and the pending-action queue
// behind it.
//
// A tool that previews a change (ast_edit) pushes an Action on the
// session's Queue instead of writing; the session then forces a one-shot
// call of resolve and adds the Reminder steering message. resolve takes
// the oldest pending action and applies it or discards it; the action
// leaves the queue either way, also when its callback fails (a stale
// preview must be made again, not retried).
//
// The tool is hidden: it is not listed in the model's normal tool index
// (see Tool.Hidden) and is only offered while an action is pending.
package resolve

import (
	"context"
	"fmt"

	"github.com/gopi-agent/gopi/core/tool"
)

const description = `Apply or discard the change that the previous tool call staged as a preview.
Use action "apply" to write it, or "discard" to drop it; give a short reason either way.`

// Tool is the resolve tool bound to a session's queue.
type Tool struct{ queue *Queue }

// New returns the resolve tool over q, the session's queue (its services
// own it; ast_edit and extensions push their previews there).
func New(q *Queue) tool.Tool { return &Tool{queue: q} }

// Hidden reports that the tool is left out of the normal tool index.
func (t *Tool) Hidden() bool { return true }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        "resolve",
		Label:       "Resolve",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"action": {Type: "string", Enum: []any{"apply", "discard"}, Description: "apply writes the staged change; discard drops it"},
			"reason": {Type: "string", Description: "Why you apply or discard it"},
		}, "action", "reason"),
		Concurrency: tool.Exclusive,
	}
}

// Details is the structured part of a resolve result.
type Details struct {
	Action              string `json:"action"`
	Reason              string `json:"reason"`
	SourceToolName      string `json:"sourceToolName,omitempty"`
	Label               string `json:"label,omitempty"`
	SourceResultDetails any    `json:"sourceResultDetails,omitempty"`
}

// Execute applies or discards the oldest pending action.
func (t *Tool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Action string `json:"action"`
		Reason string `json:"reason"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	act := t.queue.Peek()
	if act == nil {
		return nil, &tool.Error{Msg: ErrNothingPending.Error(), Err: ErrNothingPending}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var res *tool.Result
	var err error
	switch a.Action {
	case "apply":
		res, err = act.Apply(ctx, a.Reason)
	case "discard":
		if act.Reject != nil {
			res, err = act.Reject(ctx, a.Reason)
		}
		if err == nil && res == nil {
			res = tool.TextResult(fmt.Sprintf("Discarded: %s. Reason: %s", act.Label, a.Reason), nil)
		}
	default:
		return nil, tool.Errorf("Unknown action %q: use apply or discard.", a.Action)
	}
	t.queue.remove(act)
	if err != nil {
		return nil, err
	}
	d := &Details{Action: a.Action, Reason: a.Reason, SourceToolName: act.SourceTool, Label: act.Label}
	if res.Details != nil {
		d.SourceResultDetails = res.Details
	}
	res.Details = d
	return res, nil
}

// Access reports what a resolve call does: applying the oldest preview
// needs the permission of the tool that staged it; discarding needs none.
func (t *Tool) Access(args tool.Args) tool.Access {
	if action, _ := args["action"].(string); action != "apply" {
		return tool.Access{}
	}
	a := t.queue.Peek()
	if a == nil {
		return tool.Access{} // the call fails: nothing is pending
	}
	return tool.Access{Tool: a.SourceTool, Writes: true, Summary: "Apply " + a.Label}
}
