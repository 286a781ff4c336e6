package bash

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/testwait"
)

func TestBashTexts(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	os.Mkdir(filepath.Join(env.Cwd, "sub"), 0o755)
	os.WriteFile(filepath.Join(env.Cwd, "file.txt"), []byte("x"), 0o644)
	for _, tc := range []struct {
		args    string
		text    string
		isError bool
	}{
		{`{"command": "echo hi"}`, "hi\n", false},
		{`{"command": "true"}`, "(no output)", false},
		{`{"command": "echo out; echo err >&2; echo out2"}`, "out\nerr\nout2\n", false},
		{`{"command": "(exit 3)"}`, "(no output)\n\nCommand exited with code 3", true},
		{`{"command": "echo partial; false"}`, "partial\n\nCommand exited with code 1", true},
		{`{"command": "printf 'bad\\377\\376utf8\\n'"}`, "bad\uFFFDutf8\n", false},
		{`{"command": "cd sub && pwd"}`, env.Cwd + "/sub\n", false},
		{`{"command": "pwd"}`, env.Cwd + "\n", false}, // the cd above was for one call
		{`{"command": "cd 'sub' && pwd"}`, env.Cwd + "/sub\n", false},
		{`{"command": "pwd", "cwd": "sub"}`, env.Cwd + "/sub\n", false},
		{`{"command": "echo \"$GREETING\"", "env": {"GREETING": "it's \"quoted\"\nand multi-line"}}`, "it's \"quoted\"\nand multi-line\n", false},
		{`{"command": "true", "env": {"BAD-NAME": "x"}}`, "Invalid bash env name: BAD-NAME", true},
		{`{"command": "true", "env": {"1X": "x"}}`, "Invalid bash env name: 1X", true},
		{`{"command": "true", "env": {"A=B": "x"}}`, "Invalid bash env name: A=B", true},
		{`{"command": "true", "cwd": "missing"}`, "Working directory does not exist: " + env.Cwd + "/missing", true},
		{`{"command": "cd missing && true"}`, "Working directory does not exist: " + env.Cwd + "/missing", true},
		{`{"command": "true", "cwd": "file.txt"}`, "Working directory is not a directory: " + env.Cwd + "/file.txt", true},
		{`{"command": "seq 1 10", "head": 3}`, "1\n2\n3\n", false},
		{`{"command": "seq 1 10", "tail": 2}`, "9\n10\n", false},
		{`{"command": "seq 1 10", "head": 5, "tail": 2}`, "4\n5\n", false},
		{`{"command": "true", "async": true}`, errAsyncDisabled, true},
		{`{"command": "echo $PAGER $GIT_PAGER $GIT_EDITOR $EDITOR $GIT_TERMINAL_PROMPT $SSH_ASKPASS $CI"}`, "cat cat true true 0 /usr/bin/false 1\n", false},
		{`{"command": "cat; echo stdin-is-empty"}`, "stdin-is-empty\n", false},
		{`{"command": "exec >&-; echo still-here >&2"}`, "still-here\n", false},
	} {
		o := callTool(t, env, tc.args)
		if o.text != tc.text || o.isError != tc.isError {
			t.Errorf("%s:\n got %q (error %v)\nwant %q (error %v)", tc.args, o.text, o.isError, tc.text, tc.isError)
		}
	}
}

