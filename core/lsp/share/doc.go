// Package share lets every gopi process of a user that works in the same
// workspace root use one language server process per server and root,
// where omp starts one per process (or needs the external lspmux).
//
// # How
//
// Dial is a core/lsp DialFunc. For a server and root it derives a key (the
// program, its arguments, initialization options and the root, with the
// version of this package's wire protocol) and a Unix socket and a lock
// file named after it in a private per-user directory (mode 0700, owned by
// the user, checked on every dial). The first process to take the lock
// hosts: it starts the server as its own child (core/lsp.Spawn, so the
// server ends with that process), listens on the socket and serves every
// connection, its own included, through a multiplexer (mux.go). The others
// connect. There is no daemon: when the hosting process ends, the server
// ends with it, the other processes see their connection close, and the
// next call of any of them takes the lock and hosts anew (core/lsp.Manager
// restarts a dead server with a note).
//
// # The multiplexer
//
// Each connection speaks LSP as if it had the server to itself. The
// multiplexer sends the first initialize and answers the later ones from
// its result; answers shutdown itself and takes exit as a goodbye; gives
// every request a number of its own and routes the answer back; opens a
// document at the server once however many connections open it, sending
// the server a change only when the text differs from what it has, and
// translates document versions both ways (in published diagnostics and in
// the versioned identifiers of workspace edits) so that each connection
// sees its own; publishes the diagnostics it has for a document to a
// connection that opens it with the same text; broadcasts diagnostics and
// progress; answers the server's housekeeping requests itself and sends
// workspace/configuration and workspace/applyEdit to a connection (the one
// that asked last, for an edit). The server stops when the last connection
// goes.
//
// Sharing is on by default (setting lsp.shareServers). Where the directory
// cannot be made private, or the platform has no Unix sockets and file
// locks, or no host answers within DialTimeout, Dial starts the server as
// its own child, as without sharing.
package share
