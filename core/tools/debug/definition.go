package debug

import (
	"encoding/json"

	"github.com/gopi-agent/gopi/core/tool"
)

// actions are the tool's actions, in omp's order.
var actions = []string{
	"launch", "attach", "set_breakpoint", "remove_breakpoint", "set_instruction_breakpoint",
	"remove_instruction_breakpoint", "data_breakpoint_info", "set_data_breakpoint", "remove_data_breakpoint",
	"continue", "step_over", "step_in", "step_out", "pause", "evaluate", "stack_trace", "threads", "scopes",
	"variables", "disassemble", "read_memory", "write_memory", "modules", "loaded_sources", "custom_request",
	"output", "terminate", "sessions",
}

const description = `Debug a program through the Debug Adapter Protocol: start it under a debugger (or attach to a running process), stop it at breakpoints, step line by line, look at threads, stack frames, scopes and variables, evaluate expressions, read what it printed, and interrupt it when it hangs.

<instruction>
- Reach for this instead of bash when you need a program's state at a point in time, breakpoints or stepping.
- launch: program is required. The debugger is picked from the program's extension and the project (dlv for Go, debugpy for Python, gdb or lldb-dap for native binaries); adapter names one explicitly.
- attach: pid for a local process, port (and host) for a debug server; adapter to force one.
- set_breakpoint / remove_breakpoint: file and line, or function; condition makes a breakpoint conditional.
- continue resumes and waits a while to see whether the program stops again or keeps running; step_over, step_in and step_out move one step; pause interrupts a running program.
- threads lists threads; stack_trace shows the frames of the stopped thread; scopes needs frame_id or a current stopped frame; variables needs variable_ref or scope_id; evaluate needs expression (context "repl" passes debugger commands through where the adapter allows it); output shows what the program printed; sessions lists sessions; terminate ends the session and the program.
- timeout bounds each request of a call, not the session.
</instruction>

<caution>
- One debug session at a time: terminate it before launching another.
- Some adapters hold the program until configuration is done: when a result says configuration is pending, set your breakpoints, then continue.
- Only debuggers installed on this machine can be used: gdb, lldb-dap, python -m debugpy.adapter, dlv dap and the other known adapters; an error names the command that installs a missing one.
</caution>

<examples>
# Find where a program hangs
1. debug(action: "launch", program: "./server")
2. debug(action: "set_breakpoint", file: "src/handler.c", line: 88)
3. debug(action: "continue")
4. If it keeps running: debug(action: "pause")
5. Look around with threads, stack_trace, scopes and variables

# A raw debugger command
debug(action: "evaluate", expression: "info registers", context: "repl")
</examples>`

// argumentsSchema is the schema of custom_request's arguments: any
// object (omp's record of any values, in its JSON Schema form).
var argumentsSchema = func() *tool.Schema {
	s := &tool.Schema{Type: "object", Description: "custom request arguments"}
	s.Raw = json.RawMessage(`{"description":"custom request arguments","type":"object","patternProperties":{"^(.*)$":{}}}`)
	return s
}()

// Definition describes the tool: omp's parameters, our description.
func (t *Tool) Definition() tool.Definition {
	num := tool.Number
	str := tool.String
	return tool.Definition{
		Name:        "debug",
		Label:       "Debug",
		Description: description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"action":                {Type: "string", Enum: enum(actions)},
			"program":               str("program path"),
			"args":                  tool.Array(str(""), "program arguments"),
			"adapter":               str("debugger adapter (gdb, lldb-dap, debugpy, dlv)"),
			"cwd":                   str(""),
			"file":                  str("source file"),
			"line":                  num("source line"),
			"function":              str("function name"),
			"name":                  str("variable or data name"),
			"condition":             str("breakpoint condition"),
			"hit_condition":         str(""),
			"expression":            str("expression to evaluate"),
			"context":               str("evaluate context: watch | repl | hover | variables | clipboard"),
			"frame_id":              num(""),
			"scope_id":              num("scope variables reference"),
			"variable_ref":          num("variable reference"),
			"pid":                   num("process id for attach"),
			"port":                  num("remote attach port"),
			"host":                  str("remote attach host"),
			"levels":                num("max stack frames"),
			"memory_reference":      str("memory reference or address"),
			"instruction_reference": str(""),
			"instruction_count":     num(""),
			"instruction_offset":    num(""),
			"count":                 num("bytes to read"),
			"data":                  str("base64 memory payload"),
			"data_id":               str("data breakpoint id"),
			"access_type":           {Type: "string", Enum: enum([]string{"read", "write", "readWrite"})},
			"command":               str("custom dap request command"),
			"arguments":             argumentsSchema,
			"offset":                num(""),
			"resolve_symbols":       tool.Boolean(""),
			"allow_partial":         tool.Boolean(""),
			"start_module":          num(""),
			"module_count":          num(""),
			"timeout":               num("per-request timeout seconds"),
		}, "action"),
		// One debugger, one program: calls run alone, as in omp.
		Concurrency: tool.Exclusive,
	}
}

func enum(values []string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// readOnlyActions only read the session's state: no program starts,
// runs, stops or changes.
var readOnlyActions = map[string]bool{
	"sessions": true, "output": true, "threads": true, "stack_trace": true, "scopes": true, "variables": true,
	"disassemble": true, "read_memory": true, "modules": true, "loaded_sources": true, "data_breakpoint_info": true,
}

// Access reports what a call does for permission gates: the reading
// actions only read; launch, attach, breakpoints, stepping, evaluate
// (which may call functions), memory writes, custom requests and
// terminate run or change programs.
func (t *Tool) Access(args tool.Args) tool.Access {
	action, _ := args["action"].(string)
	return tool.Access{Tool: "debug", Writes: !readOnlyActions[action]}
}