func TestBashDetailsAndTimeout(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	o := callTool(t, env, `{"command": "echo ok", "timeout": 99999}`)
	want := "ok\n\nTimeout clamped to 3600s (requested 99999s; allowed range 1-3600s)."
	if o.text != want || o.details.TimeoutSeconds != 3600 || o.details.RequestedTimeoutSeconds == nil || *o.details.RequestedTimeoutSeconds != 99999 {
		t.Fatalf("%q %+v", o.text, o.details)
	}
	o = callTool(t, env, `{"command": "echo ok"}`)
	if o.details.TimeoutSeconds != 300 || o.details.RequestedTimeoutSeconds != nil || o.details.Meta != nil {
		t.Fatalf("%+v", o.details)
	}
	o = callTool(t, env, `{"command": "echo ok", "timeout": 0}`)
	if o.details.TimeoutSeconds != 1 || *o.details.RequestedTimeoutSeconds != 0 {
		t.Fatalf("%+v", o.details)
	}
	start := time.Now()
	o = callTool(t, env, `{"command": "echo before; sleep 20", "timeout": 1}`)
	if !o.isError || !strings.HasPrefix(o.text, "before\n") || !strings.HasSuffix(o.text, "Command timed out after 1 seconds") ||
		!strings.Contains(o.text, shellEndedNotice) || time.Since(start) > 5*time.Second {
		t.Fatalf("%q", o.text)
	}
	// The shell was restarted: the next call works.
	if o := callTool(t, env, `{"command": "echo again"}`); o.text != "again\n" {
		t.Fatal(o.text)
	}
}

func TestBashPersistentShell(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	os.Mkdir(filepath.Join(env.Cwd, "sub"), 0o755)
	callTool(t, env, `{"command": "cd sub; export KEEP=kept; f() { echo fn; }"}`)
	if o := callTool(t, env, `{"command": "pwd; echo $KEEP; f"}`); o.text != env.Cwd+"/sub\nkept\nfn\n" {
		t.Fatal(o.text)
	}
	// A shell that exits is replaced, and the call says so.
	o := callTool(t, env, `{"command": "echo bye; exit 0"}`)
	if o.isError || o.text != "bye\n\n"+shellEndedNotice {
		t.Fatalf("%q", o.text)
	}
	o = callTool(t, env, `{"command": "exit 5"}`)
	if !o.isError || o.text != "(no output)\n\n"+shellEndedNotice+"\n\nCommand exited with code 5" {
		t.Fatalf("%q", o.text)
	}
	if o := callTool(t, env, `{"command": "pwd; echo ${KEEP:-gone}"}`); o.text != env.Cwd+"\ngone\n" {
		t.Fatal(o.text)
	}
	// A background process does not hold the call; closing the session ends it.
	start := time.Now()
	if o := callTool(t, env, `{"command": "sleep 100 & echo started"}`); o.text != "started\n" || time.Since(start) > 5*time.Second {
		t.Fatal(o.text)
	}
}

func TestBashDeletedCwd(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	sub := filepath.Join(env.Cwd, "gone")
	os.Mkdir(sub, 0o755)
	callTool(t, env, `{"command": "cd gone"}`)
	os.Remove(sub)
	if o := callTool(t, env, `{"command": "true"}`); o.text != "Working directory does not exist: "+sub {
		t.Fatal(o.text)
	}
	if o := callTool(t, env, `{"command": "pwd", "cwd": "."}`); o.text != env.Cwd+"\n" {
		t.Fatal(o.text)
	}
}

