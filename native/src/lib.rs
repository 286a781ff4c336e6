//! gopi's native library: re-exports Rust's official regex C API (`rure`)
//! and adds gopi's own entry points, all prefixed `gopi_`:
//!
//! * [`ffi`]: the plumbing every `gopi_` function shares — panic capture at
//!   the C boundary, the live-object counter used by leak tests, and the
//!   strings handed to C.
//! * [`syntax`]: parsing with `regex-syntax` to report the exact byte span of
//!   a pattern error, and the HIR rewrites the line matcher needs.
//! * [`linematch`]: the batch line matcher behind gopi's grep: one call per
//!   buffer reports every matching line with all of its match spans.
//! * [`innerlit`]: the required-literal line prefilter the line matcher
//!   uses when a pattern has no good prefix literal.
//!
//! The C declarations live in `native/include/gopi_native.h`.
pub use rure;

pub mod ast;
pub mod ffi;
pub mod innerlit;
pub mod linematch;
pub mod syntax;
