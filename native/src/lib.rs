//! gopi's native library: re-exports Rust's official regex C API (`rure`)
//! and adds gopi's own batch entry points.
pub use rure;