func TestBashLargeOutput(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	o := callTool(t, env, `{"command": "seq 1 200000"}`)
	tr := o.details.Meta.Truncation
	if o.isError || tr == nil || tr.TotalLines != 200000 || tr.TotalBytes != 1288895 || tr.ArtifactID != "0" || tr.Direction != "tail" || tr.TruncatedBy != "bytes" {
		t.Fatalf("%+v", tr)
	}
	if !strings.HasSuffix(o.text, fmt.Sprintf("199999\n200000\n\n[Showing lines %d-200000 of 200000 (50.0KB limit). Full: artifact://0]", tr.ShownRange.Start)) {
		t.Fatalf("%q", o.text[len(o.text)-200:])
	}
	if len(o.text) > 52*1024 {
		t.Fatal(len(o.text))
	}
	full, err := env.Artifacts.Read("0")
	if err != nil || len(full) != 1288895 || !strings.HasPrefix(full, "1\n2\n") {
		t.Fatal(len(full), err)
	}
	// The artifact is usable from the shell.
	if o := callTool(t, env, `{"command": "wc -l < artifact://0"}`); o.text != "200000\n" {
		t.Fatal(o.text)
	}
	// A subagent's full output (agent://<id>) is a file too.
	if o := callTool(t, env, `{"command": "cat agent://0-Scout"}`); !o.isError || !strings.HasPrefix(o.text, "Failed to resolve agent:// URL in bash command: agent://0-Scout\nNot found: 0-Scout") {
		t.Fatal(o.text)
	}
	if err := os.WriteFile(env.Artifacts.AgentOutputPath("0-Scout"), []byte("scout report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if o := callTool(t, env, `{"command": "cat agent://0-Scout"}`); o.isError || o.text != "scout report\n" {
		t.Fatal(o.text)
	}
	if o := callTool(t, env, `{"command": "cat skill://x"}`); !o.isError || !strings.HasPrefix(o.text, "Cannot resolve skill:// URL in bash command: skill://x") {
		t.Fatal(o.text)
	}
	if o := callTool(t, env, `{"command": "cat artifact://9"}`); !o.isError || !strings.Contains(o.text, "Artifact 9 not found") {
		t.Fatal(o.text)
	}
}

func TestBashLiveUpdates(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	var u updates
	o := callCtx(context.Background(), t, env, `{"command": "for i in 1 2 3 4 5; do echo line$i; sleep 0.06; done"}`, u.fn)
	got := u.all()
	if o.isError || len(got) < 3 || !strings.HasPrefix(got[0], "line1") || !strings.HasPrefix(got[len(got)-1], "line1\nline2") {
		t.Fatalf("%q %q", o.text, got)
	}
}

func TestBashAbort(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	// The first update (output has come) cancels the call.
	var once sync.Once
	start := time.Now()
	o := callCtx(ctx, t, env, `{"command": "yes"}`, func(*tool.Result) { once.Do(cancel) })
	if !o.aborted || time.Since(start) > 5*time.Second {
		t.Fatalf("%+v", o)
	}
	if o := callTool(t, env, `{"command": "echo after"}`); o.text != "after\n" {
		t.Fatal(o.text)
	}
}

func TestBashInterceptor(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	os.WriteFile(filepath.Join(env.Cwd, "f.txt"), []byte("content\n"), 0o644)
	offered := []string{"bash", "read", "search", "find", "edit", "write"}
	env.ToolNames = func() []string { return offered }
	env.Settings.Bash.InterceptorEnabled = true
	for _, tc := range []struct{ cmd, tool string }{
		{"cat f.txt", "read"}, {"  head -5 f.txt", "read"}, {"tail f.txt", "read"}, {"less f.txt", "read"}, {"more f.txt", "read"},
		{"grep x f.txt", "search"}, {"rg x", "search"}, {"ag x", "search"}, {"ack x", "search"},
		{"find . -name '*.go'", "find"}, {"fd --type f", "find"}, {"locate -name x", "find"},
		{"sed -i s/a/b/ f.txt", "edit"}, {"perl -pi -e s/a/b/ f.txt", "edit"}, {"awk -i inplace '{print}' f.txt", "edit"},
		{"echo hi > f.txt", "write"}, {"printf x >f.txt", "write"}, {"cat <<EOF > f.txt", "read"}, {"echo <<EOF > f.txt", "write"},
		{"cd sub && grep x f.txt", "search"},
	} {
		o := callTool(t, env, jsonArgs(t, map[string]any{"command": tc.cmd}))
		if !o.isError || !strings.HasPrefix(o.text, "Blocked: Use the `"+tc.tool+"` tool") || !strings.HasSuffix(o.text, "\n\nOriginal command: "+tc.cmd) {
			t.Errorf("%q: %q", tc.cmd, o.text)
		}
	}
	for _, cmd := range []string{"echo hi", "find . -maxdepth 1", "echo a | cat", "go test ./..."} {
		if o := callTool(t, env, jsonArgs(t, map[string]any{"command": cmd})); strings.HasPrefix(o.text, "Blocked") {
			t.Errorf("%q blocked", cmd)
		}
	}
	// A rule blocks only while its tool is offered.
	offered = []string{"bash"}
	if o := callTool(t, env, `{"command": "cat f.txt"}`); o.text != "content\n" {
		t.Fatal(o.text)
	}
	// Configured rules replace the built-in ones; bad patterns are skipped.
	offered = []string{"bash", "read"}
	env.Settings.Bash.InterceptorRules = nil
	env.Settings.Bash.InterceptorRules = append(env.Settings.Bash.InterceptorRules,
		ruleOf("(?<=bad)x", "read", "never"), ruleOf("^ls\\b", "read", "no ls"))
	if o := callTool(t, env, `{"command": "ls"}`); o.text != "Blocked: no ls\n\nOriginal command: ls" {
		t.Fatal(o.text)
	}
	if o := callTool(t, env, `{"command": "cat f.txt"}`); o.text != "content\n" {
		t.Fatal(o.text)
	}
	env.Settings.Bash.InterceptorEnabled = false
	if o := callTool(t, env, `{"command": "ls"}`); o.isError {
		t.Fatal(o.text)
	}
}

func TestDefinition(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	d := env.tool().Definition()
	if d.Name != "bash" || d.Concurrency != "exclusive" || d.Parameters.Properties["async"] != nil || d.Parameters.Properties["env"].Values == nil {
		t.Fatalf("%+v", d)
	}
	if strings.Contains(d.Description, "async") || strings.Contains(d.Description, "pty: true") {
		t.Fatal("async or pty described without them")
	}
	env.Settings.Bash.AsyncEnabled = true
	if d := env.tool().Definition(); d.Parameters.Properties["async"] == nil || !strings.Contains(d.Description, "async: true") {
		t.Fatal("async missing")
	}
}

func TestParseInputCd(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string][2]string{
		"cd src && make":              {"src", "make"},
		"cd 'my dir' && ls":           {"my dir", "ls"},
		`cd "a b"&&ls`:                {"a b", "ls"},
		`cd a\ b && ls`:               {`a\ b`, "ls"},
		"cd src; make":                {"", "cd src; make"},
		"echo x && cd y && z":         {"", "echo x && cd y && z"},
		"cd src && cd lib && make -j": {"src", "cd lib && make -j"},
	} {
		in, err := parseInput(map[string]any{"command": cmd})
		if err != nil || in.Cwd != want[0] || in.Command != want[1] || in.Original != cmd {
			t.Errorf("%q: %q %q %v", cmd, in.Cwd, in.Command, err)
		}
	}
	in, _ := parseInput(map[string]any{"command": "cd a && b", "cwd": "c"})
	if in.Cwd != "c" || in.Command != "cd a && b" {
		t.Fatal(in)
	}
}

