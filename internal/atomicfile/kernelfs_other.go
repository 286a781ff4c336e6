//go:build !linux

package atomicfile

// kernelFile cannot tell a kernel file system here: no file counts as one.
func kernelFile(path string) bool { return false }
