package pykernel

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/eval/cell"
	"github.com/gopi-agent/gopi/internal/childproc"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// needPython skips a test when no python3 is installed.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed (scripts/setup.sh installs it)")
	}
}

// newSession returns a session of a fresh pool, both closed after t.
func newSession(t *testing.T, opts Options) (*Pool, *Session) {
	t.Helper()
	needPython(t)
	if opts.Environ == nil {
		opts.Environ = os.Environ()
	}
	p := NewPool(opts)
	s := p.Session(t.TempDir(), nil)
	t.Cleanup(func() { _ = p.Close() })
	return p, s
}

// shared is one kernel for the tests that leave it running and clean:
// starting Python is most of a test's time.
var shared struct {
	once sync.Once
	pool *Pool
	s    *Session
}

// sharedSession returns the shared kernel's session (closed by TestMain).
func sharedSession(t *testing.T) *Session {
	t.Helper()
	needPython(t)
	shared.once.Do(func() {
		shared.pool = NewPool(Options{Environ: os.Environ()})
		shared.s = shared.pool.Session(os.TempDir(), nil)
	})
	return shared.s
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.pool != nil {
		_ = shared.pool.Close()
	}
	os.Exit(code)
}

// run runs code and returns its text output and result.
func run(t *testing.T, s *Session, code string, timeout time.Duration) (string, cell.Result) {
	t.Helper()
	var out strings.Builder
	res, err := s.Run(context.Background(), cell.Request{Code: code, Timeout: timeout, Output: &out})
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), res
}

func TestStatePersists(t *testing.T) {
	s := sharedSession(t)
	if out, res := run(t, s, "x = 41\nprint('set')", 10*time.Second); res.ExitCode != 0 || out != "set\n" {
		t.Fatalf("%q %+v", out, res)
	}
	out, res := run(t, s, "print(x + 1)\nx * 2", 10*time.Second)
	if res.ExitCode != 0 || out != "42\n82\n" || len(res.Displays) != 0 {
		t.Fatalf("%q %+v", out, res)
	}
}

func TestErrorTraceback(t *testing.T) {
	s := sharedSession(t)
	out, res := run(t, s, "def f():\n    return 1/0\nf()", 10*time.Second)
	if res.ExitCode != 1 || !strings.Contains(out, "ZeroDivisionError") || !strings.Contains(out, "File \"<cell ") || strings.Contains(out, "runner.py") {
		t.Fatalf("%q %+v", out, res)
	}
}

func TestStdinRefused(t *testing.T) {
	s := sharedSession(t)
	_, res := run(t, s, "input('name? ')", 10*time.Second)
	if res.ExitCode != 1 || !res.StdinRequested {
		t.Fatalf("%+v", res)
	}
}

// An endless loop is interrupted at its timeout; the kernel and its
// variables stay.
func TestTimeoutKeepsKernel(t *testing.T) {
	s := sharedSession(t)
	run(t, s, "kept = 'still here'", 10*time.Second)
	out, res := run(t, s, "while True:\n    pass", 300*time.Millisecond)
	if !res.Cancelled || !res.TimedOut || len(res.Notes) != 0 {
		t.Fatalf("%q %+v", out, res)
	}
	if out, res := run(t, s, "print(kept)", 10*time.Second); out != "still here\n" || len(res.Notes) != 0 {
		t.Fatalf("after the timeout: %q %+v", out, res)
	}
}

// A cell that ignores the interrupt gets its kernel killed; the next
// cell runs in a new one and says so.
func TestIgnoredInterruptKills(t *testing.T) {
	t.Parallel()
	_, s := newSession(t, Options{InterruptGrace: 200 * time.Millisecond})
	run(t, s, "pass", 10*time.Second) // started: the interrupt reaches the runner, not a python still starting
	code := "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    time.sleep(0.01)"
	out, res := run(t, s, code, 200*time.Millisecond)
	if !res.Cancelled || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "killed") {
		t.Fatalf("%q %+v", out, res)
	}
	out, res = run(t, s, "print('fresh')", 10*time.Second)
	if out != "fresh\n" || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "new kernel") {
		t.Fatalf("%q %+v", out, res)
	}
}

func TestKernelDeathRestarts(t *testing.T) {
	t.Parallel()
	_, s := newSession(t, Options{})
	for _, code := range []string{"import os\nos._exit(3)", "import ctypes\nctypes.string_at(0)"} {
		run(t, s, "v = 1", 10*time.Second)
		out, res := run(t, s, code, 10*time.Second)
		if res.ExitCode != 1 || !strings.Contains(out, "The Python kernel ended while running this cell") {
			t.Fatalf("%s: %q %+v", code, out, res)
		}
		out, res = run(t, s, "print('v' in globals())", 10*time.Second)
		if out != "False\n" || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "had ended") {
			t.Fatalf("%s, next cell: %q %+v", code, out, res)
		}
	}
}

