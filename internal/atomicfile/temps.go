package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// tempPrefix starts the name of every temporary file of ours; the process
// id and a random part follow (".gopi-tmp-4242-9f3c01ab"). The name is
// short whatever the target's, so it always fits the file-name limit.
const tempPrefix = ".gopi-tmp-"

// StaleAge is the age past which a temporary file of ours counts as left
// over even when a process with the pid in its name is alive (the pid may
// have been reused). No write takes anywhere near this long.
const StaleAge = time.Hour

// sweepEvery is how often one directory is swept for leftovers: a write
// lists its directory at most this often, so rewriting many files of one
// large directory stays cheap.
const sweepEvery = 30 * time.Second

// inflight holds the temporary files this process is writing.
var inflight = struct {
	sync.Mutex
	names map[string]bool
	swept map[string]time.Time
}{names: map[string]bool{}, swept: map[string]time.Time{}}

// createTemp creates a new temporary file of ours in dir, registered as
// in flight before it exists so that RemoveTemps cannot miss it.
func createTemp(dir string) (*os.File, error) {
	pid := strconv.Itoa(os.Getpid())
	for range 100 {
		var r [4]byte
		rand.Read(r[:])
		name := filepath.Join(dir, tempPrefix+pid+"-"+hex.EncodeToString(r[:]))
		inflight.Lock()
		inflight.names[name] = true
		inflight.Unlock()
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, nil
		}
		forgetTemp(name)
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
	}
	return nil, errors.New("no free temporary file name after 100 tries")
}

// removeTemp deletes a temporary file and forgets it.
func removeTemp(name string) {
	os.Remove(name)
	forgetTemp(name)
}

// forgetTemp drops a temporary file from the in-flight set (it was renamed
// or removed).
func forgetTemp(name string) {
	inflight.Lock()
	delete(inflight.names, name)
	inflight.Unlock()
}

// RemoveTemps deletes every temporary file this process is still writing
// and returns how many there were. The CLI calls it when a signal is
// about to end the process, so that an interrupted write leaves nothing
// behind; a write still under way then fails instead of committing.
func RemoveTemps() int {
	inflight.Lock()
	defer inflight.Unlock()
	n := 0
	for name := range inflight.names {
		if os.Remove(name) == nil {
			n++
		}
		delete(inflight.names, name)
	}
	return n
}

// sweep removes the temporary files of ours that a killed process left in
// dir: those whose process is gone, those named with this process's id
// that this process is not writing (an earlier process had the same id,
// as happens in containers), and those older than StaleAge. A directory
// is swept at most every sweepEvery; errors are ignored, since a leftover
// file is untidy but harmless.
func sweep(dir string) {
	now := time.Now()
	inflight.Lock()
	if last, ok := inflight.swept[dir]; ok && now.Sub(last) < sweepEvery {
		inflight.Unlock()
		return
	}
	inflight.swept[dir] = now
	inflight.Unlock()
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	self := os.Getpid()
	for _, n := range names {
		rest, ok := strings.CutPrefix(n, tempPrefix)
		if !ok {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 {
			continue
		}
		full := filepath.Join(dir, n)
		inflight.Lock()
		mine := inflight.names[full]
		inflight.Unlock()
		if mine {
			continue
		}
		stale := pid == self || !processAlive(pid)
		if !stale {
			if fi, err := os.Lstat(full); err == nil && now.Sub(fi.ModTime()) > StaleAge {
				stale = true
			}
		}
		if stale {
			os.Remove(full)
		}
	}
}
