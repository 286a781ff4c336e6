// Package acp runs gopi as an Agent Client Protocol agent: JSON-RPC 2.0
// over standard input and output, spoken by editors such as Zed (see
// https://agentclientprotocol.com). The wire layer is
// github.com/coder/acp-go-sdk; this package maps the protocol onto
// core/agentsession. Lines the library would drop without an answer or
// choke on (invalid JSON, batches, messages over its 10 MB line limit,
// which would end the connection) are answered with JSON-RPC errors
// before they reach it (package lineguard).
//
// # Sessions
//
// session/new starts a gopi session in the editor's working directory
// (settings and context files are those of that directory) and returns
// gopi's session id; session/load reopens a stored session by id and
// replays its conversation as session/update notifications before it
// answers; session/resume reopens one without the replay; session/list
// lists the stored sessions; session/close ends one. MCP servers the
// editor passes (stdio, http and sse) start with the session, beside and
// before those of the mcp.json files, their values used as written.
//
// # A prompt turn
//
// session/prompt takes text, images, embedded resources (inlined as
// <file> blocks, as the CLI inlines @file arguments) and resource links
// (named, for the model to read), runs the session, and streams what
// happens:
//
//	text_delta, thinking_delta      agent_message_chunk, agent_thought_chunk
//	toolcall_start                  tool_call (pending, with kind and title)
//	toolcall_end                    tool_call_update (title, locations, raw input)
//	tool_execution_start            tool_call_update in_progress
//	tool_execution_update/end       tool_call_update with content; completed or failed,
//	                                with diffs (old and new text) for edit and write
//
// The answer's stop reason is end_turn, max_tokens (the output limit),
// refusal (the provider refused or a safety filter stopped the answer) or
// cancelled (session/cancel, which aborts the run). A provider failure is
// a JSON-RPC error carrying its message.
//
// # Permissions, files, models
//
// The session runtime's permission gate (core/permission) holds every
// call the acp.requirePermission patterns cover — by default "*", every
// call that may change files or run programs, a subagent's included —
// until the editor approves it through session/request_permission
// (editorAsker), with allow and reject, once or always for the session;
// a rejection blocks the call and the model is told so, and
// session/cancel withdraws a pending request. A subagent's call is shown
// as a tool call of its own, titled with its task id, and closed when it
// ends. ast_edit only previews: its permission is asked when the preview
// is applied (the resolve call). When the editor offers
// fs/read_text_file and fs/write_text_file, the read, edit and write tools
// go through them (tool.Env.Files), so unsaved buffers are read and edits
// land in the editor; search, find and the AST tools still read the disk.
// The model and the thinking level are session configuration options
// (session/set_config_option, categories model and thought_level), and
// the model can also be set with the unstable session/set_model. gopi has
// no session modes and no slash commands yet, so it offers none.
//
// Each ACP session holds a gopi session through the Session interface
// (session.go), the part of agentsession.Session the server calls.
package acp
