// Package permission is the gate every tool call of a session passes
// before it runs: it decides which calls need the user's approval, asks
// the user through the front end (an editor over ACP, an RPC host's
// dialog, the terminal's picker) and remembers the answers meant for the
// rest of the session.
//
// One Gate serves a whole tree of agents: the session runtime
// (core/agentsession) builds it from the mode's options and hands the same
// Gate to every subagent it starts, and to theirs, so a subagent's bash
// call is asked about exactly as the main agent's is, and "always allow"
// given once covers the tree.
//
// # Which calls
//
// A Policy is a list of patterns read from a mode's setting
// (acp.requirePermission, rpc.requirePermission, tui.requirePermission):
//
//	bash        an exact tool name: every call of that tool is asked about,
//	            even one that only reads (name "read" to be asked before reads)
//	mcp__*      a pattern with * ? or [...] (path.Match syntax): the calls
//	            of matching tools that may change files or run programs
//	*           hence every call that may change files or run programs
//	!todo_write an exclusion: never ask for matching tools (exclusions win)
//
// What a call does comes from the tool (tool.CallAccess): built-in tools
// that only read declare themselves ReadOnly, MCP tools follow their
// server's readOnlyHint, extension and RPC host tools their readOnly
// field; a tool that says nothing counts as one that writes or runs.
// Some calls answer for another tool: resolve applying an ast_edit preview
// asks for ast_edit, recipe asks for bash (it runs a shell command whose
// arguments the model writes), and ast_edit itself (a preview) and task (whose
// subagents ask for their own calls) ask for nothing.
//
// # Answers
//
// The user allows or rejects once, or always for the rest of the session
// (Answer). Remembered answers are per tool and live in the Gate; the
// runtime forgets them when it switches to another session. Questions go
// out one at a time, so an "always" answer also settles the questions
// queued behind it. A question waits as long as the user takes: it ends
// with the answer, or when the call's context ends (the prompt was
// cancelled), which withdraws it from the front end. A call that was not
// allowed is not run, and its result tells the model why.
package permission
