package childproc

import "syscall"

// endTree ends the processes carrying mark and their groups; the
// recorded leaders' groups go too (a leader that dropped the mark).
func endTree(mark string, leaders []int) {
	for _, pid := range leaders {
		if st, err := readStat(pid); err == nil && st.pgid == pid && !st.zombie && pid != syscall.Getpgrp() {
			_ = syscall.Kill(-pid, syscall.SIGTERM)
		}
	}
	endMarked(mark, syscall.Getpgrp())
}

// livePids lists the live processes carrying mark.
func livePids(mark string) []int {
	var out []int
	for _, p := range markedProcs(mark) {
		out = append(out, p.pid)
	}
	return out
}

// Running reports whether pid is a live process: one that exists and has
// not exited (a zombie nobody reaped, as in a container without an init,
// does not count).
func Running(pid int) bool {
	st, err := readStat(pid)
	return err == nil && !st.zombie
}
