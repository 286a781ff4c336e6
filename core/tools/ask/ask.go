// Package ask is the ask tool: the model asks the user to choose among
// options (or to type an answer of their own) through the session's UI.
// It exists only where a UI does (RPC mode, later the TUI); a question
// left unanswered past ask.timeout takes its recommended option, or the
// first one. A question the user dismisses ends the run (the call fails
// with "Ask tool was cancelled by the user" and the agent stops).
package ask

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// Texts of the dialog and the errors the spec names.
const (
	otherOption       = "Other (type your own)"
	doneOption        = "Done selecting"
	recommendedSuffix = " (Recommended)"
	errNoUI           = "Ask tool requires interactive mode"
	errCancelled      = "Ask tool was cancelled by the user"
)

const description = `Ask the user a question when you need a decision only they can make (which approach, which file, whether to go on).
Give each question an id, the question, and 2-5 short option labels; the user may also type their own answer, so do not add an "other" option.
Set multi to let them pick several, and recommended to the index of the option you suggest (it is taken when they do not answer in time).`

// Tool is the ask tool of a session.
type Tool struct{ env *tool.Env }

// New returns the ask tool for env.
func New(env *tool.Env) tool.Tool { return &Tool{env: env} }

// Available reports whether the session has a UI to ask through; the
// registry offers the tool only then.
func Available(env *tool.Env) bool { return env.UI != nil }

// Definition describes the tool.
func (t *Tool) Definition() tool.Definition {
	option := tool.Object(map[string]*tool.Schema{"label": tool.String("what the user sees")}, "label")
	question := tool.Object(map[string]*tool.Schema{
		"id":          tool.String("stable id, used in the answer"),
		"question":    tool.String("the question"),
		"options":     tool.Array(option, "the choices"),
		"multi":       tool.Boolean("allow several choices"),
		"recommended": tool.Integer("index of the suggested option"),
	}, "id", "question", "options")
	return tool.Definition{
		Name:        "ask",
		Label:       "Ask",
		Description: description,
		Parameters:  tool.Object(map[string]*tool.Schema{"questions": {Type: "array", Items: question, MinItems: tool.Ptr(1)}}, "questions"),
		Concurrency: tool.Exclusive,
		ReadOnly:    true,
	}
}

// question is one question of a call.
type question struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	Options  []struct {
		Label string `json:"label"`
	} `json:"options"`
	Multi       bool `json:"multi"`
	Recommended *int `json:"recommended"`
}

// Result is one question's answer in the details.
type Result struct {
	ID              string   `json:"id,omitempty"`
	Question        string   `json:"question"`
	Options         []string `json:"options"`
	Multi           bool     `json:"multi"`
	SelectedOptions []string `json:"selectedOptions"`
	CustomInput     string   `json:"customInput,omitempty"`
}

// Execute asks every question in order.
func (t *Tool) Execute(ctx context.Context, args tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a struct {
		Questions []question `json:"questions"`
	}
	if err := args.Decode(&a); err != nil {
		return nil, err
	}
	if t.env.UI == nil {
		return nil, tool.Errorf(errNoUI)
	}
	if len(a.Questions) == 0 {
		return tool.TextResult("Error: questions must not be empty", nil), nil
	}
	timeout := time.Duration(t.env.Settings.AskTimeout) * time.Second
	if t.env.PlanMode() != nil {
		timeout = 0 // while planning, questions wait for the user
	}
	var results []Result
	for _, q := range a.Questions {
		r, err := t.ask(ctx, q, timeout)
		if err != nil {
			return nil, err
		}
		results = append(results, r)
	}
	if len(results) == 1 {
		return tool.TextResult(answerText(results[0]), results[0]), nil
	}
	var b strings.Builder
	b.WriteString("User answers:")
	for _, r := range results {
		fmt.Fprintf(&b, "\n%s: %s", r.ID, strings.TrimPrefix(answerText(r), "User "))
	}
	return tool.TextResult(b.String(), map[string]any{"results": results}), nil
}

// ask asks one question.
func (t *Tool) ask(ctx context.Context, q question, timeout time.Duration) (Result, error) {
	r := Result{ID: q.ID, Question: q.Question, Multi: q.Multi, SelectedOptions: []string{}}
	for _, o := range q.Options {
		r.Options = append(r.Options, o.Label)
	}
	rec := -1
	if q.Recommended != nil && *q.Recommended >= 0 && *q.Recommended < len(r.Options) {
		rec = *q.Recommended
	}
	labels := make([]string, len(r.Options))
	for i, o := range r.Options {
		labels[i] = o
		if i == rec && !q.Multi {
			labels[i] += recommendedSuffix
		}
	}
	fallback := func() Result {
		if len(r.Options) > 0 {
			i := max(rec, 0)
			r.SelectedOptions = []string{r.Options[i]}
		}
		return r
	}
	for {
		menu := append(append([]string(nil), labels...), otherOption)
		if q.Multi && len(r.SelectedOptions) > 0 {
			menu = append(menu, doneOption)
		}
		choice, err := t.env.UI.Select(ctx, q.Question, menu, timeout)
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return r, fmt.Errorf("%w: Ask input was cancelled", tool.ErrAborted)
		case errors.Is(err, tool.ErrDialogTimedOut):
			if len(r.SelectedOptions) > 0 {
				return r, nil // a multi-select keeps what was picked
			}
			return fallback(), nil
		default: // dismissed: the run ends, as the spec has it
			return r, &tool.AbortRunError{Msg: errCancelled}
		}
		switch choice {
		case doneOption:
			return r, nil
		case otherOption:
			text, err := t.env.UI.Editor(ctx, q.Question, "", 0)
			switch {
			case err == nil:
			case ctx.Err() != nil:
				return r, fmt.Errorf("%w: Ask input was cancelled", tool.ErrAborted)
			default:
				return r, &tool.AbortRunError{Msg: errCancelled}
			}
			r.CustomInput = text
			return r, nil
		}
		choice = strings.TrimSuffix(choice, recommendedSuffix)
		r.SelectedOptions = append(r.SelectedOptions, choice)
		if !q.Multi {
			return r, nil
		}
	}
}

// answerText renders one answer for the model.
func answerText(r Result) string {
	var parts []string
	if len(r.SelectedOptions) > 0 {
		parts = append(parts, "User selected: "+strings.Join(r.SelectedOptions, ", "))
	}
	if r.CustomInput != "" {
		parts = append(parts, "User provided custom input: "+r.CustomInput)
	}
	if len(parts) == 0 {
		return "User selected nothing."
	}
	return strings.Join(parts, "\n")
}
