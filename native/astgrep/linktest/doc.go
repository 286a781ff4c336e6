// Package linktest proves that gopi's native library and a second copy of
// the tree-sitter C runtime (github.com/smacker/go-tree-sitter) link into
// one binary: libgopi_native.a exports only its C ABI (rure_*, gopi_*),
// every other symbol, tree-sitter's ts_* included, is local to it (see
// scripts/localize-native.sh). The package has only a test.
package linktest
