package childproc

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// startGuard starts the guard once, when enabled (see EnableGuard). A
// guard that cannot be started leaves the children unguarded: nothing
// else changes.
func startGuard() {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	if !guard.enabled || guard.tried {
		return
	}
	guard.tried = true
	exe, err := os.Executable()
	if err != nil {
		return
	}
	r, w, err := os.Pipe() // close-on-exec: no child holds the write end
	if err != nil {
		return
	}
	defer r.Close()
	cmd := exec.Command(exe, GuardArg, Mark(), strconv.Itoa(os.Getpid()), strconv.Itoa(syscall.Getpgrp()))
	cmd.Stdin = r // its output goes nowhere: it must not keep gopi's pipes open
	cmd.Dir = "/"
	// A group of its own: Ctrl-C and job control at the terminal are
	// meant for gopi, not for it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return
	}
	// Not waited for: it lives as long as this process does.
	_ = cmd.Process.Release()
	guard.w = w
}

// RunGuard is the guard (see EnableGuard): args are those after GuardArg.
// It returns the exit status.
func RunGuard(args []string) int {
	if len(args) != 3 {
		fmt.Fprintln(os.Stderr, "gopi: the guard mode is internal to gopi")
		return 2
	}
	mark := args[0]
	ownerGroup, err := strconv.Atoi(args[2])
	if err != nil {
		return 2
	}
	// Signals meant for the terminal's job, or for every process named
	// gopi, are not for the guard: it ends when its owner does.
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGQUIT, syscall.SIGPIPE, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU)
	SweepTemp()
	_, _ = io.Copy(io.Discard, os.Stdin) // returns when the owner has gone
	endMarked(mark, ownerGroup)
	SweepTemp()
	return 0
}

// endMarked ends every live process carrying mark and the process groups
// they are in (except skipGroup, the owner's own: its other members, the
// rest of a shell pipeline, are not the owner's children), SIGTERM first,
// SIGKILL for what is left after guardGrace.
func endMarked(mark string, skipGroup int) {
	skip := map[int]bool{0: true, 1: true, skipGroup: true, syscall.Getpgrp(): true}
	groups := map[int]bool{}
	scan := func() []int {
		var pids []int
		for _, p := range markedProcs(mark) {
			pids = append(pids, p.pid)
			if !skip[p.pgid] {
				groups[p.pgid] = true
			}
		}
		return pids
	}
	send := func(sig syscall.Signal, pids []int) {
		for g := range groups {
			_ = syscall.Kill(-g, sig)
		}
		for _, p := range pids {
			_ = syscall.Kill(p, sig)
		}
	}
	gone := func(pids []int) bool { return len(pids) == 0 && len(liveGroups(groups)) == 0 }
	pids := scan()
	if gone(pids) {
		return
	}
	send(syscall.SIGTERM, pids)
	send(syscall.SIGCONT, pids) // stopped processes cannot act on SIGTERM
	if waitGone(guardGrace, func() bool { pids = scan(); return gone(pids) }) {
		return
	}
	deadline := time.Now().Add(guardKillWait)
	for !gone(pids) && time.Now().Before(deadline) {
		send(syscall.SIGKILL, pids)
		time.Sleep(10 * time.Millisecond)
		pids = scan()
	}
}

// waitGone polls done, more slowly as time passes, for at most d.
func waitGone(d time.Duration, done func() bool) bool {
	deadline := time.Now().Add(d)
	pause := time.Millisecond
	for {
		if done() {
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(pause)
		pause = min(pause*2, 20*time.Millisecond)
	}
}
