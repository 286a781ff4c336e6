//go:build unix

package shell

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// setGroup makes cmd the leader of a new process group, so that it and
// everything it starts can be signalled together.
func setGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setParentDeathSignal(cmd.SysProcAttr)
}

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
