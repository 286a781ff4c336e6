//go:build !unix

package regularfile

// openNoWait: no such flag here (no named pipes in the file system).
const openNoWait = 0
