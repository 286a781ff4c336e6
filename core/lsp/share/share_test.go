package share

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/lsp"
	"github.com/gopi-agent/gopi/core/lsp/lsptest"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// helperEnv makes the test binary a gopi-like process that shares the
// fake server: its value is "dir|root|marker".
const helperEnv = "GOPI_SHARE_TEST_HELPER"

// markerEnv tags the fake servers a test starts, to count them in /proc.
const markerEnv = "GOPI_SHARE_TEST_MARKER"

func TestMain(m *testing.M) {
	lsptest.RunFakeIfAsked()
	if v := os.Getenv(helperEnv); v != "" {
		os.Exit(runHelper(v))
	}
	os.Exit(m.Run())
}

// fakeServer is the fake language server (this test binary) for .txt
// files.
func fakeServer(t testing.TB) *lsp.Server {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &lsp.Server{Name: "fake", Command: exe, FileTypes: []string{".txt"}, RootMarkers: []string{"fake.marker"}}
}

// newManager is one process's manager of root, sharing through dir.
func newManager(root, dir, marker string, s *lsp.Server) *lsp.Manager {
	return lsp.NewManager(lsp.ManagerOptions{
		Root: root, Config: &config.LSPConfig{Enabled: true}, Builtins: []*lsp.Server{s},
		Dial:               Dial(Options{Dir: dir, Env: append(lsptest.Env(lsptest.FakeOK), markerEnv+"="+marker)}),
		ProjectLoadTimeout: time.Millisecond, // the fake reports no progress
	})
}

// workspace is a root the fake serves, a share directory and a marker.
func workspace(t *testing.T) (root, dir, marker string) {
	root = t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "fake.marker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(t.TempDir(), "share")
	return root, dir, fmt.Sprintf("%s-%d", t.Name(), time.Now().UnixNano())
}

// fakes returns the pids of the running fake servers tagged with marker
// (and their parents).
func fakes(t *testing.T, marker string) map[int]int {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("counting processes reads /proc")
	}
	out := map[int]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !strings.Contains(string(env), "\x00"+markerEnv+"="+marker+"\x00") && !strings.HasPrefix(string(env), markerEnv+"="+marker+"\x00") {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces, so split after ')'.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 2 || fields[0] == "Z" {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		out[pid] = ppid
	}
	return out
}

