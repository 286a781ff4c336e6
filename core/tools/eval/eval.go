package eval

import (
	"context"
	"fmt"
	"time"

	"github.com/gopi-agent/gopi/core/eval/cell"
	"github.com/gopi-agent/gopi/core/tool"
)

// Backend is a runtime cells run in: one per language per session.
type Backend interface {
	// Run runs one cell; text goes to req.Output as it comes. An error
	// means the cell could not run at all (the runtime cannot start).
	Run(ctx context.Context, req cell.Request) (cell.Result, error)
}

// Backends are the runtimes of a session; a nil one is off.
type Backends struct {
	Python Backend
	JS     Backend
	// PythonMissing, when not nil, says why Python cannot run (no
	// interpreter): cells that do not ask for Python by name go to
	// JavaScript instead.
	PythonMissing func() error
}

// Tool is the eval tool of a session.
type Tool struct {
	env *tool.Env
	b   Backends
}

// New returns the eval tool over the session's runtimes.
func New(env *tool.Env, b Backends) *Tool { return &Tool{env: env, b: b} }

// Available reports whether eval can be offered: JavaScript is on, or
// Python is on and an interpreter was found.
func Available(b Backends) bool {
	return b.JS != nil || (b.Python != nil && (b.PythonMissing == nil || b.PythonMissing() == nil))
}

// Definition describes the tool; the description names the runtimes that
// are on.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        "eval",
		Label:       "Eval",
		Description: description(t.b.Python != nil, t.b.JS != nil),
		Parameters: tool.Object(map[string]*tool.Schema{
			"input": tool.String("eval input as a sequence of `*** Cell <lang>:\"title\"` cell headers followed by code"),
		}, "input"),
		Concurrency: tool.Exclusive,
	}
}

// resolved is a cell with the backend it runs in.
type resolved struct {
	Cell
	backend Backend
	lang    Language
	notice  string
}

// resolve picks each cell's backend: the language its header names, else
// the previous cell's, else its sniffed one; Python when it can run,
// JavaScript otherwise.
func (t *Tool) resolve(cells []Cell) ([]resolved, error) {
	out := make([]resolved, 0, len(cells))
	var prev Language
	for _, c := range cells {
		want, explicit := c.Language, c.Explicit
		if !explicit && prev != "" {
			want, explicit = prev, true
		}
		r := resolved{Cell: c}
		var err error
		r.lang, r.notice, err = t.pick(want, explicit, c.Code)
		if err != nil {
			return nil, err
		}
		if r.lang == Python {
			r.backend = t.b.Python
		} else {
			r.backend = t.b.JS
		}
		prev = r.lang
		out = append(out, r)
	}
	return out, nil
}

// pick chooses the language of one cell.
func (t *Tool) pick(want Language, explicit bool, code string) (Language, string, error) {
	pyOK := t.b.Python != nil && (t.b.PythonMissing == nil || t.b.PythonMissing() == nil)
	jsOK := t.b.JS != nil
	if explicit {
		switch {
		case want == Python && t.b.Python == nil:
			return "", "", tool.Errorf("Python cells are turned off (eval.py is false, or PI_PY selects JavaScript only); write the cell in JavaScript (*** Cell js:\"title\") or turn eval.py on.")
		case want == Python && !pyOK:
			return "", "", tool.Errorf("Python cannot run here: %v. Write the cell in JavaScript (*** Cell js:\"title\") instead.", t.b.PythonMissing())
		case want == JS && !jsOK:
			return "", "", tool.Errorf("JavaScript cells are turned off (eval.js is false, or PI_PY selects Python only); write the cell in Python (*** Cell py:\"title\") or turn eval.js on.")
		}
		return want, "", nil
	}
	sniffed, _ := Sniff(code)
	switch {
	case sniffed == JS && jsOK:
		return JS, "", nil
	case pyOK:
		if sniffed == JS {
			return Python, "The code looks like JavaScript but JavaScript cells are off; it ran as Python.", nil
		}
		return Python, "", nil
	case jsOK:
		if sniffed == Python {
			return JS, "The code looks like Python but Python cannot run here; it ran as JavaScript.", nil
		}
		return JS, "", nil
	}
	return "", "", tool.Errorf("No runtime can run eval cells: turn on eval.py (with a python3 installed) or eval.js.")
}

// Execute parses the input and runs its cells in order.
func (t *Tool) Execute(ctx context.Context, args tool.Args, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	var in struct {
		Input string `json:"input"`
	}
	if err := args.Decode(&in); err != nil {
		return nil, err
	}
	parsed, err := Parse(in.Input)
	if err != nil {
		return nil, &tool.Error{Msg: err.Error()}
	}
	if len(parsed.Cells) == 0 {
		if parsed.Aborted {
			return tool.TextResult(abortWarning, nil), nil
		}
		return nil, tool.Errorf("eval input has no code: start each cell with a header line such as %s, then its code on the next lines", headerForm)
	}
	cells, err := t.resolve(parsed.Cells)
	if err != nil {
		return nil, err
	}
	run := newRun(t.env, cells, parsed.Aborted, onUpdate)
	for i := range cells {
		if stop, err := run.cell(ctx, i); err != nil || stop {
			if err != nil {
				return nil, err
			}
			break
		}
	}
	return run.result(), nil
}

// timeoutLine is the line after the output of a cell stopped by its
// timeout.
func timeoutLine(d time.Duration) string {
	return fmt.Sprintf("Command timed out after %d seconds", max(1, int((d+500*time.Millisecond)/time.Second)))
}
