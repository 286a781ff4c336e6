// Package mcp connects gopi to Model Context Protocol servers through the
// official Go SDK (github.com/modelcontextprotocol/go-sdk) and offers
// their tools and resources to a session.
//
// A Manager owns one client connection per configured server
// (config.MCPServer: stdio child processes, Streamable HTTP or SSE
// endpoints). Start connects every server at once, each bounded by its
// connect timeout, and lists its tools; a server that cannot start is
// recorded as failed with its name and the reason, and the others go on.
// Each remote tool becomes a tool.Tool named mcp__<server>__<tool>
// (characters providers reject are replaced by '_', the name is capped at
// 64 characters), whose schema is sent to the model as the server wrote
// it. Resources are read through the read tool as mcp://<server>/<uri>;
// mcp://<server> lists a server's resources and mcp:// the servers.
//
// Failure handling: every call is bounded by the call timeout; a server
// that hangs gets an error naming it and the timeout; a server that exits
// or writes something that is not JSON-RPC is marked down, its captured
// stderr tail is quoted in the error, and it is restarted once on the next
// call that needs it. Nothing a server does stops the session.
//
// Shutdown: Close ends every connection. Stdio servers run in their own
// process group; after the SDK's orderly shutdown (stdin closed, then
// SIGTERM) the whole group is killed, so helpers a server started (npx
// starts node) do not outlive the session.
package mcp
