package shell

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSessionBasics(t *testing.T) {
	sh, dir := startSession(t, testConfig(t))
	for _, tc := range []struct {
		cmd, out string
		code     int
	}{
		{"echo hi", "hi\n", 0},
		{"printf abc", "abc", 0},
		{"", "", 0},
		{"false", "", 1},
		{"echo a; echo b >&2; echo c", "a\nb\nc\n", 0},
		{"(exit 7)", "", 7},
		{"cat; echo after-cat", "after-cat\n", 0},       // stdin is /dev/null, not the command stream
		{"read x; echo \"[$x]\"", "[]\n", 0},            //
		{"printf '\\377\\376ok\\n'", "\xff\xfeok\n", 0}, // bytes pass through
		{"if then", "", 2},                              // a syntax error is a status, not a dead shell
		{"echo $PAGER $GIT_EDITOR $GIT_TERMINAL_PROMPT $CI $SSH_ASKPASS", "cat true 0 1 /usr/bin/false\n", 0},
		{"pwd", dir + "\n", 0},
	} {
		out, res := run(t, sh, Request{Command: tc.cmd})
		if tc.cmd == "if then" {
			if !strings.Contains(out, "syntax error") {
				t.Errorf("%q: %q", tc.cmd, out)
			}
			out = ""
		}
		if out != tc.out || !res.Exited || res.ExitCode != tc.code || res.ShellExited {
			t.Errorf("%q: out %q, %+v; want %q, code %d", tc.cmd, out, res, tc.out, tc.code)
		}
	}
}

func TestSessionStatePersists(t *testing.T) {
	sh, dir := startSession(t, testConfig(t))
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.Mkdir(filepath.Join(dir, "other"), 0o755)
	steps := []struct {
		req Request
		out string
	}{
		{Request{Command: "cd sub; export FOO=bar; greet() { echo hello $1; }; declare X=5"}, ""},
		{Request{Command: "pwd; echo $FOO $X; greet you"}, sub + "\nbar 5\nhello you\n"},
		// An explicit directory is for that command only.
		{Request{Command: "pwd", Dir: filepath.Join(dir, "other")}, filepath.Join(dir, "other") + "\n"},
		{Request{Command: "pwd"}, sub + "\n"},
		// Extra variables are for that command only, and restore what was there.
		{Request{Command: "echo $FOO $NEW", Env: map[string]string{"FOO": "x y", "NEW": "it's"}}, "x y it's\n"},
		{Request{Command: "echo \"$FOO|${NEW-unset}\""}, "bar|unset\n"},
	}
	for i, st := range steps {
		out, res := run(t, sh, st.req)
		if out != st.out || res.ExitCode != 0 {
			t.Fatalf("step %d %q: %q %+v, want %q", i, st.req.Command, out, res, st.out)
		}
	}
	if sh.Dir() != sub {
		t.Fatal(sh.Dir())
	}
	if _, err := sh.Run(context.Background(), Request{Command: "true", Env: map[string]string{"A=B": "x"}}); err == nil {
		t.Fatal("bad env name accepted")
	}
}

func TestSessionExit(t *testing.T) {
	sh, _ := startSession(t, testConfig(t))
	out, res := run(t, sh, Request{Command: "echo bye; exit 3"})
	if out != "bye\n" || !res.ShellExited || !res.Exited || res.ExitCode != 3 {
		t.Fatalf("%q %+v", out, res)
	}
	if _, err := sh.Run(context.Background(), Request{Command: "true"}); err != ErrShellGone {
		t.Fatal(err)
	}
	// A shell that kills itself reports the signal.
	sh2, _ := startSession(t, testConfig(t))
	_, res = run(t, sh2, Request{Command: "kill -9 $$"})
	if !res.ShellExited || res.ExitCode != 137 {
		t.Fatalf("%+v", res)
	}
}

