// Package debug is the debug tool: the model drives one debugger session
// over the Debug Adapter Protocol (core/dap) — launch or attach, set
// breakpoints, step, read threads, frames, scopes and variables, evaluate
// expressions, read the program's output, and terminate. Its 28 actions,
// parameters and result texts are omp 14.9.9's; the session lives in the
// gopi session's services (one dap.Manager), so it outlasts a call and
// ends with the session.
package debug

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"time"

	"github.com/gopi-agent/gopi/core/dap"
	"github.com/gopi-agent/gopi/core/shell"
	"github.com/gopi-agent/gopi/core/tool"
)

// Timeout clamp of a call, in seconds (omp's tool-timeouts).
const (
	DefaultTimeout = 30
	MinTimeout     = 5
	MaxTimeout     = 300
)

// Tool is the debug tool of a session.
type Tool struct {
	env *tool.Env
	dbg *dap.Manager
}

// New returns the debug tool for env over the session's debug sessions.
func New(env *tool.Env, dbg *dap.Manager) tool.Tool { return &Tool{env: env, dbg: dbg} }

// Available reports whether the session offers the tool (debug.enabled).
func Available(env *tool.Env) bool { return env.Settings.DebugEnabled }

// NewManager returns the debug session manager of a session with env:
// adapters run in the session's command environment (the configuration's
// plus the variables that keep programs from waiting for a terminal).
func NewManager(env *tool.Env) *dap.Manager { return dap.NewManager(dap.Options{Env: AdapterEnv(env)}) }

// AdapterEnv is the environment of debug adapters for env: the
// configuration's command environment and the non-interactive variables;
// nil (this process's environment) when the configuration gave none.
func AdapterEnv(env *tool.Env) []string {
	base := env.Settings.Shell.Environ
	if len(base) == 0 {
		return nil
	}
	out := append([]string(nil), base...)
	for _, kv := range shell.NonInteractiveEnv(env.Settings.Shell.NoCI) {
		out = append(out, kv[0]+"="+kv[1])
	}
	return out
}

// Details are the structured part of a result, with omp's names.
type Details struct {
	Action                 string                      `json:"action"`
	Success                bool                        `json:"success"`
	Snapshot               *dap.Summary                `json:"snapshot,omitempty"`
	Sessions               []dap.Summary               `json:"sessions,omitempty"`
	StackFrames            any                         `json:"stackFrames,omitempty"`
	Threads                any                         `json:"threads,omitempty"`
	Scopes                 any                         `json:"scopes,omitempty"`
	Variables              any                         `json:"variables,omitempty"`
	Sources                any                         `json:"sources,omitempty"`
	Modules                any                         `json:"modules,omitempty"`
	Evaluation             any                         `json:"evaluation,omitempty"`
	Breakpoints            []dap.SourceBreakpoint      `json:"breakpoints,omitempty"`
	FunctionBreakpoints    []dap.FunctionBreakpoint    `json:"functionBreakpoints,omitempty"`
	InstructionBreakpoints []dap.InstructionBreakpoint `json:"instructionBreakpoints,omitempty"`
	DataBreakpoints        []dap.DataBreakpoint        `json:"dataBreakpoints,omitempty"`
	DataBreakpointInfo     any                         `json:"dataBreakpointInfo,omitempty"`
	Disassembly            any                         `json:"disassembly,omitempty"`
	MemoryAddress          string                      `json:"memoryAddress,omitempty"`
	MemoryData             string                      `json:"memoryData,omitempty"`
	UnreadableBytes        *int                        `json:"unreadableBytes,omitempty"`
	BytesWritten           *int                        `json:"bytesWritten,omitempty"`
	CustomBody             json.RawMessage             `json:"customBody,omitempty"`
	Output                 *string                     `json:"output,omitempty"`
	Adapter                string                      `json:"adapter,omitempty"`
	State                  dap.Status                  `json:"state,omitempty"`
	TimedOut               *bool                       `json:"timedOut,omitempty"`
}

