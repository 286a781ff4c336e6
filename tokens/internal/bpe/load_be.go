//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package bpe

// le64At is le64(s[i:]) for 0 ≤ i ≤ len(s)-8.
func le64At(s string, i int) uint64 { return le64(s[i:]) }
