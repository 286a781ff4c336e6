package childproc

import (
	"bytes"
	"errors"
	"os"
	"strconv"
)

// procStat is what /proc/<pid>/stat says of a process.
type procStat struct {
	pid, pgid int
	zombie    bool   // exited, not yet waited for (or being removed)
	start     uint64 // start time, in clock ticks after boot: with pid, names one process for good
}

// errBadStat is returned for a stat file that cannot be parsed.
var errBadStat = errors.New("unexpected /proc stat format")

// readStat reads /proc/<pid>/stat (pid "self" is allowed, as 0).
func readStat(pid int) (procStat, error) {
	name := "self"
	if pid > 0 {
		name = strconv.Itoa(pid)
	}
	data, err := os.ReadFile("/proc/" + name + "/stat")
	if err != nil {
		return procStat{}, err
	}
	return parseStat(data)
}

// parseStat parses a stat line: pid (comm) state ppid pgrp … with the
// start time the 22nd field. comm may hold anything, ")" included.
func parseStat(data []byte) (procStat, error) {
	i := bytes.LastIndexByte(data, ')')
	j := bytes.IndexByte(data, ' ')
	if i < 0 || j < 0 || j > i {
		return procStat{}, errBadStat
	}
	f := bytes.Fields(data[i+1:]) // f[0] is field 3 (state)
	if len(f) < 20 {
		return procStat{}, errBadStat
	}
	pid, err1 := strconv.Atoi(string(data[:j]))
	pgid, err2 := strconv.Atoi(string(f[2]))
	start, err3 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procStat{}, errBadStat
	}
	return procStat{pid: pid, pgid: pgid, zombie: f[0][0] == 'Z' || f[0][0] == 'X', start: start}, nil
}

// eachProc calls fn for every process in /proc that can be read.
func eachProc(fn func(procStat)) {
	d, err := os.Open("/proc")
	if err != nil {
		return
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if st, err := readStat(pid); err == nil {
			fn(st)
		}
	}
}

// markedProcs lists the live processes, other than this one, whose
// environment holds the entry mark. Processes whose environment cannot be
// read (another user's) are left out.
func markedProcs(mark string) []procStat {
	self := os.Getpid()
	first := []byte(mark + "\x00")
	inner := []byte("\x00" + mark + "\x00")
	var out []procStat
	eachProc(func(p procStat) {
		if p.pid == self || p.zombie {
			return
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/environ")
		if err == nil && (bytes.HasPrefix(env, first) || bytes.Contains(env, inner)) {
			out = append(out, p)
		}
	})
	return out
}

// liveGroups returns those of groups that have a member which is not a
// zombie (an orphan's zombie is for init to reap).
func liveGroups(groups map[int]bool) map[int]bool {
	live := map[int]bool{}
	if len(groups) == 0 {
		return live
	}
	eachProc(func(p procStat) {
		if groups[p.pgid] && !p.zombie {
			live[p.pgid] = true
		}
	})
	return live
}
