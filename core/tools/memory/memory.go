// Package memory is the long-term memory tools of the hindsight backend
// (memory.backend=hindsight): recall finds memories, reflect asks the
// server to reason over them, retain queues new ones. They share the
// session's hindsight.Bank (subagents use their parent's).
package memory

import (
	"context"
	"fmt"

	"github.com/gopi-agent/gopi/core/hindsight"
	"github.com/gopi-agent/gopi/core/tool"
)

// Tool names.
const (
	RecallName  = "recall"
	RetainName  = "retain"
	ReflectName = "reflect"
)

// errNoBank is the error of a call in a session without a bank.
var errNoBank = tool.Errorf("the memory backend is not running in this session; set memory.backend to hindsight and start a new session")

// Recall is the recall tool.
type Recall struct{ bank *hindsight.Bank }

// Retain is the retain tool.
type Retain struct{ bank *hindsight.Bank }

// Reflect is the reflect tool.
type Reflect struct{ bank *hindsight.Bank }

// NewRecall returns recall over bank.
func NewRecall(bank *hindsight.Bank) tool.Tool { return &Recall{bank} }

// NewRetain returns retain over bank.
func NewRetain(bank *hindsight.Bank) tool.Tool { return &Retain{bank} }

// NewReflect returns reflect over bank.
func NewReflect(bank *hindsight.Bank) tool.Tool { return &Reflect{bank} }

// Definition describes recall.
func (*Recall) Definition() tool.Definition {
	return tool.Definition{
		Name:  RecallName,
		Label: "Recall",
		Description: "Searches your long-term memory (facts and experiences kept across sessions) for what bears on a question.\n\n" +
			"Use it before asking the user something they may have told you before, or when past decisions matter. It returns the matching memories as they were stored; use reflect for a reasoned answer.",
		Parameters: tool.Object(map[string]*tool.Schema{"query": tool.String("what to look for, in natural language")}, "query"),
		ReadOnly:   true,
	}
}

// Execute recalls.
func (t *Recall) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	if t.bank == nil {
		return nil, errNoBank
	}
	var a struct {
		Query string `json:"query"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	text, err := t.bank.Recall(ctx, a.Query)
	if err != nil {
		return nil, tool.Errorf("%v", err)
	}
	return tool.TextResult(text, map[string]any{}), nil
}

// Definition describes reflect.
func (*Reflect) Definition() tool.Definition {
	return tool.Definition{
		Name:  ReflectName,
		Label: "Reflect",
		Description: "Answers a question by reasoning over your long-term memory as a whole (the memory server writes the answer).\n\n" +
			"Use it for questions that need several memories put together, such as the user's preferences or a project's conventions.",
		Parameters: tool.Object(map[string]*tool.Schema{
			"query":   tool.String("the question to answer from memory"),
			"context": tool.String("what the answer is for, to guide it (optional)"),
		}, "query"),
		ReadOnly: true,
	}
}

// Execute reflects.
func (t *Reflect) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	if t.bank == nil {
		return nil, errNoBank
	}
	var a struct {
		Query   string `json:"query"`
		Context string `json:"context"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	text, err := t.bank.Reflect(ctx, a.Query, a.Context)
	if err != nil {
		return nil, tool.Errorf("%v", err)
	}
	return tool.TextResult(text, map[string]any{}), nil
}

// Definition describes retain.
func (*Retain) Definition() tool.Definition {
	item := tool.Object(map[string]*tool.Schema{
		"content": tool.String("the fact, decision or preference, complete on its own"),
		"context": tool.String("where it came from (optional)"),
	}, "content")
	return tool.Definition{
		Name:  RetainName,
		Label: "Retain",
		Description: "Keeps facts in your long-term memory for later sessions: the user's preferences, decisions and their reasons, project conventions, lessons learnt.\n\n" +
			"Each item must make sense without this conversation. Items are written in the background; the call returns once they are queued.",
		Parameters: tool.Object(map[string]*tool.Schema{
			"items": {Type: "array", Items: item, MinItems: tool.Ptr(1), Description: "the memories to keep"},
		}, "items"),
	}
}

// Execute queues the items.
func (t *Retain) Execute(_ context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	if t.bank == nil {
		return nil, errNoBank
	}
	var a struct {
		Items []hindsight.Item `json:"items"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	if len(a.Items) == 0 {
		return nil, tool.Errorf("items is empty; give at least one memory to keep")
	}
	if err := t.bank.Retain(a.Items); err != nil {
		return nil, tool.Errorf("%v", err)
	}
	unit := "memories"
	if len(a.Items) == 1 {
		unit = "memory"
	}
	return tool.TextResult(fmt.Sprintf("%d %s queued.", len(a.Items), unit), map[string]any{"count": len(a.Items)}), nil
}
