// Package outline finds the bodies of the functions and methods in a
// source file so that a reader can show the file's shape without them:
// the read tool's structural summaries.
//
// Python, JavaScript (and JSX), TypeScript, TSX and Rust are parsed by the
// native core (native/astgrep's Outline, the same tree-sitter runtime and
// grammars as AST search) through its parse cache: BodiesOf, given the
// file's path and the FileInfo taken before it was read, leaves the tree
// where the ast_grep and ast_edit tools find it, and takes theirs. Until
// 2026-11-27 this package parsed with github.com/smacker/go-tree-sitter, a
// second runtime with its own copies of five grammars; that version stays
// in the tests as the reference the native one is held equal to on real
// trees (TestBodiesMatchReference), and is no longer linked into gopi.
//
// Go is parsed with the standard library's go/parser, which on a
// 10,000-line file takes about 15 ms where the tree-sitter grammar takes
// about 110 ms on the same machine.
//
// Builds without cgo support Go only. A file that is not UTF-8 gets no
// outline (ErrUnsupported): the native parser reads text only.
package outline
