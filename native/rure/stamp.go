package rure

// NativeLibStamp identifies the native library linked into this binary: the
// Makefile sets it (with -ldflags -X) to a prefix of the library's SHA-256.
// Besides telling builds apart, it makes `go build` and `go test` relink
// when only the Rust side changed: Go's build cache does not hash external
// archives, but it does hash linker flags. Empty when built without make.
var NativeLibStamp string