// While the session's shell is held by another command, a call runs in a
// separate shell and says so: earlier exports are missing there and its
// own do not last. A call that gets the session's shell says nothing.
func TestBashFreshShellNotice(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	if o := callTool(t, env, `{"command": "export KEPT=yes"}`); o.isError {
		t.Fatal(o.text)
	}
	fifo := filepath.Join(env.Cwd, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	held := make(chan outcome)
	go func() { held <- callTool(t, env, `{"command": "echo > holding; read x < fifo; echo released"}`) }()
	testwait.Until(t, "the first call to hold the shell", func() bool {
		_, err := os.Stat(filepath.Join(env.Cwd, "holding"))
		return err == nil
	})
	o := callTool(t, env, `{"command": "echo ${KEPT-unset}; export LOST=1"}`)
	if want := "unset\n\n" + freshShellNotice; o.isError || o.text != want {
		t.Fatalf("got %q, want %q", o.text, want)
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if o := <-held; o.text != "released\n" {
		t.Fatalf("the holding call: %q", o.text)
	}
	if o := callTool(t, env, `{"command": "echo ${KEPT-unset} ${LOST-unset}"}`); o.text != "yes unset\n" {
		t.Fatalf("back in the session's shell: %q", o.text)
	}
}

// bash.maxArtifactBytes caps the saved output: the artifact keeps the
// first and the last lines, says what it dropped between them, the
// command still runs to its end (the tail and the counts cover
// everything) and the result says what was dropped.
func TestBashArtifactCap(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	env.Settings.Bash.MaxArtifactBytes = 100000
	o := callTool(t, env, `{"command": "seq 1 200000"}`)
	tr := o.details.Meta.Truncation
	if o.isError || tr == nil || tr.TotalBytes != 1288895 || tr.TotalLines != 200000 || tr.ArtifactID != "0" {
		t.Fatalf("%+v", tr)
	}
	full, err := env.Artifacts.Read("0")
	if err != nil {
		t.Fatal(err)
	}
	head, rest, _ := strings.Cut(full, "\n[")
	note, tail, _ := strings.Cut(rest, "]\n")
	if !strings.HasPrefix(head, "1\n2\n3\n") || !strings.HasSuffix(tail, "\n199999\n200000\n") || len(head)+1+len(tail) > 100000 || len(head) < 49000 || len(tail) < 49000 {
		t.Fatalf("artifact of %d bytes: %.100q … %.100q", len(full), head, tail)
	}
	first, _ := strconv.Atoi(head[strings.LastIndexByte(head, '\n')+1:])
	last, _ := strconv.Atoi(tail[:strings.IndexByte(tail, '\n')])
	lines := int64(last - first - 1)
	dropped := int64(1288895 - len(head) - 1 - len(tail))
	if tr.ArtifactDroppedBytes != dropped || tr.ArtifactDroppedLines != lines || !strings.HasPrefix(note, fmt.Sprintf("%d bytes (%d lines) of output dropped here", dropped, lines)) {
		t.Fatalf("dropped %d bytes, %d lines (%d..%d); the artifact says %q", tr.ArtifactDroppedBytes, tr.ArtifactDroppedLines, first, last, note)
	}
	want := fmt.Sprintf("199999\n200000\n\n[Showing lines %d-200000 of 200000 (50.0KB limit). The saved output, artifact://0, keeps the start and the end: %d bytes (%d lines) in the middle were dropped (bash.maxArtifactBytes)]", tr.ShownRange.Start, dropped, lines)
	if !strings.HasSuffix(o.text, want) {
		t.Fatalf("%q", o.text[len(o.text)-250:])
	}
}

// One line longer than the limit: the notice says that the text is the
// end of that line and how long the line is (not "lines 1-1 of 1", as
// though all of it were shown), and a capped artifact's dropped middle is
// called part of that line rather than "0 lines". A line before it and a
// final newline do not change that.
func TestBashSingleHugeLine(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	o := callTool(t, env, `{"command": "head -c 2000000 /dev/zero | tr '\\0' x"}`)
	if want := "x\n\n[Showing the last 50.0KB of line 1 of 1, which is 1.9MB long (50.0KB limit). Full: artifact://0]"; !strings.HasSuffix(o.text, want) {
		t.Fatalf("%q", o.text[len(o.text)-200:])
	}
	o = callTool(t, env, `{"command": "echo first; head -c 2000000 /dev/zero | tr '\\0' x; echo"}`)
	if want := "x\n\n[Showing the last 50.0KB of line 2 of 2, which is 1.9MB long (50.0KB limit). Full: artifact://1]"; !strings.HasSuffix(o.text, want) {
		t.Fatalf("%q", o.text[len(o.text)-200:])
	}
	env.Settings.Bash.MaxArtifactBytes = 100000
	o = callTool(t, env, `{"command": "head -c 2000000 /dev/zero | tr '\\0' x"}`)
	tr := o.details.Meta.Truncation
	if tr == nil || tr.ArtifactDroppedBytes == 0 || tr.ArtifactDroppedLines != 0 {
		t.Fatalf("%+v", tr)
	}
	want := fmt.Sprintf("[Showing the last 50.0KB of line 1 of 1, which is 1.9MB long (50.0KB limit). The saved output, artifact://2, keeps the start and the end: %d bytes in the middle, all within one line, were dropped (bash.maxArtifactBytes)]", tr.ArtifactDroppedBytes)
	if !strings.HasSuffix(o.text, want) {
		t.Fatalf("%q", o.text[len(o.text)-300:])
	}
	full, err := env.Artifacts.Read("2")
	if err != nil {
		t.Fatal(err)
	}
	if note := fmt.Sprintf("[%d bytes, all within one line, of output dropped here", tr.ArtifactDroppedBytes); !strings.Contains(full, note) {
		t.Fatalf("the artifact lacks %q", note)
	}
}

// A command printing far more than the cap: the artifacts directory stays
// near the cap and the heap does not grow with the output.
func TestBashHugeOutputBounded(t *testing.T) {
	env := newEnv(t)
	const limit = 1 << 20
	env.Settings.Bash.MaxArtifactBytes = limit
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() { done <- o }() // also when callTool gives up on the test
		o = callTool(t, env, `{"command": "yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c 200000000", "timeout": 600}`)
	}()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var maxDisk int64
	var maxHeap uint64
	var o outcome
	for running := true; running; {
		select {
		case o = <-done:
			running = false
		case <-time.After(50 * time.Millisecond): // a sampling period, not an assertion
		}
		maxDisk = max(maxDisk, treeSize(env.Artifacts.Dir()))
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		maxHeap = max(maxHeap, m.HeapInuse)
	}
	tr := o.details.Meta.Truncation
	if o.isError || tr == nil || tr.TotalBytes != 200000000 || tr.ArtifactDroppedBytes < 200000000-limit || tr.ArtifactDroppedLines < (200000000-limit)/37 {
		t.Fatalf("%+v\n%s", tr, o.text[max(len(o.text)-300, 0):])
	}
	// While the command runs: the head and the tail window, at most the
	// cap; as the artifact is finished the window is copied after the head
	// before it is removed, half the cap more for a moment.
	if maxDisk > limit*3/2+300 {
		t.Fatalf("the artifacts directory grew to %d bytes (cap %d)", maxDisk, limit)
	}
	if grown := int64(maxHeap) - int64(before.HeapInuse); grown > 64<<20 {
		t.Fatalf("the heap grew by %d bytes for a 200 MB output", grown)
	}
}

// treeSize sums the sizes of the files under dir, and of the files this
// process holds open there after deleting them (the artifact's hidden
// tail window).
func treeSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		p := filepath.Join("/proc/self/fd", fd.Name())
		if target, err := os.Readlink(p); err == nil && strings.HasPrefix(target, dir+"/") && strings.HasSuffix(target, " (deleted)") {
			if fi, err := os.Stat(p); err == nil {
				n += fi.Size()
			}
		}
	}
	return n
}