// A cell's children, a daemon that left the group included, end with a
// reset.
func TestResetEndsChildren(t *testing.T) {
	t.Parallel()
	_, s := newSession(t, Options{})
	code := "import subprocess\np = subprocess.Popen(['setsid', 'sleep', '300'])\nq = subprocess.Popen(['sleep', '300'])\nprint(p.pid, q.pid)"
	out, res := run(t, s, code, 10*time.Second)
	if res.ExitCode != 0 {
		t.Fatalf("%q", out)
	}
	var pids []int
	for _, f := range strings.Fields(out) {
		n, _ := strconv.Atoi(f)
		pids = append(pids, n)
	}
	s.Reset()
	for _, pid := range pids {
		if childproc.Running(pid) {
			t.Errorf("process %d outlived the reset", pid)
		}
	}
	if out, _ := run(t, s, "print('p' in globals())", 10*time.Second); out != "False\n" {
		t.Fatalf("after reset: %q", out)
	}
}

func TestDisplays(t *testing.T) {
	s := sharedSession(t)
	out, res := run(t, s, "print('before')\ndisplay({'a': [1, 2]})\nclass M:\n    def _repr_markdown_(self):\n        return '**bold**'\ndisplay(M())\n_ = write('f.txt', 'x')", 10*time.Second)
	if res.ExitCode != 0 || out != "before\n{'a': [1, 2]}\n**bold**\n" { // data shows its repr too, as in omp
		t.Fatalf("%q %+v", out, res)
	}
	var kinds []string
	for _, d := range res.Displays {
		kinds = append(kinds, string(d.Kind))
	}
	if !slices.Equal(kinds, []string{"json", "markdown", "status"}) || string(res.Displays[0].JSON) != `{"a": [1, 2]}` {
		t.Fatalf("%v %+v", kinds, res.Displays)
	}
}

func TestMagics(t *testing.T) {
	s := sharedSession(t)
	out, res := run(t, s, "!echo bang\nfiles = !printf 'a\\nb\\n'\nprint(files.s)\nimport os\n_d0 = os.getcwd()\n%cd /\nd = %pwd\nprint(d)\nos.chdir(_d0)", 10*time.Second)
	if res.ExitCode != 0 || out != "bang\na b\n/\n" {
		t.Fatalf("%q %+v", out, res)
	}
	// A shell cell's value is its exit status, as in omp.
	out, res = run(t, s, "%%bash\necho from bash", 10*time.Second)
	if out != "from bash\n0\n" {
		t.Fatalf("%q %+v", out, res)
	}
	out, res = run(t, s, "%%bash\necho hi\nexit 3", 10*time.Second)
	if out != "hi\n3\n" {
		t.Fatalf("%q %+v", out, res)
	}
	// An unknown magic is one line, no traceback through the prelude.
	out, res = run(t, s, "%nope", 10*time.Second)
	if res.ExitCode != 1 || !strings.HasPrefix(out, "UsageError: no line magic %nope; gopi has %cd") || strings.Count(out, "\n") != 1 {
		t.Fatalf("%q %+v", out, res)
	}
	// display() of a string shows its repr, as IPython does.
	out, res = run(t, s, "display('plain text')", 10*time.Second)
	if out != "'plain text'\n" {
		t.Fatalf("%q %+v", out, res)
	}
}

func TestFilterEnv(t *testing.T) {
	t.Parallel()
	env := []string{"PATH=/bin", "ANTHROPIC_API_KEY=k", "PI_X=1", "AWS_SECRET=s", "LC_ALL=C", "OPENAI_API_KEY=o"}
	if got := FilterEnv(env, nil); !slices.Equal(got, []string{"PATH=/bin", "PI_X=1", "LC_ALL=C"}) {
		t.Fatalf("%v", got)
	}
	if got := FilterEnv(env, []string{"OPENAI_API_KEY"}); !slices.Contains(got, "OPENAI_API_KEY=o") {
		t.Fatalf("%v", got)
	}
	_, s := newSession(t, Options{Environ: append(os.Environ(), "ANTHROPIC_API_KEY=secret")})
	if out, _ := run(t, s, "import os\nprint(os.environ.get('ANTHROPIC_API_KEY'))", 10*time.Second); out != "None\n" {
		t.Fatalf("%q", out)
	}
}

// The pool keeps at most MaxKernels: a new session's kernel stops the
// least recently used idle one, which says so on its next cell; the
// sweep stops kernels idle past the timeout.
func TestPoolLimits(t *testing.T) {
	t.Parallel()
	p, a := newSession(t, Options{MaxKernels: 1})
	b := p.Session(t.TempDir(), nil)
	run(t, a, "x = 1", 10*time.Second)
	run(t, b, "y = 1", 10*time.Second)
	if p.Live() != 1 {
		t.Fatalf("%d kernels", p.Live())
	}
	_, res := run(t, a, "print(1)", 10*time.Second)
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "stopped while idle") {
		t.Fatalf("%+v", res)
	}
	now := time.Now()
	p.now = func() time.Time { return now.Add(DefaultIdleTimeout) }
	p.sweep()
	if p.Live() != 0 {
		t.Fatalf("%d kernels after the sweep", p.Live())
	}
}

