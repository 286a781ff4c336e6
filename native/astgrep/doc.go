// Package astgrep is gopi's cgo binding to ast-grep, the structural
// search and rewrite engine linked into libgopi_native.a (native/src/ast).
//
// A rule is a pattern (with an optional rewrite) or an ast-grep rule
// document (Rule.Config) that ast-grep's own rule engine, the
// ast-grep-config crate, runs with all its keys (kind, inside, has, not,
// all, any, constraints, utils, transform, fix, ...).
//
// The API is coarse on purpose: a Matcher is compiled once per language
// and rule set, and Search hands it a whole batch of files or buffers in
// one call. Rust reads the files, skips those that cannot contain the
// rules' literal tokens, parses the rest, matches, and answers with one
// flat buffer that Go decodes into []FileResult.
//
// Ownership at the boundary:
//   - Go memory (patterns, paths, buffers) is lent to C for the duration
//     of one call only; C never keeps a pointer to it.
//   - A Matcher and a Canceller each own one native object, released by
//     their Close method (a runtime cleanup is only a safety net).
//   - Result buffers and error strings are allocated by Rust, copied into
//     Go values and freed before the call returns; callers never see them.
//
// Rust panics are caught at the C boundary and come back as errors.
//
// With Options.Cache, files read from disk go through that parse cache
// (a ParseCache its owner creates, invalidates and closes): their trees,
// and the literal filters that ruled them out, are reused while the file
// is unchanged. There is no process-wide cache.
//
// Concurrency: a Matcher may be used by any number of goroutines at once;
// each Search call runs on its calling thread, so callers parallelise by
// calling Search from several goroutines. Closing a Matcher that is still
// in use is a bug.
//
// Without cgo, Available is false and Compile fails with ErrUnavailable.
package astgrep
