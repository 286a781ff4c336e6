// Package shelltest helps tests that start shells prove they leave no
// process behind: every process a test starts carries a marker variable
// in its environment (inherited by everything it starts, daemons
// included), and at the end of the test no process with that marker may
// be left, nor any zombie child of the test process.
package shelltest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// MarkerVar is the variable that marks a test's processes.
const MarkerVar = "GOPI_SHELLTEST_MARK"

// Mark returns the KEY=VALUE entry to add to the environment of the
// shells a test starts, and checks when the test ends (after its other
// cleanups, which should close the shells) that no marked process is
// left and the test process has no zombie children. Leftovers are killed
// and reported. It needs /proc; elsewhere it only returns the entry.
func Mark(t testing.TB) string {
	t.Helper()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	entry := MarkerVar + "=" + hex.EncodeToString(b)
	t.Cleanup(func() {
		if _, err := os.Stat("/proc/self/environ"); err != nil {
			return
		}
		// Processes being ended may take a moment to go.
		deadline := time.Now().Add(3 * time.Second)
		var left, zombies []string
		for {
			left, zombies = Marked(entry), Zombies()
			if len(left) == 0 && len(zombies) == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		for _, p := range left {
			pid, _ := strconv.Atoi(strings.Fields(p)[0])
			if proc, err := os.FindProcess(pid); err == nil {
				_ = proc.Kill()
			}
		}
		if len(left) > 0 {
			t.Errorf("processes left behind:\n%s", strings.Join(left, "\n"))
		}
		if len(zombies) > 0 {
			t.Errorf("zombie children of the test:\n%s", strings.Join(zombies, "\n"))
		}
	})
	return entry
}

// Marked lists the live processes whose environment holds entry, as
// "pid command" lines.
func Marked(entry string) []string {
	var out []string
	self := strconv.Itoa(os.Getpid())
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid := filepath.Base(d)
		if pid == self {
			continue
		}
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil || !bytes.Contains(env, []byte("\x00"+entry+"\x00")) && !bytes.HasPrefix(env, []byte(entry+"\x00")) {
			continue
		}
		if state(d) == "Z" {
			continue // a zombie belongs to its parent's tally
		}
		out = append(out, pid+" "+cmdline(d))
	}
	return out
}

// Zombies lists the zombie children of the test process.
func Zombies() []string {
	var out []string
	self := strconv.Itoa(os.Getpid())
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		st, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		rest := string(st[bytes.LastIndexByte(st, ')')+1:])
		f := strings.Fields(rest)
		if len(f) >= 2 && f[0] == "Z" && f[1] == self {
			out = append(out, fmt.Sprintf("%s %s", filepath.Base(d), cmdline(d)))
		}
	}
	return out
}

func state(dir string) string {
	st, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return ""
	}
	f := strings.Fields(string(st[bytes.LastIndexByte(st, ')')+1:]))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

func cmdline(dir string) string {
	b, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
	return strings.TrimSpace(strings.ReplaceAll(string(b), "\x00", " "))
}
