package debug

import (
	"context"
	"errors"
	"time"

	godap "github.com/google/go-dap"

	"github.com/gopi-agent/gopi/core/dap"
)

// run dispatches the action and returns the result text.
func (c *call) run(ctx context.Context) (string, error) {
	a, m := c.a, c.t.dbg
	switch a.Action {
	case "launch":
		return c.launch(ctx)
	case "attach":
		return c.attach(ctx)
	case "set_breakpoint", "remove_breakpoint":
		return c.breakpoint(ctx)
	case "set_instruction_breakpoint", "remove_instruction_breakpoint":
		return c.instructionBreakpoint(ctx)
	case "data_breakpoint_info", "set_data_breakpoint", "remove_data_breakpoint":
		return c.dataBreakpoint(ctx)
	case "continue", "step_over", "step_in", "step_out":
		return c.resume(ctx)
	case "pause":
		s, err := m.Control().Pause(ctx, c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		return join(snapshotLines(s), "Program paused."), nil
	case "evaluate":
		if a.Expression == "" {
			return "", errors.New("expression is required for evaluate")
		}
		evalContext := a.Context
		if evalContext == "" {
			evalContext = "repl"
		}
		ev, s, err := m.Inspect().Evaluate(ctx, a.Expression, evalContext, integer(a.FrameID), c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.Evaluation = ev
		return formatEvaluation(ev), nil
	case "stack_trace":
		frames, s, err := m.Inspect().StackTrace(ctx, integer(a.Levels), c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.StackFrames = nonNil(frames)
		return formatStackFrames(frames), nil
	case "threads":
		threads, s, err := m.Inspect().Threads(ctx, c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.Threads = nonNil(threads)
		return formatThreads(threads), nil
	case "scopes":
		scopes, s, err := m.Inspect().Scopes(ctx, integer(a.FrameID), c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.Scopes = nonNil(scopes)
		return formatScopes(scopes), nil
	case "variables":
		ref := integer(a.VariableRef)
		if ref == nil {
			ref = integer(a.ScopeID)
		}
		if ref == nil {
			return "", errors.New("variables requires variable_ref or scope_id")
		}
		vars, s, err := m.Inspect().Variables(ctx, *ref, c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.Variables = nonNil(vars)
		return formatVariables(vars), nil
	case "disassemble", "read_memory", "write_memory":
		return c.memory(ctx)
	case "modules":
		if err := c.require(func(k godap.Capabilities) bool { return k.SupportsModulesRequest }, "module introspection"); err != nil {
			return "", err
		}
		mods, s, err := m.Inspect().Modules(ctx, integer(a.StartModule), integer(a.ModuleCount), c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.Modules = nonNil(mods)
		return formatModules(mods), nil
	case "loaded_sources":
		if err := c.require(func(k godap.Capabilities) bool { return k.SupportsLoadedSourcesRequest }, "loaded sources"); err != nil {
			return "", err
		}
		srcs, s, err := m.Inspect().LoadedSources(ctx, c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.Sources = nonNil(srcs)
		return formatLoadedSources(srcs), nil
	case "custom_request":
		if a.Command == "" {
			return "", errors.New("command is required for custom_request")
		}
		body, s, err := m.Inspect().Custom(ctx, a.Command, a.Arguments, c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.CustomBody = body
		return formatCustom(a.Command, body), nil
	case "output":
		text, s, err := m.Output()
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.Output = &text
		if text == "" {
			return "(no output captured)", nil
		}
		return text, nil
	case "terminate":
		s, ok := m.Terminate(ctx, c.timeout)
		if !ok {
			return "No debug session to terminate.", nil
		}
		c.snap(s)
		return join(snapshotLines(s), "Debug session terminated."), nil
	case "sessions":
		sessions := m.Sessions()
		c.d.Sessions = sessions
		return formatSessions(sessions), nil
	}
	return "", errors.New("Unsupported debug action: " + a.Action)
}

func (c *call) launch(ctx context.Context) (string, error) {
	if c.a.Program == "" {
		return "", errors.New("program is required for launch")
	}
	cwd := c.cwd()
	program := resolveIn(cwd, c.t.env.ExpandHome(c.a.Program))
	adapter, err := c.resolver().SelectLaunch(program, cwd, c.a.Adapter)
	if err != nil {
		return "", err
	}
	s, err := c.t.dbg.Launch(ctx, dap.LaunchOptions{Adapter: adapter, Program: program, Args: c.a.Args, Cwd: cwd}, c.timeout)
	if err != nil {
		return "", err
	}
	c.snap(s)
	c.d.Adapter = adapter.Name
	return join(snapshotLines(s)), nil
}

func (c *call) attach(ctx context.Context) (string, error) {
	if c.a.PID == nil && c.a.Port == nil {
		return "", errors.New("attach requires pid or port")
	}
	cwd := c.cwd()
	adapter, err := c.resolver().SelectAttach(cwd, c.a.Adapter, c.a.Port != nil)
	if err != nil {
		return "", err
	}
	s, err := c.t.dbg.Attach(ctx, dap.AttachOptions{Adapter: adapter, Cwd: cwd, PID: integer(c.a.PID), Port: integer(c.a.Port), Host: c.a.Host}, c.timeout)
	if err != nil {
		return "", err
	}
	c.snap(s)
	c.d.Adapter = adapter.Name
	return join(snapshotLines(s)), nil
}

func (c *call) breakpoint(ctx context.Context) (string, error) {
	a, m := c.a, c.t.dbg
	set := a.Action == "set_breakpoint"
	if a.Function != "" {
		var bps []dap.FunctionBreakpoint
		var s dap.Summary
		var err error
		if set {
			bps, s, err = m.Breakpoints().SetFunction(ctx, a.Function, a.Condition, c.timeout)
		} else {
			bps, s, err = m.Breakpoints().RemoveFunction(ctx, a.Function, c.timeout)
		}
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.FunctionBreakpoints = nonNil(bps)
		return formatFunctionBreakpoints(bps), nil
	}
	if a.File == "" || a.Line == nil {
		return "", errors.New(a.Action + " requires file+line or function")
	}
	file := c.t.env.Resolve(a.File)
	var bps []dap.SourceBreakpoint
	var path string
	var s dap.Summary
	var err error
	if set {
		bps, path, s, err = m.Breakpoints().SetLine(ctx, file, int(*a.Line), a.Condition, c.timeout)
	} else {
		bps, path, s, err = m.Breakpoints().RemoveLine(ctx, file, int(*a.Line), c.timeout)
	}
	if err != nil {
		return "", err
	}
	c.snap(s)
	c.d.Breakpoints = nonNil(bps)
	return formatBreakpoints(path, bps), nil
}

func (c *call) instructionBreakpoint(ctx context.Context) (string, error) {
	a, m := c.a, c.t.dbg
	if err := c.require(func(k godap.Capabilities) bool { return k.SupportsInstructionBreakpoints }, "instruction breakpoints"); err != nil {
		return "", err
	}
	if a.InstructionReference == "" {
		return "", errors.New("instruction_reference is required for " + a.Action)
	}
	var bps []dap.InstructionBreakpoint
	var s dap.Summary
	var err error
	if a.Action == "set_instruction_breakpoint" {
		bps, s, err = m.Breakpoints().SetInstruction(ctx, a.InstructionReference, integer(a.Offset), a.Condition, a.HitCondition, c.timeout)
	} else {
		bps, s, err = m.Breakpoints().RemoveInstruction(ctx, a.InstructionReference, integer(a.Offset), c.timeout)
	}
	if err != nil {
		return "", err
	}
	c.snap(s)
	c.d.InstructionBreakpoints = nonNil(bps)
	return formatInstructionBreakpoints(bps), nil
}

func (c *call) dataBreakpoint(ctx context.Context) (string, error) {
	a, m := c.a, c.t.dbg
	if err := c.require(func(k godap.Capabilities) bool { return k.SupportsDataBreakpoints }, "data breakpoints"); err != nil {
		return "", err
	}
	if a.Action == "data_breakpoint_info" {
		if a.Name == "" {
			return "", errors.New("name is required for data_breakpoint_info")
		}
		ref := integer(a.VariableRef)
		if ref == nil {
			ref = integer(a.ScopeID)
		}
		info, s, err := m.Breakpoints().DataInfo(ctx, a.Name, ref, integer(a.FrameID), c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.DataBreakpointInfo = info
		return formatDataBreakpointInfo(info), nil
	}
	if a.DataID == "" {
		return "", errors.New("data_id is required for " + a.Action)
	}
	var bps []dap.DataBreakpoint
	var s dap.Summary
	var err error
	if a.Action == "set_data_breakpoint" {
		bps, s, err = m.Breakpoints().SetData(ctx, a.DataID, a.AccessType, a.Condition, a.HitCondition, c.timeout)
	} else {
		bps, s, err = m.Breakpoints().RemoveData(ctx, a.DataID, c.timeout)
	}
	if err != nil {
		return "", err
	}
	c.snap(s)
	c.d.DataBreakpoints = nonNil(bps)
	return formatDataBreakpoints(bps), nil
}

// verbs are the outcome texts' names of the resuming actions.
var verbs = map[string]string{"continue": "Continue", "step_over": "Step over", "step_in": "Step in", "step_out": "Step out"}

func (c *call) resume(ctx context.Context) (string, error) {
	m := c.t.dbg
	run := map[string]func(context.Context, time.Duration) (dap.Outcome, error){
		"continue": m.Control().Continue, "step_over": m.Control().StepOver, "step_in": m.Control().StepIn, "step_out": m.Control().StepOut,
	}[c.a.Action]
	o, err := run(ctx, c.timeout)
	if err != nil {
		return "", err
	}
	c.snap(o.Summary)
	c.d.State = o.State
	c.d.TimedOut = &o.TimedOut
	return formatOutcome(o, c.secs, verbs[c.a.Action]), nil
}

func (c *call) memory(ctx context.Context) (string, error) {
	a, m := c.a, c.t.dbg
	switch a.Action {
	case "disassemble":
		if err := c.require(func(k godap.Capabilities) bool { return k.SupportsDisassembleRequest }, "disassembly"); err != nil {
			return "", err
		}
		if a.InstructionCount == nil {
			return "", errors.New("instruction_count is required for disassemble")
		}
		ref := a.MemoryReference
		if ref == "" {
			if s, ok := m.Active(); ok {
				ref = s.InstructionPointerReference
			}
		}
		if ref == "" {
			return "", errors.New("disassemble requires memory_reference unless the current stop location has an instruction pointer reference")
		}
		ins, s, err := m.Inspect().Disassemble(ctx, ref, int(*a.InstructionCount), integer(a.Offset), integer(a.InstructionOffset), a.ResolveSymbols, c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.Disassembly = nonNil(ins)
		return formatDisassembly(ins), nil
	case "read_memory":
		if err := c.require(func(k godap.Capabilities) bool { return k.SupportsReadMemoryRequest }, "memory reads"); err != nil {
			return "", err
		}
		if a.MemoryReference == "" {
			return "", errors.New("memory_reference is required for read_memory")
		}
		if a.Count == nil {
			return "", errors.New("count is required for read_memory")
		}
		r, s, err := m.Inspect().ReadMemory(ctx, a.MemoryReference, int(*a.Count), integer(a.Offset), c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.MemoryAddress, c.d.MemoryData, c.d.UnreadableBytes = r.Address, r.Data, r.UnreadableBytes
		return formatMemory(r.Address, r.Data, r.UnreadableBytes), nil
	default:
		if err := c.require(func(k godap.Capabilities) bool { return k.SupportsWriteMemoryRequest }, "memory writes"); err != nil {
			return "", err
		}
		if a.MemoryReference == "" {
			return "", errors.New("memory_reference is required for write_memory")
		}
		if a.Data == "" {
			return "", errors.New("data is required for write_memory")
		}
		w, s, err := m.Inspect().WriteMemory(ctx, a.MemoryReference, a.Data, integer(a.Offset), a.AllowPartial, c.timeout)
		if err != nil {
			return "", err
		}
		c.snap(s)
		c.d.BytesWritten = w.BytesWritten
		return formatMemoryWrite(w), nil
	}
}

// require checks that there is a session and that its adapter has the
// capability has says.
func (c *call) require(has func(godap.Capabilities) bool, what string) error {
	caps, ok := c.t.dbg.Capabilities()
	if !ok {
		return dap.ErrNoSession
	}
	if !has(caps) {
		return errors.New("Current adapter does not support " + what)
	}
	return nil
}
