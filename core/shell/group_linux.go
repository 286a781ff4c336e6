package shell

import (
	"bytes"
	"os"
	"strconv"
)

// procStat is what /proc/<pid>/stat says of a process.
type procStat struct {
	pid, pgid int
	zombie    bool // exited, not yet waited for (or being removed)
}

// eachProc calls fn for every process in /proc; false when /proc cannot
// be read.
func eachProc(fn func(procStat)) bool {
	d, err := os.Open("/proc")
	if err != nil {
		return false
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return false
	}
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		st, err := os.ReadFile("/proc/" + n + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold anything.
		i := bytes.LastIndexByte(st, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(st[i+1:])
		if len(f) < 3 {
			continue
		}
		pid, _ := strconv.Atoi(n)
		pgid, _ := strconv.Atoi(string(f[2]))
		fn(procStat{pid: pid, pgid: pgid, zombie: f[0][0] == 'Z' || f[0][0] == 'X'})
	}
	return true
}

// liveMember reports whether a process that is not a zombie belongs to the
// group pgid, from /proc (true when /proc cannot be read).
func liveMember(pgid int) bool {
	return liveGroups([]int{pgid})[pgid]
}

// liveGroups returns those of groups that have a member which is not a
// zombie, from one pass over /proc (all of them when /proc cannot be
// read).
func liveGroups(groups []int) map[int]bool {
	want := make(map[int]bool, len(groups))
	for _, g := range groups {
		want[g] = true
	}
	live := make(map[int]bool, len(groups))
	ok := eachProc(func(p procStat) {
		if want[p.pgid] && !p.zombie {
			live[p.pgid] = true
		}
	})
	if !ok {
		return want
	}
	return live
}

// markedProcs lists the live processes, other than this one, whose
// environment holds the entry mark (NAME=VALUE). Processes whose
// environment cannot be read (another user's) are left out.
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
