// Package tool is the contract between the agent loop and the tools a model
// can call, plus the helpers every built-in tool shares.
//
// A Tool describes itself (Definition: name, model-facing description, JSON
// Schema of its parameters, concurrency, abortability) and executes with a
// context, the decoded arguments and an update callback for partial
// results. Run is the single entry point the agent uses: it decodes and
// validates the arguments against the schema (the tool never sees invalid
// input), executes, and folds every outcome into a Result — a tool error
// becomes a result with IsError and the error's text — except an abort,
// which Run reports as an error wrapping ErrAborted so the loop can tell a
// cancelled call from a failed one.
//
// Shared helpers live next to the contract, one concern per file:
// truncation (truncate.go: the 50 KiB / 3000-line / 1024-column caps), the
// sink that spills long streamed output into the session artifact store
// (package core/artifact; outputsink.go),
// the per-session file-read cache used to recover stale hashline edits
// (readcache.go), line display modes (display.go), the diffs an edit
// reports, for front ends (diffs.go), what a call does as permission
// gates see it (access.go: ReadOnly tools, AccessReporter), the
// settings the file tools read (settings.go), taken from core/config, and
// the language servers' diagnostics after a write: the Diagnoser seam
// (diagnose.go), the owner of the fetches and the per-write check with
// its budget and late delivery (writecheck.go), the report set against
// what the servers said before the write (diagdelta.go) and its text
// (diagreport.go).
// Result content blocks are the message model's (core/ai) by alias.
package tool
