package shell

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
)

// ownerVarPrefix starts the name of the variable that marks the processes
// of one Pool (see the package doc).
const ownerVarPrefix = "GOPI_SHELL_"

// owner is a Pool's record of what it started: the variable that marks
// every process its shells start (their descendants inherit it, daemons
// that left the process group included) and the process groups that have
// not been ended yet. Safe for concurrent use; a nil owner records
// nothing (shells started outside a pool).
type owner struct {
	mark string // NAME=1, added to the environment of every shell of the pool

	mu     sync.Mutex
	groups map[int]struct{}
	closed bool
}

func newOwner() *owner {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return &owner{mark: ownerVarPrefix + strings.ToUpper(hex.EncodeToString(b)) + "=1", groups: map[int]struct{}{}}
}

// started records the process group of a shell that has just started.
// After close it kills the group instead and returns ErrPoolClosed; the
// caller still waits for the shell.
func (o *owner) started(pgid int) error {
	if o == nil {
		return nil
	}
	o.mu.Lock()
	closed := o.closed
	if !closed {
		o.groups[pgid] = struct{}{}
	}
	o.mu.Unlock()
	if closed {
		killGroup(pgid)
		return ErrPoolClosed
	}
	return nil
}

// ended forgets a process group its shell's owner has ended.
func (o *owner) ended(pgid int) {
	if o == nil {
		return
	}
	o.mu.Lock()
	delete(o.groups, pgid)
	o.mu.Unlock()
}

// close refuses new shells and returns the groups not ended yet.
func (o *owner) close() []int {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	out := make([]int, 0, len(o.groups))
	for g := range o.groups {
		out = append(out, g)
	}
	return out
}
