//! Structural (AST) search and rewrite on top of ast-grep's core crates.
//!
//! The Go side hands us a language, one or more rules (each a pattern with
//! an optional rewrite template, or an ast-grep rule document for
//! ast-grep's rule engine) and a batch of files or buffers; we answer
//! with one flat, little-endian buffer describing every file of the batch:
//! whether it was searched, skipped by the literal prefilter, unreadable or
//! binary, whether its tree has syntax errors, and every match with its
//! ranges, text, captured metavariables and (for rewrites) the edit.
//!
//! * [`lang`]: the tree-sitter grammars linked in, by gopi's canonical name.
//! * [`compile`]: pattern compilation, literal tokens for the prefilter;
//!   rule documents through ast-grep-config's `RuleConfig`.
//! * [`ambiguity`]: alternative parses for patterns tree-sitter reads in
//!   an unhelpful way (Go's `pkg.F($$$A)` read as a type conversion).
//! * [`parse`]: parsing with cancellation and a deadline.
//! * [`cache`]: the process-wide parse cache.
//! * [`search`]: matching one source and collecting its records.
//! * [`split`]: parsing only the top-level declarations that can match.
//! * [`parallel`]: one large file parsed and searched on several threads.
//! * [`outline`]: function bodies for the read tool's structural summaries.
//! * [`encode`]: the wire format of the result buffer.
//! * [`ffi`]: the `gopi_ast_*` C functions.
pub mod ambiguity;
pub mod cache;
pub mod compile;
pub mod encode;
pub mod ffi;
pub mod lang;
pub mod outline;
pub mod parallel;
pub mod parse;
pub mod search;
pub mod split;
