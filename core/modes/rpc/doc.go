// Package rpc is `gopi --mode rpc`: the agent driven by another program
// over standard input and output, one JSON object per line, in omp's RPC
// protocol (docs/rpc.md).
//
// The first frame out is {"type":"ready"}. Each command in gets one
// response frame {id?,type:"response",command,success,data?|error} with
// the command's id; prompt is acknowledged at once and its run streams as
// the same event objects --mode json prints (a later failure of the prompt
// reuses its id). Commands are handled in order: the one after a prompt
// is read once the prompt is queued, its run has begun or it has failed;
// compact answers when the compaction is done, and the commands after it
// (except abort, which cancels it) wait for that answer. bash also runs in
// the background: its response (the BashResult) comes when the command
// ends, and abort_bash can stop it meanwhile. Lines that are not JSON
// objects get a response with
// command "parse" and reading goes on; an unknown command gets one without
// an id.
//
// Three sub-protocols run over the same stream:
//
//   - host tools: after set_host_tools the model may call the host's tools;
//     gopi sends host_tool_call (and host_tool_cancel when the call is
//     aborted) and the host answers with host_tool_update and
//     host_tool_result;
//   - host URIs: after set_host_uri_schemes, read and write of
//     <scheme>://… go to the host as host_uri_request / host_uri_cancel,
//     answered by host_uri_result;
//   - extension UI: dialogs and status updates as extension_ui_request,
//     answered by extension_ui_response (a dialog that times out, by our
//     timer or the host's cancelled+timedOut, resolves to its default; one
//     the host cancels without timedOut was dismissed by the user; unknown
//     ids are ignored).
//
// Every frame is written whole with one write, whatever goroutine sends
// it. When standard input closes (or the process is told to stop),
// pending host calls fail, the run is aborted, the session is flushed and
// Run returns 0.
//
// Run takes the Session interface (session.go): what the commands call
// of a session, its parts included. A new command is a function in the
// table of commands.go that decodes its frame and calls the session.
package rpc
