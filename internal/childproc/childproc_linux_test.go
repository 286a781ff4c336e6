package childproc

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A comm may hold spaces and parentheses; the fields after the last ")"
// are what counts.
func TestParseStat(t *testing.T) {
	line := "4242 (a) (b c) S 1 4240 4240 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10\n"
	st, err := parseStat([]byte(line))
	if err != nil || st != (procStat{pid: 4242, pgid: 4240, start: 987654}) {
		t.Fatalf("%+v %v", st, err)
	}
	if _, err := parseStat([]byte("12 (x) Z 1")); err == nil {
		t.Fatal("a short line parsed")
	}
	self, err := readStat(0)
	if err != nil || self.pid != os.Getpid() || self.pgid != syscall.Getpgrp() || self.start == 0 {
		t.Fatalf("%+v %v", self, err)
	}
}

// Prepare gives a command a group (or keeps the session it asks for) and
// the mark, on top of the environment it has or would inherit.
func TestPrepare(t *testing.T) {
	cmd := exec.Command("true")
	Prepare(cmd)
	if !cmd.SysProcAttr.Setpgid || cmd.Env[len(cmd.Env)-1] != Mark() || len(cmd.Env) != len(os.Environ())+1 {
		t.Fatalf("%+v %q", cmd.SysProcAttr, cmd.Env)
	}
	base := []string{"A=1", "B=2"}
	cmd = exec.Command("true")
	cmd.Env = base[:1]
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	Prepare(cmd)
	if cmd.SysProcAttr.Setpgid || !slices.Equal(cmd.Env, []string{"A=1", Mark()}) || base[1] != "B=2" {
		t.Fatalf("%+v %q %q", cmd.SysProcAttr, cmd.Env, base)
	}
	cmd = exec.Command("true")
	PrepareForeground(cmd)
	if cmd.SysProcAttr != nil || cmd.Env[len(cmd.Env)-1] != Mark() {
		t.Fatalf("%+v %q", cmd.SysProcAttr, cmd.Env)
	}
	if !strings.HasPrefix(Mark(), markPrefix) || Mark() != Mark() {
		t.Fatal(Mark())
	}
}

// The guard's sweep removes the directories of owners that are gone (no
// such process, or its pid now names a later process) and nothing else:
// not a live owner's, not one of another pid namespace, not one named
// otherwise, not a symbolic link.
func TestSweepTemp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	mine, err := MkdirTemp("shell")
	if err != nil {
		t.Fatal(err)
	}
	ns := "-" + strconv.FormatUint(selfNamespace(), 10) + "-"
	if filepath.Dir(mine) != tmp || !strings.HasPrefix(filepath.Base(mine), "gopi-shell-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(selfStart(), 10)+ns) {
		t.Fatal(mine)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	mk := func(name string) string {
		p := filepath.Join(tmp, name)
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "command"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gone := mk("gopi-shell-" + strconv.Itoa(dead.Process.Pid) + "-5" + ns + "123")
	reused := mk("gopi-shell-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(selfStart()+1, 10) + ns + "77")
	otherNS := mk("gopi-shell-" + strconv.Itoa(dead.Process.Pid) + "-5-" + strconv.FormatUint(selfNamespace()+1, 10) + "-123")
	otherName := mk("gopi-shell-" + strconv.Itoa(dead.Process.Pid) + "-x")
	oldStyle := mk("gopi-shell-123456")
	target := mk("target")
	link := filepath.Join(tmp, "gopi-shell-"+strconv.Itoa(dead.Process.Pid)+"-5"+ns+"124")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	SweepTemp()
	for _, p := range []string{gone, reused} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s stayed: %v", p, err)
		}
	}
	for _, p := range []string{mine, otherNS, otherName, oldStyle, link, filepath.Join(target, "command")} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s went: %v", p, err)
		}
	}
}

// endMarked ends the marked processes and their groups, members that
// cleared their environment included, but not the group it is told to
// skip (its owner's): there only the marked processes go.
func TestEndMarked(t *testing.T) {
	mark := "GOPI_PROCESS_TEST" + strconv.Itoa(os.Getpid()) + "=1"
	dir := t.TempDir()
	// A group led by a marked shell, with a marked child, one that
	// cleared its environment and one that ignores SIGTERM.
	group := exec.Command("sh", "-c", `sleep 300 & env -i sleep 301 & sh -c 'trap "" TERM; echo > `+dir+`/trap; while :; do sleep 1; done' & wait`)
	group.Env = append(os.Environ(), mark)
	group.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// In the skipped group (this test's): a marked process, which goes,
	// and an unmarked one, which stays.
	marked := exec.Command("sleep", "302")
	marked.Env = append(os.Environ(), mark)
	unmarked := exec.Command("sleep", "303")
	for _, c := range []*exec.Cmd{group, marked, unmarked} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
	}
	waited := map[*exec.Cmd]chan struct{}{}
	for _, c := range []*exec.Cmd{group, marked} {
		ch := make(chan struct{})
		waited[c] = ch
		go func() { _ = c.Wait(); close(ch) }()
	}
	pgid := group.Process.Pid
	for deadline := time.Now().Add(10 * time.Second); ; {
		_, err := os.Stat(filepath.Join(dir, "trap"))
		n := 0
		eachProc(func(p procStat) {
			if p.pgid == pgid && !p.zombie {
				n++
			}
		})
		if err == nil && n >= 5 { // sh, sleep 300, sleep 301, sh with the trap and its sleep
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the group did not start: %d members", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	endMarked(mark, syscall.Getpgrp())
	<-waited[group]
	<-waited[marked]
	if live := liveGroups(map[int]bool{pgid: true}); live[pgid] {
		t.Fatal("members of the marked group are left")
	}
	if left := markedProcs(mark); len(left) > 0 {
		t.Fatalf("marked processes left: %v", left)
	}
	if err := unmarked.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the unmarked process of the skipped group was ended: %v", err)
	}
}