// args are a call's arguments.
type args struct {
	Action               string         `json:"action"`
	Program              string         `json:"program"`
	Args                 []string       `json:"args"`
	Adapter              string         `json:"adapter"`
	Cwd                  string         `json:"cwd"`
	File                 string         `json:"file"`
	Line                 *float64       `json:"line"`
	Function             string         `json:"function"`
	Name                 string         `json:"name"`
	Condition            string         `json:"condition"`
	HitCondition         string         `json:"hit_condition"`
	Expression           string         `json:"expression"`
	Context              string         `json:"context"`
	FrameID              *float64       `json:"frame_id"`
	ScopeID              *float64       `json:"scope_id"`
	VariableRef          *float64       `json:"variable_ref"`
	PID                  *float64       `json:"pid"`
	Port                 *float64       `json:"port"`
	Host                 string         `json:"host"`
	Levels               *float64       `json:"levels"`
	MemoryReference      string         `json:"memory_reference"`
	InstructionReference string         `json:"instruction_reference"`
	InstructionCount     *float64       `json:"instruction_count"`
	InstructionOffset    *float64       `json:"instruction_offset"`
	Count                *float64       `json:"count"`
	Data                 string         `json:"data"`
	DataID               string         `json:"data_id"`
	AccessType           string         `json:"access_type"`
	Command              string         `json:"command"`
	Arguments            map[string]any `json:"arguments"`
	Offset               *float64       `json:"offset"`
	ResolveSymbols       *bool          `json:"resolve_symbols"`
	AllowPartial         *bool          `json:"allow_partial"`
	StartModule          *float64       `json:"start_module"`
	ModuleCount          *float64       `json:"module_count"`
	Timeout              *float64       `json:"timeout"`
}

// integer turns an optional number into an optional int.
func integer(f *float64) *int {
	if f == nil {
		return nil
	}
	n := int(*f)
	return &n
}

// clampTimeout is the call's timeout in seconds: the default when absent,
// else within MinTimeout..MaxTimeout.
func clampTimeout(t *float64) int {
	if t == nil {
		return DefaultTimeout
	}
	return int(min(max(*t, MinTimeout), MaxTimeout))
}

// callGrace is how much longer than its timeout a call may take: each
// request has the timeout, so their own timeouts (with their texts, and
// continue's "still running" outcome) come first; the call's deadline is
// the backstop.
const callGrace = 5 * time.Second

// Execute runs one action.
func (t *Tool) Execute(ctx context.Context, raw tool.Args, _ tool.UpdateFunc) (*tool.Result, error) {
	var a args
	if err := raw.Decode(&a); err != nil {
		return nil, err
	}
	secs := clampTimeout(a.Timeout)
	timeout := time.Duration(secs) * time.Second
	cctx, cancel := context.WithTimeout(ctx, timeout+callGrace)
	defer cancel()
	c := &call{t: t, a: &a, secs: secs, timeout: timeout, d: &Details{Action: a.Action, Success: true}}
	text, err := c.run(cctx)
	switch {
	case err == nil:
		return tool.TextResult(text, c.d), nil
	case ctx.Err() != nil:
		return nil, err // the caller aborted
	case errors.Is(err, context.DeadlineExceeded):
		return nil, tool.Errorf("debug %s did not finish within its %ds timeout; call it again with a larger timeout (at most %d), or pause the program", a.Action, secs, MaxTimeout)
	}
	return nil, &tool.Error{Msg: err.Error(), Err: err}
}

// call is one execution: its arguments, timeout and details.
type call struct {
	t       *Tool
	a       *args
	secs    int
	timeout time.Duration
	d       *Details
}

// snap records a session summary in the details.
func (c *call) snap(s dap.Summary) { c.d.Snapshot = &s }

// resolver finds adapters in the session's command environment.
func (c *call) resolver() *dap.Resolver { return &dap.Resolver{Env: AdapterEnv(c.t.env)} }

// cwd is the launch or attach working directory.
func (c *call) cwd() string {
	if c.a.Cwd != "" {
		return c.t.env.Resolve(c.a.Cwd)
	}
	return c.t.env.Cwd
}

// resolveIn makes p absolute against dir.
func resolveIn(dir, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}
