//go:build !linux

package childproc

// endTree kills the process groups of the recorded leaders: without /proc
// the marked processes cannot be found.
func endTree(_ string, leaders []int) {
	for _, pid := range leaders {
		killGroup(pid)
	}
}

// livePids cannot list processes here.
func livePids(string) []int { return nil }