// Once the shell's directory is deleted a command is refused, unless it
// starts by changing to a directory that exists: with && (moved to cwd),
// ; or a newline.
func TestBashDeletedDirectory(t *testing.T) {
	t.Parallel()
	env := newEnv(t)
	env.Home = t.TempDir() // ~ in the cd and the shell's HOME agree
	env.Settings.Shell.Environ = append(env.Settings.Shell.Environ, "HOME="+env.Home)
	other := t.TempDir()
	gone := filepath.Join(env.Cwd, "gone")
	leave := fmt.Sprintf(`{"command": "mkdir %[1]s; cd %[1]s; rmdir %[1]s"}`, gone)
	for _, tc := range []struct{ args, text string }{
		{`{"command": "cd ` + other + ` && pwd"}`, other + "\n"},
		{`{"command": "cd ` + other + `; pwd"}`, other + "\n"},
		{`{"command": "cd '` + other + `'\npwd"}`, other + "\n"},
		{`{"command": "cd ~; pwd"}`, env.Home + "\n"},
	} {
		if o := callTool(t, env, leave); o.isError {
			t.Fatal(o.text)
		}
		if o := callTool(t, env, `{"command": "pwd"}`); !o.isError || o.text != "Working directory does not exist: "+gone {
			t.Fatalf("in the deleted directory: %q", o.text)
		}
		if o := callTool(t, env, tc.args); o.isError || o.text != tc.text {
			t.Errorf("%s: %q", tc.args, o.text)
		}
	}
}
