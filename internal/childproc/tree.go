package childproc

import (
	"crypto/rand"
	"encoding/hex"
	"os/exec"
	"strings"
	"sync"
)

// treeMarkPrefix starts the name of the variable that marks one Tree.
const treeMarkPrefix = "GOPI_TREE_"

// Tree is one started program and everything it starts, however far its
// descendants wander: a debug adapter and the program it debugs (which
// it usually puts in a process group of its own), a language server and
// its workers. Prepare gives the program the policy of the package plus a
// mark of the tree's own in its environment, which descendants inherit;
// End ends every live process carrying it, and their process groups.
type Tree struct {
	mark string

	mu   sync.Mutex
	pids []int // leaders started under the tree (their groups, where /proc cannot be read)
}

// NewTree returns a tree with a fresh mark.
func NewTree() *Tree {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return &Tree{mark: treeMarkPrefix + strings.ToUpper(hex.EncodeToString(b)) + "=1"}
}

// Mark returns the KEY=VALUE entry of the tree, as found in the
// environment of its processes.
func (t *Tree) Mark() string { return t.mark }

// Prepare is Prepare plus the tree's mark: cmd starts in a group of its
// own and carries this program's mark and the tree's.
func (t *Tree) Prepare(cmd *exec.Cmd) {
	Prepare(cmd)
	cmd.Env = append(cmd.Env, t.mark)
}

// Started records a started command of the tree, so that End can reach
// its process group where processes cannot be listed.
func (t *Tree) Started(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	t.mu.Lock()
	t.pids = append(t.pids, cmd.Process.Pid)
	t.mu.Unlock()
}

// End ends the tree: SIGTERM to every live process carrying its mark and
// to their process groups (except this program's own group), SIGKILL
// after a grace for what is left. It returns when they are gone or the
// kill wait has passed. On systems without /proc only the groups of the
// recorded commands are killed.
func (t *Tree) End() {
	t.mu.Lock()
	pids := append([]int(nil), t.pids...)
	t.mu.Unlock()
	endTree(t.mark, pids)
}

// Live returns the pids of the live processes carrying the tree's mark
// (none where processes cannot be listed).
func (t *Tree) Live() []int { return livePids(t.mark) }
