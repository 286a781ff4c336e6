// Package libm gives Go the C library's pow, so that arithmetic meant to
// agree with a JavaScript engine agrees to the last bit. JavaScriptCore
// (the engine of Bun, which omp runs on) computes x ** y for a general
// exponent with the platform's pow; Go's math.Pow is a different
// algorithm whose results differ from glibc's in the last place for about
// one call in five. With cgo, Pow is the C library's pow; without cgo it
// falls back to math.Pow, so the build still works and results differ
// only in those last places.
package libm
