package childproc

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
)

// selfStart is this process's start time (see procStat.start).
var selfStart = sync.OnceValue(func() uint64 {
	st, err := readStat(0)
	if err != nil {
		return 0
	}
	return st.start
})

// selfNamespace identifies this process's pid namespace (the inode of
// /proc/self/ns/pid): pids of another namespace sharing the temporary
// directory (a container's) say nothing here.
var selfNamespace = sync.OnceValue(func() uint64 {
	fi, err := os.Stat("/proc/self/ns/pid")
	if err != nil {
		return 0
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
})

// ownerGone reports whether the process pid started at start is surely
// gone.
func ownerGone(pid int, start uint64) bool {
	st, err := readStat(pid)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	return st.zombie || st.start != start
}

// SweepTemp removes the directories MkdirTemp made whose owner process is
// gone, from the system's temporary directory. Only directories of this
// user, named as MkdirTemp names them, are considered, and only when the
// owner is surely gone: no process with its pid, or one started at
// another time (the pid was reused), or a zombie. A directory of a live
// owner, or whose owner cannot be checked (another pid namespace's), stays.
func SweepTemp() {
	dir := os.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	uid := os.Getuid()
	// The names MkdirTemp gives: gopi-KIND-PID-START-NS-RANDOM.
	owned := regexp.MustCompile(`^gopi-[a-z]+-([0-9]+)-([0-9]+)-([0-9]+)-[0-9]+$`)
	ns := strconv.FormatUint(selfNamespace(), 10)
	for _, e := range entries {
		m := owned.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() || m[3] != ns || ns == "0" {
			continue // e.IsDir is false for a symbolic link
		}
		pid, err1 := strconv.Atoi(m[1])
		start, err2 := strconv.ParseUint(m[2], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		path := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(path)
		if err != nil || !fi.IsDir() {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != uid {
			continue
		}
		if ownerGone(pid, start) {
			_ = os.RemoveAll(path)
		}
	}
}
