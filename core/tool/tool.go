package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Concurrency says whether a tool may run alongside other calls.
type Concurrency string

// Concurrency modes.
const (
	Shared    Concurrency = "shared"    // may run concurrently with other shared calls
	Exclusive Concurrency = "exclusive" // runs alone: no other call starts until it ends
)

// Definition is what a tool says about itself.
type Definition struct {
	Name         string      // identifier the model calls, e.g. "read"
	Label        string      // short human-facing title, e.g. "Read"
	Description  string      // model-facing description, in our own words
	Parameters   *Schema     // JSON Schema of the arguments (an object schema)
	Concurrency  Concurrency // Shared unless the tool mutates shared state
	NonAbortable bool        // an abort request does not interrupt a running call
	// ReadOnly declares that no call changes anything outside the
	// conversation: it writes no file and runs or stops no program.
	// Permission gates pass such calls unless the user names the tool; a
	// tool that does not declare it is treated as one that writes or runs.
	ReadOnly bool
}

// UpdateFunc receives partial results while a tool runs (streaming output,
// progress). It may be nil; tools must check or use Update.
type UpdateFunc func(partial *Result)

// Update calls fn with partial when fn is not nil.
func (fn UpdateFunc) Update(partial *Result) {
	if fn != nil {
		fn(partial)
	}
}

// Tool is one callable tool.
type Tool interface {
	// Definition describes the tool; it must not change while registered.
	Definition() Definition
	// Execute runs one call with arguments already validated against the
	// schema. A returned error becomes an error result; an error wrapping
	// ErrAborted (or the context's error once ctx is done) is an abort.
	Execute(ctx context.Context, args Args, onUpdate UpdateFunc) (*Result, error)
}

// Result is a tool's answer.
type Result struct {
	Content []Content // blocks shown to the model, usually one text block
	Details any       // structured details for renderers and the session (JSON-encodable)
	IsError bool      // the call failed; Content holds the error text
}

// TextResult returns a result with one text block and details.
func TextResult(text string, details any) *Result {
	return &Result{Content: []Content{Text(text)}, Details: details}
}

// FirstText returns the text of the first text block, or "".
func (r *Result) FirstText() string {
	for _, c := range r.Content {
		if t, ok := c.(*TextContent); ok {
			return t.Text
		}
	}
	return ""
}

// AppendText adds s to the end of the last text block (a new text block
// when there is none): a notice after the tool's own text.
func (r *Result) AppendText(s string) {
	if s == "" {
		return
	}
	for i := len(r.Content) - 1; i >= 0; i-- {
		if t, ok := r.Content[i].(*TextContent); ok {
			r.Content[i] = Text(t.Text + s)
			return
		}
	}
	r.Content = append(r.Content, Text(strings.TrimLeft(s, "\n")))
}

// MarshalJSON encodes {"content":[…],"details":…,"isError":…}.
func (r *Result) MarshalJSON() ([]byte, error) {
	content := r.Content
	if content == nil {
		content = []Content{}
	}
	return json.Marshal(struct {
		Content []Content `json:"content"`
		Details any       `json:"details,omitempty"`
		IsError bool      `json:"isError,omitempty"`
	}{content, r.Details, r.IsError})
}

// ErrAborted marks a call stopped by its caller. Run returns an error
// wrapping it; tools may return it (or ctx.Err()) when they notice the
// abort.
var ErrAborted = errors.New("tool call aborted")

// AbortRunError is returned by a tool that ends the whole run, as the
// user's abort would: the ask tool when the user dismisses its question.
// The call's result is Msg (an error result); the agent then stops the run.
// errors.Is(err, ErrAborted) holds for it.
type AbortRunError struct{ Msg string }

func (e *AbortRunError) Error() string { return e.Msg }

// Is reports that the error is an abort (ErrAborted).
func (e *AbortRunError) Is(target error) bool { return target == ErrAborted }

// Error is a user-facing tool failure: its message is what the model sees,
// so it says what was wrong and what to do.
type Error struct {
	Msg string
	Err error // optional cause, for errors.Is/As
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns a user-facing *Error. A %w verb records the cause.
func Errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &Error{Msg: err.Error(), Err: errors.Unwrap(err)}
}

// Run validates raw JSON arguments against t's schema, executes t and
// returns its result. Invalid arguments and execution errors become results
// with IsError (never a Go error). An abort — ctx cancelled, or the tool
// returning an error wrapping ErrAborted or context.Canceled — returns an
// error wrapping ErrAborted and an error result saying so; a tool's own
// AbortRunError keeps its text as the result and is returned wrapped.
func Run(ctx context.Context, t Tool, raw json.RawMessage, onUpdate UpdateFunc) (*Result, error) {
	args, err := DecodeArgs(t.Definition(), raw)
	if err != nil {
		return ErrorResult(err), nil
	}
	return Invoke(ctx, t, args, onUpdate)
}

// Invoke executes t with arguments already decoded by DecodeArgs, with
// Run's error handling: execution errors and panics become error results,
// an abort returns an error wrapping ErrAborted beside an error result.
// The agent loop calls it after its tool_call hooks have seen the
// validated arguments.
func Invoke(ctx context.Context, t Tool, args Args, onUpdate UpdateFunc) (*Result, error) {
	name := t.Definition().Name
	if err := ctx.Err(); err != nil {
		return abortResult(name), fmt.Errorf("%s: %w", name, ErrAborted)
	}
	res, err := executeGuarded(ctx, t, args, onUpdate)
	if err != nil {
		var stop *AbortRunError
		if errors.As(err, &stop) && ctx.Err() == nil {
			return ErrorResult(stop), fmt.Errorf("%s: %w", name, err)
		}
		if errors.Is(err, ErrAborted) || errors.Is(err, context.Canceled) || (ctx.Err() != nil && errors.Is(err, ctx.Err())) {
			return abortResult(name), fmt.Errorf("%s: %w", name, ErrAborted)
		}
		return ErrorResult(err), nil
	}
	if res == nil {
		res = &Result{}
	}
	return res, nil
}

// executeGuarded runs t.Execute and turns a panic into an error, so one
// broken tool cannot take the agent down.
func executeGuarded(ctx context.Context, t Tool, args Args, onUpdate UpdateFunc) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("tool %s failed with an internal error (panic: %v); this is a bug in the tool, not in your arguments", t.Definition().Name, r)
		}
	}()
	return t.Execute(ctx, args, onUpdate)
}

// ErrorResult turns an error into an error result with its text.
func ErrorResult(err error) *Result {
	return &Result{Content: []Content{Text(strings.TrimSpace(err.Error()))}, IsError: true}
}

func abortResult(name string) *Result {
	return &Result{Content: []Content{Text("Tool " + name + " was aborted")}, IsError: true}
}
