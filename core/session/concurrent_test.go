package session

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The child process modes of these tests: the test binary re-executed with
// GOPI_SESSION_TEST_CHILD set runs one of them instead of the tests.
func TestMain(m *testing.M) {
	switch os.Getenv("GOPI_SESSION_TEST_CHILD") {
	case "":
		os.Exit(m.Run())
	case "append":
		childAppend(os.Getenv("GOPI_SESSION_FILE"), os.Getenv("GOPI_SESSION_TAG"), atoi(os.Getenv("GOPI_SESSION_N")), false)
	case "append-forever":
		childAppend(os.Getenv("GOPI_SESSION_FILE"), "k", 1<<30, true)
	case "rename":
		m, err := Open(os.Getenv("GOPI_SESSION_FILE"), Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for i := range atoi(os.Getenv("GOPI_SESSION_N")) {
			if _, err := m.SetName(fmt.Sprintf("name %d", i), TitleUser); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
	os.Exit(0)
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// childAppend appends n user messages tagged tag to the session file,
// printing each entry id once its append returned.
func childAppend(path, tag string, n int, report bool) {
	m, err := Open(path, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	payload := strings.Repeat("p", 3000)
	for i := range n {
		id, err := m.AppendMessage(user(fmt.Sprintf("%s-%d %s", tag, i, payload)))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if report {
			fmt.Fprintln(w, id)
			w.Flush()
		}
	}
}

func child(t *testing.T, mode, path string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{"GOPI_SESSION_TEST_CHILD=" + mode, "GOPI_SESSION_FILE=" + path}, env...)...)
	cmd.Stderr = os.Stderr
	return cmd
}

// newFile returns a session file on disk with an assistant message.
func newFile(t *testing.T) string {
	m := must[*Manager](t)(Create(testOptions(t)))
	must[string](t)(m.AppendMessage(user("start")))
	must[string](t)(m.AppendMessage(assistant("ok")))
	m.Close()
	return m.File()
}

// Two processes appending to one file, a third renaming it (full
// rewrites): every entry survives, no line is torn.
func TestProcessesShareAFile(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := newFile(t)
	const n = 150
	cmds := []*exec.Cmd{
		child(t, "append", path, "GOPI_SESSION_TAG=a", "GOPI_SESSION_N="+strconv.Itoa(n)),
		child(t, "append", path, "GOPI_SESSION_TAG=b", "GOPI_SESSION_N="+strconv.Itoa(n)),
		child(t, "rename", path, "GOPI_SESSION_N=40"),
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	m := must[*Manager](t)(Open(path, Options{}))
	if p := m.Problems(); len(p) != 0 {
		t.Fatalf("problems: %v", p[:min(3, len(p))])
	}
	seen := map[string]bool{}
	for _, line := range readLines(t, path)[1:] {
		for _, tag := range []string{"a", "b"} {
			for i := range n {
				if strings.Contains(line, fmt.Sprintf(`"%s-%d p`, tag, i)) {
					seen[fmt.Sprintf("%s-%d", tag, i)] = true
				}
			}
		}
	}
	if len(seen) != 2*n {
		t.Errorf("%d of %d appended entries in the file", len(seen), 2*n)
	}
	if len(m.Entries()) != 2*n+2 {
		t.Errorf("%d entries, want %d", len(m.Entries()), 2*n+2)
	}
	if !strings.HasPrefix(m.Name(), "name ") {
		t.Errorf("name %q", m.Name())
	}
}

// A process killed with SIGKILL in the middle of appends leaves every
// entry it reported intact; the next writer starts on a fresh line.
func TestKilledWriter(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := newFile(t)
	cmd := child(t, "append-forever", path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var reported []string
	sc := bufio.NewScanner(out)
	deadline := time.Now().Add(10 * time.Second)
	for sc.Scan() && len(reported) < 200 && time.Now().Before(deadline) {
		reported = append(reported, sc.Text())
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if len(reported) < 10 {
		t.Fatalf("child reported only %d appends", len(reported))
	}
	// Simulate the worst case too: a line torn in the middle.
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"type":"message","id":"torn0001","parentId":null,"timestamp":"x","message":{"role":"us`)
	f.Close()

	m := must[*Manager](t)(Open(path, Options{}))
	for _, id := range reported {
		if m.Entry(id) == nil {
			t.Fatalf("reported entry %s lost", id)
		}
	}
	if p := m.Problems(); len(p) != 1 {
		t.Errorf("problems after kill: %v", p)
	}
	id := must[string](t)(m.AppendMessage(user("after the kill")))
	m.Close()
	r := must[*Manager](t)(Open(path, Options{}))
	if r.Entry(id) == nil || len(r.Problems()) != 1 {
		t.Errorf("append after a torn line: entry %v, problems %v", r.Entry(id) != nil, r.Problems())
	}
}

// Many goroutines use one Manager while another Manager appends to the
// same file: run with -race.
func TestGoroutinesAndTwoManagers(t *testing.T) {
	t.Parallel()
	path := newFile(t)
	m1 := must[*Manager](t)(Open(path, Options{Sync: SyncOnFlush}))
	m2 := must[*Manager](t)(Open(path, Options{Sync: SyncOnFlush}))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 25 {
				m := m1
				if g == 3 {
					m = m2
				}
				if _, err := m.AppendMessage(user(fmt.Sprintf("g%d-%d", g, i))); err != nil {
					t.Error(err)
					return
				}
				m.BuildContext()
				m.Entries()
				if i%10 == 0 {
					m.SetName(fmt.Sprintf("n%d", i), TitleAuto)
				}
			}
		})
	}
	wg.Wait()
	if err := m1.Flush(); err != nil {
		t.Fatal(err)
	}
	m1.Close()
	m2.Close()
	r := must[*Manager](t)(Open(path, Options{}))
	if n := len(r.Entries()); n != 2+100 || len(r.Problems()) != 0 {
		t.Errorf("%d entries, problems %v", n, r.Problems())
	}
}