// cancelOn is an output that cancels a context once it has seen a word.
type cancelOn struct {
	strings.Builder
	word   string
	cancel context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	n, _ := c.Builder.Write(p)
	if strings.Contains(c.String(), c.word) {
		c.cancel()
	}
	return n, nil
}

// An aborted call interrupts its cell the way a timeout does: the kernel
// keeps its variables.
func TestAbortKeepsKernel(t *testing.T) {
	s := sharedSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	out := &cancelOn{word: "spinning", cancel: cancel}
	res, err := s.Run(ctx, cell.Request{Code: "mark = 7\nprint('spinning', flush=True)\nwhile True:\n    pass", Timeout: time.Minute, Output: out})
	if err != nil || !res.Cancelled || res.TimedOut {
		t.Fatalf("%v %+v", err, res)
	}
	if got, _ := run(t, s, "print(mark)", 10*time.Second); got != "7\n" {
		t.Fatalf("after the abort: %q", got)
	}
}

// python.kernelMode per-call: every cell gets a fresh kernel.
func TestPerCall(t *testing.T) {
	t.Parallel()
	p, s := newSession(t, Options{PerCall: true})
	run(t, s, "v = 1", 10*time.Second)
	if out, _ := run(t, s, "print('v' in globals())", 10*time.Second); out != "False\n" || p.Live() != 0 {
		t.Fatalf("%q, %d kernels", out, p.Live())
	}
}

// A kernel whose background output nobody reads (a daemon printing
// between cells) still stops, and its process is reaped.
func TestStopWithUnreadOutput(t *testing.T) {
	t.Parallel()
	p, s := newSession(t, Options{})
	out, _ := run(t, s, "import subprocess, sys\np = subprocess.Popen([sys.executable, '-c', 'import sys\\nwhile True: sys.stdout.write(\"y\" * 65536)'])\nprint('pid', p.pid)", 10*time.Second)
	k := p.kernels[s].k
	testwait.Until(t, "the unread frames to fill the kernel's queue", func() bool { return len(k.frames) == cap(k.frames) })
	_ = s.Close()
	select {
	case <-k.exited:
	default:
		t.Fatalf("the kernel was not reaped (%q)", out)
	}
}

// output() reads a saved output by id from the session's artifacts.
func TestOutputHelper(t *testing.T) {
	sharedSession(t)
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/Scout.md", []byte("line 1\nline 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/3.bash.log", []byte(`{"a": {"b": 5}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s := shared.pool.Session(dir, []string{"PI_ARTIFACTS_DIR=" + dir})
	defer s.Close()
	out, res := run(t, s, "print(output('Scout', offset=2).strip())\nprint(output('3', query='a.b'))", 10*time.Second)
	if res.ExitCode != 0 || out != "line 2\n5\n" {
		t.Fatalf("%q %+v", out, res)
	}
}

// The interpreter: the active virtualenv, .venv in the directory, a
// managed one, then PATH.
func TestResolvePython(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mk := func(venv string) string {
		py := filepath.Join(venv, "bin", "python")
		if err := os.MkdirAll(filepath.Dir(py), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(py, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return py
	}
	managed := mk(filepath.Join(dir, "managed"))
	env := []string{"PATH=/nowhere"}
	if py, got, err := resolvePython(filepath.Join(dir, "proj"), env, []string{filepath.Join(dir, "managed")}); err != nil || py != managed || !slices.Contains(got, "PATH="+filepath.Join(dir, "managed", "bin")+":/nowhere") {
		t.Fatalf("%s %v %v", py, got, err)
	}
	local := mk(filepath.Join(dir, "proj", ".venv"))
	if py, _, _ := resolvePython(filepath.Join(dir, "proj"), env, []string{filepath.Join(dir, "managed")}); py != local {
		t.Fatalf("%s", py)
	}
	if _, _, err := resolvePython(t.TempDir(), env, nil); err == nil || !strings.Contains(err.Error(), "no Python found") {
		t.Fatalf("%v", err)
	}
}

// A kernel cannot start in a working directory that was deleted: the
// error says so, not that python3 is missing.
func TestDeletedWorkingDirectory(t *testing.T) {
	needPython(t)
	dir := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := NewPool(Options{Environ: os.Environ()})
	t.Cleanup(func() { _ = p.Close() })
	s := p.Session(dir, nil)
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	_, err := s.Run(context.Background(), cell.Request{Code: "print(1)", Timeout: 10 * time.Second, Output: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "the working directory "+dir+" no longer exists") {
		t.Fatalf("%v", err)
	}
}
