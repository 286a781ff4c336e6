// Package edits previews and applies the WorkspaceEdits language servers
// hand the client — the answer to a rename, a code action's edit, a
// server's own workspace/applyEdit request — safely: all or nothing,
// inside the workspace, and only on the content the server saw.
//
// A WorkspaceEdit names files by URI and places by line and UTF-16
// column in the text the client sent the server (a file's bytes without a
// leading UTF-8 byte-order mark, line endings as on disk). Apply checks
// and computes every change in memory before it writes the first; it
// writes through the caller's write function (the project's one write
// path, or an editor's buffers), keeps each file's byte-order mark and
// CRLF line endings, and undoes what it wrote when a later write fails.
//
// The seams: EnvOptions wires Apply to a session's tool.Env (its reads and
// writes, its read cache and engine caches); Options.Documents is where
// the LSP client says what it sent each server; Preview and
// Result.Summary give the texts the lsp tool shows; Sequence joins several
// edits into one Apply; HandleApplyEdit answers workspace/applyEdit; and
// Capabilities is what the client announces in initialize.
package edits
