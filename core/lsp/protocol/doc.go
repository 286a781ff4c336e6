// Package protocol holds the Language Server Protocol (3.17) structures
// gopi's client sends and reads: positions and ranges, locations,
// diagnostics, symbols, hover, code actions, the initialize exchange and
// workspace edits, with the file URIs they use.
//
// Only the parts gopi uses are here, written from the specification's
// JSON shapes; unknown fields of a server's answer are ignored, and
// optional fields a server leaves out stay at their zero value. (The
// maintained Go module of LSP types, go.lsp.dev/protocol, would bring a
// logging framework and a JSON encoder into the binary for the forty or
// so types needed here.)
package protocol
