//go:build race

package write

// raceBuild reports a -race build, where a stream of tens of MiB takes
// tens of seconds to copy.
const raceBuild = true
