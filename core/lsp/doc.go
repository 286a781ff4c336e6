// Package lsp is gopi's language server client: it starts the servers a
// project needs, speaks LSP to them and keeps what they said.
//
// # Pieces
//
//   - Server and Resolve (servers.go, servers.json): the definitions —
//     omp's built-in servers as data, with the lsp.json/lsp.yaml files
//     core/config finds merged over them field by field — and the choice
//     for a workspace root: root markers present, program found (the
//     project's own bin directories, then extra directories, then PATH).
//     ForFile routes a file by extension or base name, primary servers
//     before linters.
//   - Transport and Spawn (transport.go): the byte stream to a server and
//     its life. Spawn runs the program as a child in its own process
//     group that ends with gopi (internal/childproc) and keeps the tail
//     of its stderr for the message that reports its exit.
//   - Client (client.go, handler.go, documents.go, diagnostics.go,
//     progress.go): JSON-RPC 2.0 with LSP headers over a Transport
//     (sourcegraph/jsonrpc2). initialize offers UTF-16 positions only;
//     the server's requests are answered (configuration from the
//     definition's settings, progress tokens, registrations; applyEdit
//     through ManagerOptions.ApplyEdit, which the lsp tool package
//     provides); documents are sent whole, read
//     from disk without a byte order mark, again only when their content
//     changed, and Document tells what was last sent (version and text
//     hash, so that an edit computed on other content is refused);
//     Refresh and SyncOpen bring the server in step after gopi changed
//     files; publishDiagnostics is cached per document with a counter
//     that lets a caller wait for a publication newer than its change;
//     $/progress tells when the first project load is over. Requests
//     time out with "LSP request <method> timed out after <ms>ms" and are
//     cancelled at the server ($/cancelRequest); when the server dies,
//     what is pending fails with its exit code and stderr.
//   - Manager (manager.go, diagnoser.go): the session's clients, one per
//     server command and root, started on first use apart from the
//     caller and shared by the session's subagents; a dead one is started
//     again on the next call with a note; idle ones stop after the
//     configured idle timeout; Close stops them all. It is the file
//     tools' tool.Diagnoser.
//
// # Sharing servers between processes
//
// The Manager gets its transports from ManagerOptions.Dial. core/lsp/share
// plugs in there to run one server per root for every gopi process of a
// user: its Dial connects to the process that runs the server (or becomes
// it) and returns the stream; the client here is the same either way.
package lsp
