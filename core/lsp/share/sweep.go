package share

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// swept holds the directories this process has cleaned.
var swept sync.Map

// sweepStale removes, once per process and directory, the sockets and
// lock files that hosts which died without cleaning up (killed, or ended
// with os.Exit) left behind: a lock nobody holds is taken, then removed
// with its socket.
func sweepStale(dir string) {
	if _, done := swept.LoadOrStore(dir, true); done {
		return
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".lock") {
			continue
		}
		lockPath := filepath.Join(dir, name)
		f, ok, err := tryLock(lockPath)
		if err != nil || !ok {
			continue
		}
		_ = os.Remove(strings.TrimSuffix(lockPath, ".lock") + ".sock")
		_ = os.Remove(lockPath)
		f.Close()
	}
}