func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Three managers of one process (three sessions) use one server; each
// sees diagnostics for the text it sent, under its own versions, though
// the server was told of a change only when the text differed.
func TestManagersShareOneServer(t *testing.T) {
	root, dir, marker := workspace(t)
	s := fakeServer(t)
	var ms []*lsp.Manager
	for range 3 {
		m := newManager(root, dir, marker, s)
		t.Cleanup(func() { m.Close() })
		ms = append(ms, m)
	}
	ctx := context.Background()
	p := filepath.Join(root, "a.txt")
	write(t, p, "BAD\n")
	for i, m := range ms {
		d, _, err := m.Fresh(ctx, p)
		if err != nil || len(d) != 1 {
			t.Fatalf("manager %d: %+v %v", i, d, err)
		}
	}
	if n := len(fakes(t, marker)); n != 1 {
		t.Fatalf("%d fake servers run for 3 managers, want 1", n)
	}
	// One manager sees the fix first; the others then send the same
	// text, which the server already has: they get its diagnostics.
	write(t, p, "fine\n")
	if d, _, err := ms[0].Fresh(ctx, p); err != nil || len(d) != 0 {
		t.Fatalf("after the fix: %+v %v", d, err)
	}
	for i, m := range ms[1:] {
		if d, _, err := m.Fresh(ctx, p); err != nil || len(d) != 0 {
			t.Fatalf("manager %d after the fix: %+v %v", i+1, d, err)
		}
	}
	write(t, p, "BAD\nBAD\n")
	if d, _, err := ms[2].Fresh(ctx, p); err != nil || len(d) != 2 {
		t.Fatalf("manager 2 after its change: %+v %v", d, err)
	}
	// Each manager's own client keeps its own versions.
	for i, m := range ms {
		c, _, err := m.Client(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		doc, ok := c.Document(p)
		if !ok || doc.Version < 1 {
			t.Fatalf("manager %d: document %+v %v", i, doc, ok)
		}
	}
	// The server stops when the last manager lets it go.
	for _, m := range ms {
		m.Close()
	}
	testwait.Until(t, "the shared server to stop", func() bool { return len(fakes(t, marker)) == 0 })
	testwait.Until(t, "the socket and lock file to be removed", func() bool {
		ents, _ := os.ReadDir(dir)
		return len(ents) == 0
	})
}

// Three gopi processes share one server; when the process that runs it is
// killed, the next call of another starts it again (one server again),
// with the restart note.
func TestProcessesShareOneServer(t *testing.T) {
	root, dir, marker := workspace(t)
	p := filepath.Join(root, "a.txt")
	write(t, p, "BAD\nBAD\nBAD\n")
	type proc struct {
		cmd *exec.Cmd
		in  io.WriteCloser
		out *bufio.Scanner
	}
	exe, _ := os.Executable()
	var procs []*proc
	for range 3 {
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), helperEnv+"="+dir+"|"+root+"|"+marker)
		cmd.Stderr = os.Stderr
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pr := &proc{cmd, in, bufio.NewScanner(out)}
		procs = append(procs, pr)
		t.Cleanup(func() { in.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	}
	ask := func(pr *proc) string {
		t.Helper()
		if _, err := io.WriteString(pr.in, p+"\n"); err != nil {
			t.Fatal(err)
		}
		if !pr.out.Scan() {
			t.Fatalf("helper ended: %v", pr.out.Err())
		}
		return pr.out.Text()
	}
	for i, pr := range procs {
		if got := ask(pr); got != "3" {
			t.Fatalf("process %d answered %q, want 3 diagnostics", i, got)
		}
	}
	running := fakes(t, marker)
	if len(running) != 1 {
		t.Fatalf("%d fake servers run for 3 processes, want 1: %v", len(running), running)
	}
	var hostPID int
	for _, ppid := range running {
		hostPID = ppid
	}
	var rest []*proc
	for _, pr := range procs {
		if pr.cmd.Process.Pid == hostPID {
			_ = pr.cmd.Process.Signal(syscall.SIGKILL)
			_ = pr.cmd.Wait()
		} else {
			rest = append(rest, pr)
		}
	}
	if len(rest) != 2 {
		t.Fatalf("the server's parent %d is none of the helpers", hostPID)
	}
	// The orphaned server sees its input close and exits.
	testwait.Until(t, "the killed host's server to exit", func() bool { return len(fakes(t, marker)) == 0 })
	write(t, p, "BAD\n")
	for i, pr := range rest {
		got := ask(pr)
		if !strings.HasPrefix(got, "1") {
			t.Fatalf("process %d after the host died: %q", i, got)
		}
	}
	if n := len(fakes(t, marker)); n != 1 {
		t.Fatalf("%d fake servers after the restart, want 1", n)
	}
}

// runHelper is a process of TestProcessesShareOneServer: for each path
// read from stdin it prints the number of diagnostics (and a note when
// the server was restarted).
func runHelper(v string) int {
	parts := strings.Split(v, "|")
	exe, _ := os.Executable()
	s := &lsp.Server{Name: "fake", Command: exe, FileTypes: []string{".txt"}, RootMarkers: []string{"fake.marker"}}
	m := newManager(parts[1], parts[0], parts[2], s)
	defer m.Close()
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		d, _, err := m.Fresh(ctx, in.Text())
		cancel()
		if err != nil {
			// A dead server fails this call; the next one restarts it.
			ctx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
			d, _, err = m.Fresh(ctx, in.Text())
			cancel()
		}
		if err != nil {
			fmt.Println("error:", strings.ReplaceAll(err.Error(), "\n", " "))
			continue
		}
		fmt.Println(len(d))
	}
	return 0
}
