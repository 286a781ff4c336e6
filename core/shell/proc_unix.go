//go:build unix

package shell

import (
	"errors"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

// killMarkedWait bounds how long killMarked waits for the processes it
// killed to go.
const killMarkedWait = time.Second

// groupAlive reports whether any live process is left in the group
// pgid. Zombies do not count: an orphan's zombie waits for init, which
// may take its time.
func groupAlive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	return liveMember(pgid)
}

// endGroup ends the process group pgid: SIGTERM (and SIGCONT, for stopped
// processes), up to grace for the group to empty, then SIGKILL.
func endGroup(pgid int, grace time.Duration) {
	if pgid <= 0 {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	_ = syscall.Kill(-pgid, syscall.SIGCONT)
	deadline := time.Now().Add(grace)
	pause := time.Millisecond
	for time.Now().Before(deadline) {
		if !groupAlive(pgid) {
			return
		}
		time.Sleep(pause)
		pause = min(pause*2, 20*time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// endOwned ends what a closing Pool leaves running: the process groups
// groups and every live process carrying mark that is in none of them nor
// in the group skip (the persistent shell's, which Session.Close ends on
// its own): daemons that left their group. All get SIGTERM and SIGCONT at
// once, up to grace to leave, then SIGKILL.
func endOwned(groups []int, skip int, mark string, grace time.Duration) {
	handled := map[int]bool{skip: true}
	for _, g := range groups {
		handled[g] = true
	}
	escaped := func() []int {
		var out []int
		for _, p := range markedProcs(mark) {
			if !handled[p.pgid] {
				out = append(out, p.pid)
			}
		}
		return out
	}
	signal := func(sig syscall.Signal, pids []int) {
		for _, g := range groups {
			_ = syscall.Kill(-g, sig)
		}
		for _, p := range pids {
			_ = syscall.Kill(p, sig)
		}
	}
	pids := escaped()
	signal(syscall.SIGTERM, pids)
	signal(syscall.SIGCONT, pids)
	deadline := time.Now().Add(grace)
	pause := time.Millisecond
	for {
		groups = aliveGroups(groups)
		pids = escaped()
		if len(groups) == 0 && len(pids) == 0 {
			return
		}
		if !time.Now().Before(deadline) {
			break
		}
		time.Sleep(pause)
		pause = min(pause*2, 20*time.Millisecond)
	}
	signal(syscall.SIGKILL, pids)
}

// aliveGroups returns those of groups with a live member.
func aliveGroups(groups []int) []int {
	var some []int
	for _, g := range groups {
		if err := syscall.Kill(-g, 0); err == nil || errors.Is(err, syscall.EPERM) {
			some = append(some, g)
		}
	}
	if len(some) == 0 {
		return nil
	}
	live := liveGroups(some)
	return slices.DeleteFunc(some, func(g int) bool { return !live[g] })
}

// killMarked sends SIGKILL to every live process carrying mark, again
// while new ones appear (a process that forks as it is killed) or the
// killed ones have not gone yet, for at most killMarkedWait.
func killMarked(mark string) {
	deadline := time.Now().Add(killMarkedWait)
	pause := time.Millisecond
	for {
		ps := markedProcs(mark)
		if len(ps) == 0 || time.Now().After(deadline) {
			return
		}
		for _, p := range ps {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
		time.Sleep(pause)
		pause = min(pause*2, 20*time.Millisecond)
	}
}

// killGroup sends SIGKILL to the process group pgid.
func killGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// exitStatus maps a finished process's state to a shell exit status:
// the exit code, or 128+n when signal n ended it.
func exitStatus(err error, cmd *exec.Cmd) (int, bool) {
	if cmd.ProcessState == nil {
		return 0, false
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), true
	}
	_ = err
	return cmd.ProcessState.ExitCode(), true
}
