//go:build !race

package write

// raceBuild reports a -race build (see race_test.go).
const raceBuild = false
