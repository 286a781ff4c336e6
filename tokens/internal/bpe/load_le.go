//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package bpe

import "unsafe"

// le64At is le64(s[i:]) for 0 ≤ i ≤ len(s)-8, which the caller checked:
// one unchecked load on a little-endian machine, without making the slice.
func le64At(s string, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
}