func TestSessionTimeout(t *testing.T) {
	sh, _ := startSession(t, testConfig(t))
	start := time.Now()
	out, res := run(t, sh, Request{Command: "echo start; sleep 30 & sleep 30", Timeout: 300 * time.Millisecond})
	if out != "start\n" || !res.TimedOut || !res.ShellExited || res.Exited {
		t.Fatalf("%q %+v", out, res)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestSessionCancel(t *testing.T) {
	sh, _ := startSession(t, testConfig(t))
	ctx, cancel := context.WithCancel(context.Background())
	var out buffer
	done := make(chan Result)
	go func() {
		res, _ := sh.Run(ctx, Request{Command: "yes", Output: &out})
		done <- res
	}()
	waitFor(t, "a MiB of output", func() bool { return out.Len() >= 1<<20 })
	cancel()
	res := <-done
	if !res.Cancelled || !res.ShellExited {
		t.Fatalf("%+v", res)
	}
	if !strings.HasPrefix(out.String(), "y\ny\n") {
		t.Fatal("no output")
	}
}

func TestSessionTermIgnored(t *testing.T) {
	cfg := testConfig(t)
	cfg.Grace = 200 * time.Millisecond
	sh, _ := startSession(t, cfg)
	start := time.Now()
	_, res := run(t, sh, Request{Command: "trap '' TERM; (trap '' TERM; sleep 30) & sleep 30", Timeout: 100 * time.Millisecond})
	if !res.TimedOut {
		t.Fatalf("%+v", res)
	}
	if d := time.Since(start); d < 300*time.Millisecond || d > 3*time.Second {
		t.Fatalf("took %v: the grace was not applied", d)
	}
}

func TestSessionBackgroundProcess(t *testing.T) {
	sh, _ := startSession(t, testConfig(t))
	start := time.Now()
	out, res := run(t, sh, Request{Command: "sleep 60 & echo started"})
	if out != "started\n" || res.ExitCode != 0 || time.Since(start) > 5*time.Second {
		t.Fatalf("%q %+v", out, res)
	}
	// The daemon's later output does not confuse the next command. It
	// writes once the command that started it has returned (a daemon
	// that writes during a command is that command's output), and the
	// next command starts once the session has read it.
	goAhead := filepath.Join(t.TempDir(), "write-now")
	out, res = run(t, sh, Request{Command: "(while [ ! -e '" + goAhead + "' ]; do sleep 0.01; done; echo late) & echo now"})
	if out != "now\n" || res.ExitCode != 0 {
		t.Fatalf("%q %+v", out, res)
	}
	before := handed(sh)
	if err := os.WriteFile(goAhead, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the session to read the late output", func() bool { return handed(sh) == before+int64(len("late\n")) })
	out, _ = run(t, sh, Request{Command: "echo next"})
	if out != "next\n" {
		t.Fatalf("%q", out)
	}
	// Close (in cleanup) kills the sleep; the marker check proves it.
}

func TestSessionRedirectsDoNotLeak(t *testing.T) {
	sh, _ := startSession(t, testConfig(t))
	out, res := run(t, sh, Request{Command: "exec >&-; echo to-stderr >&2"})
	if out != "to-stderr\n" || res.ExitCode != 0 {
		t.Fatalf("%q %+v", out, res)
	}
	run(t, sh, Request{Command: "exec >/dev/null 2>&1"})
	if out, _ := run(t, sh, Request{Command: "echo visible"}); out != "visible\n" {
		t.Fatalf("%q", out)
	}
}

func TestSessionPrefix(t *testing.T) {
	cfg := testConfig(t)
	cfg.Prefix = "echo pre"
	sh, _ := startSession(t, cfg)
	if out, _ := run(t, sh, Request{Command: "x"}); out != "pre x\n" {
		t.Fatalf("%q", out)
	}
}

func TestSessionLargeOutput(t *testing.T) {
	sh, _ := startSession(t, testConfig(t))
	var n countWriter
	res, err := sh.Run(context.Background(), Request{Command: "head -c 50000000 /dev/zero; echo end", Output: &n})
	if err != nil || res.ExitCode != 0 || n.n != 50000004 {
		t.Fatal(err, res, n.n)
	}
}

type countWriter struct{ n int }

func (c *countWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

func TestSessionStartFailure(t *testing.T) {
	cfg := testConfig(t)
	cfg.Path = "/nonexistent/bash"
	if _, err := Start(context.Background(), cfg, t.TempDir()); err == nil || !strings.Contains(err.Error(), "/nonexistent/bash") {
		t.Fatal(err)
	}
	// A shell that exits during start-up.
	cfg = testConfig(t)
	cfg.Path = "/bin/true"
	if _, err := Start(context.Background(), cfg, t.TempDir()); err == nil {
		t.Fatal("started")
	}
}

// A command may leave functions and aliases named like the commands the
// protocol runs (printf, cd, test, export, …) and shell options that end a
// shell at the first failure; later commands still run, report their
// status and keep the shell's state.
func TestSessionSurvivesShadowedBuiltins(t *testing.T) {
	sh, dir := startSession(t, testConfig(t))
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	const limit = 10 * time.Second // a lost trailer fails the test instead of hanging it
	define := `set -eu; X=kept
printf() { echo shadowed; }; cd() { echo no-cd; return 1; }; echo() { :; }
test() { return 1; }; [() { return 1; }; export() { :; }; unset() { :; }
.() { :; }; source() { :; }; command() { :; }; set() { :; }; greet() { \builtin echo hi; }
shopt -s expand_aliases; alias printf=false cd=false builtin=false command=false export=false unset=false test=false`
	steps := []struct {
		req  Request
		out  string
		code int
	}{
		{Request{Command: define}, "", 0},
		// An explicit directory and extra variables go through cd, test,
		// export and unset; false would end a shell left with errexit.
		{Request{Command: "false", Dir: sub, Env: map[string]string{"A": "b"}}, "", 1},
		{Request{Command: `\builtin echo "$X ${A-unset} $NOT_SET"; \builtin cd sub`}, "kept unset \n", 0},
		{Request{Command: `greet; \builtin echo "$PWD"`}, "hi\n" + sub + "\n", 0},
	}
	for i, st := range steps {
		st.req.Timeout = limit
		out, res := run(t, sh, st.req)
		if out != st.out || !res.Exited || res.ExitCode != st.code || res.ShellExited {
			t.Fatalf("step %d: %q %+v; want %q, code %d", i, out, res, st.out, st.code)
		}
	}
	if sh.Dir() != sub {
		t.Fatalf("dir %q, want %q", sh.Dir(), sub)
	}
}
