package childproc

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// markPrefix starts the name of the variable that marks this gopi's
// processes (see Mark).
const markPrefix = "GOPI_PROCESS_"

// mark is this process's marker entry, NAME=1, made once.
var mark = sync.OnceValue(func() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return markPrefix + strings.ToUpper(hex.EncodeToString(b)) + "=1"
})

// Mark returns the KEY=VALUE entry Prepare adds to the environment of
// every process this program starts. Their descendants inherit it, those
// that leave the process group (setsid, a double fork) too, which is how
// the guard finds them once this program is gone.
func Mark() string { return mark() }

// Prepare sets cmd up, before it is started, under the policy: a process
// group of its own (a session of its own if cmd asks for one: Setsid), so
// that it and whatever it starts can be ended together; this program's
// mark in its environment (when cmd.Env is nil, the environment this
// program was started with, as exec would use); and the guard running
// (when EnableGuard was called), so that none of it outlives this program.
func Prepare(cmd *exec.Cmd) {
	prepare(cmd)
	ownGroup(cmd)
}

// PrepareCancelGroup is Prepare for a command made with
// exec.CommandContext whose cancellation must end everything it started:
// when the context ends, its whole process group is killed (where there
// are process groups), not only the command (a shell's children
// included).
func PrepareCancelGroup(cmd *exec.Cmd) {
	Prepare(cmd)
	cancelGroup(cmd)
}

// PrepareForeground is Prepare for a program that stays in this program's
// process group, so that Ctrl-C at the terminal reaches it as it reaches
// gopi (the commands `gopi find -x` runs in the foreground).
func PrepareForeground(cmd *exec.Cmd) { prepare(cmd) }

func prepare(cmd *exec.Cmd) {
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env[:len(env):len(env)], Mark())
	startGuard()
}
