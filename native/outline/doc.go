// Package outline finds the bodies of the functions and methods in a
// source file so that a reader can show the file's shape without them:
// the read tool's structural summaries.
//
// Why go-tree-sitter and not the ast-grep engine in native/astgrep: that
// engine's C interface answers pattern searches only; it reports neither
// node kinds nor whether a parse had errors, and walking a tree through it
// would need new Rust code. github.com/smacker/go-tree-sitter was already
// a dependency (native/astgrep/linktest proves both runtimes link into one
// binary) and gives kinds, fields, positions and error flags directly. Its
// grammars are cgo, so it is used here, under native/, and nothing of it
// leaks into the API: callers get plain line spans.
//
// Go is the exception: it is parsed with the standard library's go/parser,
// which on a 10,000-line file takes about 15 ms where the tree-sitter
// grammar (either runtime) takes about 110 ms on the same machine.
//
// Supported languages: Go, Python, JavaScript (and JSX), TypeScript, TSX
// and Rust. Builds without cgo support Go only.
package outline
