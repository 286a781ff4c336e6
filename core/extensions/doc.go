// Package extensions runs omp-style TypeScript and JavaScript extensions
// in-process, without Node or Bun: modules are found (discover.go: the
// project's and the agent directory's extensions/ folders, -e paths and
// the settings' list, first path wins), bundled with esbuild's Go API
// (bundle.go: TypeScript, ES modules and CommonJS, relative imports and
// the extension's node_modules; imports of omp's packages served by the
// runtime), and run in one goja engine owned by one goroutine (vm.go:
// jobs, timers, promises, a time budget per handler). Node's built-in
// modules extensions commonly import are provided by node.go (fs over
// gopi's write path, path, os, process, child_process in process groups
// killed with the runtime, crypto; events, stream, util, url, buffer in
// node.js and goja_nodejs); the others are refused by name at load.
//
// An extension's factory gets a pi object (api.go): pi.on for events,
// pi.registerTool (tools.go; parameters from pi.zod, TypeBox-shaped
// objects or plain JSON Schema, built by prelude.js), pi.registerCommand,
// and runtime actions (sendMessage, sendUserMessage, appendEntry,
// setModel, …) that work once the session is bound (Bind, with a Host
// such as SessionHost) and throw ErrNotInitialized while loading.
// Handlers reach the loop through agent.Hooks (hooks.go: tool_call,
// tool_result, before_agent_start, context) and observe session events
// through Observe. A failing extension is reported (LoadError, as omp's
// extension_error) and never stops the others or the session.
package extensions
