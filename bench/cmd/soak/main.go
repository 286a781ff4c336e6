// Command soak runs one `gopi --mode rpc` process through a long series of
// prompts and checks that it does not leak: memory, file descriptors,
// goroutines.
//
// It serves gopi's scripted mock LLM (internal/mockllm, Anthropic Messages
// API) on a loopback port and sends N prompts one after the other, each
// waiting for its agent_end. The mock answers every prompt with two turns
// of tool calls — read, search and bash together, then write and edit —
// and a final text, so each prompt runs five real tools in the project
// directory and three model requests. After every S-th prompt it lets the
// process settle and samples it from outside: resident memory (VmRSS of
// /proc/PID/status), open file descriptors (/proc/PID/fd), threads, and
// live goroutines. The goroutines are counted in the Go runtime's own
// scheduler trace (GODEBUG=schedtrace,scheddetail, printed on gopi's
// standard error every half second), so gopi needs no debugging hook; at
// the end a SIGQUIT makes the runtime print every goroutine's stack, kept
// in DIR/goroutines.txt for diagnosis.
//
// Usage:
//
//	soak [-n 1000] [-sample 100] [-session-every 100] [-gopi bin/gopi] [-dir DIR] [-rss 1.2] [-goroutines 5]
//
// With -session-every K the host starts a new session (the RPC command
// new_session) after every K prompts, so that the conversation gopi holds
// (which it keeps whole, and sends whole) stays the same size from one
// sample to the next and only what leaks grows; 0 keeps one session for
// all prompts, whose memory then grows with the conversation.
//
// The checks, between the first sample (prompt S) and the last (prompt N):
// resident memory (VmRSS) and its anonymous part (RssAnon: heap and
// stacks; VmRSS also counts the pages of the 100 MB binary that happen to
// be in memory, which move with the page cache) each grow by at most the
// factor -rss (-rss 0 only reports them), the descriptor count does not grow, and the goroutine count grows
// by at most -goroutines. Before each sample the mock closes its idle
// connections, so a keep-alive connection that is or is not in gopi's
// pool does not make the count differ.
// Output: a Markdown table of the samples, then one line per check, and
// exit status 1 when a check fails or a prompt does not run as scripted
// (a tool error, a model turn not played, no agent_end within a minute).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/sdk/rpcclient"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command's flags.
type options struct {
	n, every       int
	gopi, dir      string
	rssFactor      float64
	goroutineSlack int
	settle         time.Duration
	sessionEvery   int
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.IntVar(&o.n, "n", 1000, "prompts to send")
	fs.IntVar(&o.every, "sample", 100, "sample the process after every this many prompts")
	fs.StringVar(&o.gopi, "gopi", "bin/gopi", "the gopi binary")
	fs.StringVar(&o.dir, "dir", "", "work directory (emptied first; default: a temporary one, removed at the end)")
	fs.Float64Var(&o.rssFactor, "rss", 1.2, "largest allowed growth factor of resident memory from the first sample to the last (0: report it, do not check)")
	fs.IntVar(&o.goroutineSlack, "goroutines", 5, "largest allowed growth of the goroutine count from the first sample to the last")
	fs.DurationVar(&o.settle, "settle", time.Second, "pause before each sample")
	fs.IntVar(&o.sessionEvery, "session-every", 100, "start a new session (RPC new_session) after every this many prompts; 0: one session for all")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.n < 1 || o.every < 1 || o.every > o.n || o.sessionEvery < 0 || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: soak [-n PROMPTS] [-sample EVERY] [-session-every K] [-gopi BIN] [-dir DIR] [-rss FACTOR] [-goroutines SLACK]")
		return 2
	}
	if o.dir == "" {
		d, err := os.MkdirTemp("", "gopi-soak-")
		if err != nil {
			fmt.Fprintf(stderr, "soak: %v\n", err)
			return 1
		}
		defer os.RemoveAll(d)
		o.dir = d
	}
	// gopi runs in DIR/project with HOME in DIR/home: a relative DIR
	// would name another place from there.
	dir, err := filepath.Abs(o.dir)
	if err != nil {
		fmt.Fprintf(stderr, "soak: %v\n", err)
		return 1
	}
	o.dir = dir
	samples, err := soak(context.Background(), o, stderr)
	printTable(stdout, samples)
	if err != nil {
		fmt.Fprintf(stderr, "soak: %v\n", err)
		return 1
	}
	failed := false
	for _, c := range verdict(samples, o) {
		fmt.Fprintln(stdout, c.line)
		failed = failed || !c.ok
	}
	if failed {
		return 1
	}
	return 0
}

// sample is the process's state after a prompt.
type sample struct {
	prompt     int
	rssKiB     int64
	anonKiB    int64 // the anonymous part of rssKiB (RssAnon): heap and stacks, without the mapped binary
	hwmKiB     int64
	fds        int
	threads    int
	goroutines int
	perPrompt  time.Duration // mean wall time of the prompts since the previous sample
	cpu        time.Duration // gopi's CPU time so far (user and system)
	cpuPer     time.Duration // gopi's mean CPU time per prompt since the previous sample
	sessionKiB int64         // size of the current session file
}

// soak runs the whole measurement and returns the samples taken.
func soak(ctx context.Context, o options, logw io.Writer) ([]sample, error) {
	gopi, err := filepath.Abs(o.gopi)
	if err != nil {
		return nil, err
	}
	home, project := filepath.Join(o.dir, "home"), filepath.Join(o.dir, "project")
	if err := os.RemoveAll(o.dir); err != nil {
		return nil, err
	}
	if err := setupProject(project); err != nil {
		return nil, err
	}

	mock := &swapHandler{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the mock LLM: %w", err)
	}
	var conns atomic.Int64
	hs := &http.Server{Handler: mock, ReadHeaderTimeout: 10 * time.Second, ConnState: func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}}
	go hs.Serve(ln)
	defer hs.Close()
	agentDir := filepath.Join(home, ".gopi", "agent")
	if err := os.MkdirAll(agentDir, 0o755); err != nil {
		return nil, err
	}
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: http://%s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n", ln.Addr())
	if err := os.WriteFile(filepath.Join(agentDir, "models.yml"), []byte(yml), 0o644); err != nil {
		return nil, err
	}

	cmd := exec.Command(gopi, "--mode", "rpc", "--model", "mock/mock-model")
	cmd.Dir = project
	cmd.Env = []string{"HOME=" + home, "MOCK_KEY=x", "PI_NO_TITLE=1", "PATH=" + os.Getenv("PATH"),
		"GODEBUG=schedtrace=500,scheddetail=1"}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	// Standard error through a pipe of our own rather than StderrPipe,
	// whose reading must end before Wait: a child of gopi's may keep it
	// open after gopi has exited.
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer errR.Close()
	cmd.Stderr = errW
	err = cmd.Start()
	errW.Close()
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", gopi, err)
	}
	trace := newSchedTrace()
	traceDone := make(chan struct{})
	go func() {
		defer close(traceDone)
		trace.read(errR)
	}()
	exited := false
	defer func() {
		if !exited {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()

	c := rpcclient.New(stdout, stdin)
	select {
	case <-c.Ready():
	case <-c.Done():
		return nil, fmt.Errorf("gopi exited before it was ready; its last words:\n%s", trace.tail())
	case <-time.After(30 * time.Second):
		return nil, errors.New("gopi sent no ready frame within 30 s")
	}

	var toolErrors atomic.Int64
	var firstToolError atomic.Value
	var toolRuns atomic.Int64
	c.OnEvent(func(f rpcclient.Frame) {
		if f.Type != "tool_execution_end" {
			return
		}
		toolRuns.Add(1)
		var ev struct {
			ToolName string          `json:"toolName"`
			IsError  bool            `json:"isError"`
			Result   json.RawMessage `json:"result"`
		}
		if f.Decode(&ev) == nil && ev.IsError {
			if toolErrors.Add(1) == 1 {
				firstToolError.Store(ev.ToolName + ": " + string(ev.Result))
			}
		}
	})

	var samples []sample
	blockStart := time.Now()
	for i := 1; i <= o.n; i++ {
		srv := mockllm.NewHandler().Script(promptTurns(i)...)
		mock.set(srv)
		if err := prompt(ctx, c, i); err != nil {
			return samples, fmt.Errorf("prompt %d: %w\ngopi's last words:\n%s", i, err, trace.tail())
		}
		if left := srv.Remaining(); left != 0 {
			return samples, fmt.Errorf("prompt %d: %d scripted model turns were not played", i, left)
		}
		if n := toolErrors.Load(); n > 0 {
			return samples, fmt.Errorf("prompt %d: %d tool calls failed; the first: %v", i, n, firstToolError.Load())
		}
		if i%o.every == 0 || i == o.n {
			s, err := sampleAfter(ctx, c, hs, cmd.Process.Pid, i, trace, o, samples, time.Since(blockStart))
			if err != nil {
				return samples, err
			}
			samples = append(samples, s)
			fmt.Fprintf(logw, "soak: prompt %d: rss %d KiB (anonymous %d KiB), %d fds, %d threads, %d goroutines, session file %d KiB, %.1f ms per prompt (gopi CPU %.1f ms)\n",
				i, s.rssKiB, s.anonKiB, s.fds, s.threads, s.goroutines, s.sessionKiB, ms(s.perPrompt), ms(s.cpuPer))
			blockStart = time.Now()
		}
		if o.sessionEvery > 0 && i%o.sessionEvery == 0 && i < o.n {
			if _, err := c.NewSession(ctx, ""); err != nil {
				return samples, fmt.Errorf("new session after prompt %d: %w", i, err)
			}
		}
	}
	if want := int64(5 * o.n); toolRuns.Load() != want {
		return samples, fmt.Errorf("%d tool calls ran, want %d", toolRuns.Load(), want)
	}
	fmt.Fprintf(logw, "soak: %d model requests over %d connections\n", mock.requests.Load(), conns.Load())

	// The goroutines' stacks, for whoever has to find a leak.
	trace.startDump()
	cmd.Process.Signal(syscall.SIGQUIT)
	cmd.Wait()
	exited = true
	select {
	case <-traceDone:
	case <-time.After(5 * time.Second):
		errR.Close()
		<-traceDone
	}
	dump := trace.dumpText()
	if err := os.WriteFile(filepath.Join(o.dir, "goroutines.txt"), []byte(dump), 0o644); err == nil {
		fmt.Fprintf(logw, "soak: %d goroutine stacks at the end in %s\n", countStacks(dump), filepath.Join(o.dir, "goroutines.txt"))
	}
	return samples, nil
}

// countStacks counts the goroutines of a stack dump ("goroutine 7 [select]:").
func countStacks(dump string) int {
	n := 0
	for _, l := range strings.Split(dump, "\n") {
		if strings.HasPrefix(l, "goroutine ") && strings.HasSuffix(l, ":") {
			n++
		}
	}
	return n
}

// sampleAfter samples the process after prompt i; elapsed is the wall
// time since the previous sample.
func sampleAfter(ctx context.Context, c *rpcclient.Client, hs *http.Server, pid, i int, trace *schedTrace, o options, samples []sample, elapsed time.Duration) (sample, error) {
	// Idle connections to the mock close before the sample (gopi's side
	// sees them go), so that whether the last request's connection went
	// back to the pool does not change the count.
	hs.SetKeepAlivesEnabled(false)
	defer hs.SetKeepAlivesEnabled(true)
	s, err := take(pid, i, trace, o.settle, o.dir)
	if err != nil {
		return s, fmt.Errorf("sampling after prompt %d: %w", i, err)
	}
	prev := sample{}
	if len(samples) > 0 {
		prev = samples[len(samples)-1]
	}
	s.perPrompt = elapsed / time.Duration(i-prev.prompt)
	s.cpuPer = (s.cpu - prev.cpu) / time.Duration(i-prev.prompt)
	st, err := c.GetState(ctx)
	if err != nil {
		return s, fmt.Errorf("get_state after prompt %d: %w", i, err)
	}
	if info, err := os.Stat(st.SessionFile); err == nil {
		s.sessionKiB = info.Size() >> 10
	}
	return s, nil
}

// prompt sends prompt i and waits for its agent_end; the run must end
// with the scripted answer.
func prompt(ctx context.Context, c *rpcclient.Client, i int) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	end := c.Expect("agent_end")
	if err := c.Prompt(ctx, fmt.Sprintf("Soak prompt %d: look at the notes, then update the scratch files.", i)); err != nil {
		return err
	}
	f, err := end.Wait(ctx)
	if err != nil {
		return fmt.Errorf("waiting for agent_end: %w", err)
	}
	var ev struct {
		Messages []struct {
			Role         string `json:"role"`
			StopReason   string `json:"stopReason"`
			ErrorMessage string `json:"errorMessage"`
		} `json:"messages"`
	}
	if err := f.Decode(&ev); err != nil {
		return fmt.Errorf("agent_end: %w", err)
	}
	if len(ev.Messages) == 0 {
		return errors.New("agent_end without messages")
	}
	last := ev.Messages[len(ev.Messages)-1]
	if last.Role != "assistant" || last.StopReason != "stop" {
		return fmt.Errorf("the run ended with a %s message (stop reason %q): %s", last.Role, last.StopReason, last.ErrorMessage)
	}
	return nil
}

// take samples the process after letting it settle; what its descriptors
// are open on goes to DIR/fds-PROMPT.txt.
func take(pid, prompt int, trace *schedTrace, settle time.Duration, dir string) (sample, error) {
	time.Sleep(settle)
	s := sample{prompt: prompt}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	s.rssKiB, s.anonKiB, s.hwmKiB, s.threads = parseStatus(string(status))
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return s, err
	}
	s.cpu = parseCPU(string(stat))
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return s, err
	}
	s.fds = len(fds)
	var list strings.Builder
	for _, fd := range fds {
		target, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		fmt.Fprintf(&list, "%s %s\n", fd.Name(), target)
	}
	os.WriteFile(filepath.Join(dir, fmt.Sprintf("fds-%d.txt", prompt)), []byte(list.String()), 0o644)
	g, err := trace.next(time.Now(), 10*time.Second)
	if err != nil {
		return s, err
	}
	s.goroutines = g
	return s, nil
}

// clockTick is the unit of /proc/PID/stat's CPU times (USER_HZ, 100 on
// Linux).
const clockTick = 10 * time.Millisecond

// parseCPU reads utime + stime from /proc/PID/stat (fields 14 and 15,
// counted after the parenthesised command name, which may hold spaces).
func parseCPU(stat string) time.Duration {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * clockTick
}

// parseStatus reads VmRSS, RssAnon, VmHWM (KiB) and Threads from
// /proc/PID/status.
func parseStatus(status string) (rss, anon, hwm int64, threads int) {
	for _, line := range strings.Split(status, "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(val)
		if len(f) == 0 {
			continue
		}
		n, _ := strconv.ParseInt(f[0], 10, 64)
		switch key {
		case "VmRSS":
			rss = n
		case "RssAnon":
			anon = n
		case "VmHWM":
			hwm = n
		case "Threads":
			threads = int(n)
		}
	}
	return rss, anon, hwm, threads
}

// check is one pass/fail line of the verdict.
type check struct {
	ok   bool
	line string
}

// verdict compares the last sample with the first.
func verdict(samples []sample, o options) []check {
	if len(samples) < 2 {
		return []check{{false, "FAIL: fewer than two samples; nothing to compare"}}
	}
	a, b := samples[0], samples[len(samples)-1]
	mark := func(ok bool) string {
		if ok {
			return "ok"
		}
		return "FAIL"
	}
	var out []check
	for _, m := range []struct {
		what string
		a, b int64
	}{{"resident memory (VmRSS)", a.rssKiB, b.rssKiB}, {"anonymous resident memory (RssAnon)", a.anonKiB, b.anonKiB}} {
		ratio := float64(m.b) / float64(m.a)
		if o.rssFactor > 0 {
			ok := ratio <= o.rssFactor
			out = append(out, check{ok, fmt.Sprintf("%s: %s after prompt %d is %.2f× that after prompt %d (%d KiB / %d KiB; limit %.2f×)",
				mark(ok), m.what, b.prompt, ratio, a.prompt, m.b, m.a, o.rssFactor)})
		} else {
			out = append(out, check{true, fmt.Sprintf("info: %s after prompt %d is %.2f× that after prompt %d (%d KiB / %d KiB; not checked)",
				m.what, b.prompt, ratio, a.prompt, m.b, m.a)})
		}
	}
	ok := b.fds <= a.fds
	out = append(out, check{ok, fmt.Sprintf("%s: open file descriptors after prompt %d: %d, after prompt %d: %d (no growth allowed)",
		mark(ok), a.prompt, a.fds, b.prompt, b.fds)})
	ok = b.goroutines <= a.goroutines+o.goroutineSlack
	out = append(out, check{ok, fmt.Sprintf("%s: goroutines after prompt %d: %d, after prompt %d: %d (growth of at most %d allowed)",
		mark(ok), a.prompt, a.goroutines, b.prompt, b.goroutines, o.goroutineSlack)})
	return out
}

// printTable writes the samples as a Markdown table.
func printTable(w io.Writer, samples []sample) {
	fmt.Fprintln(w, "| after prompt | VmRSS | RssAnon | VmHWM (peak) | open fds | threads | goroutines | session file | wall ms per prompt | gopi CPU ms per prompt |")
	fmt.Fprintln(w, "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	mib := func(kib int64) float64 { return float64(kib) / 1024 }
	for _, s := range samples {
		fmt.Fprintf(w, "| %d | %.1f MiB | %.1f MiB | %.1f MiB | %d | %d | %d | %d KiB | %.1f | %.1f |\n", s.prompt, mib(s.rssKiB), mib(s.anonKiB), mib(s.hwmKiB),
			s.fds, s.threads, s.goroutines, s.sessionKiB, ms(s.perPrompt), ms(s.cpuPer))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// swapHandler serves the mock of the current prompt: a fresh
// internal/mockllm server per prompt, so that the requests the mock
// records (which grow with the conversation) do not pile up here.
type swapHandler struct {
	mu       sync.Mutex
	cur      *mockllm.Server
	requests atomic.Int64
}

func (h *swapHandler) set(s *mockllm.Server) {
	h.mu.Lock()
	h.cur = s
	h.mu.Unlock()
}

func (h *swapHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.requests.Add(1)
	h.mu.Lock()
	s := h.cur
	h.mu.Unlock()
	if s == nil {
		http.Error(w, "no prompt in progress", http.StatusServiceUnavailable)
		return
	}
	s.ServeHTTP(w, r)
}

// scratchFiles is how many scratch files the prompts take turns on.
const scratchFiles = 10

// promptTurns scripts the model's side of prompt i: read, search and bash
// in one turn, write and an edit (a hashline insertion at the end of
// another file) in the next, then the answer.
func promptTurns(i int) []mockllm.Turn {
	k := i % scratchFiles
	call := func(j int, name string, args any) mockllm.Block {
		b, _ := json.Marshal(args)
		blk := mockllm.ToolCall(name, string(b))
		blk.ID = fmt.Sprintf("toolu_soak_%d_%d", i, j)
		return blk
	}
	return []mockllm.Turn{
		{Blocks: []mockllm.Block{
			mockllm.Text("Let me look around."),
			call(0, "read", map[string]any{"path": "notes.txt"}),
			call(1, "search", map[string]any{"pattern": "needle", "paths": []string{"src"}}),
			call(2, "bash", map[string]any{"command": fmt.Sprintf("echo soak %d && ls src | wc -l", i)}),
		}},
		{Blocks: []mockllm.Block{
			call(3, "write", map[string]any{"path": fmt.Sprintf("scratch/w%d.txt", k), "content": fmt.Sprintf("written by prompt %d\nsecond line\n", i)}),
			call(4, "edit", map[string]any{"input": fmt.Sprintf("@@ scratch/e%d.txt\n+ EOF\n~appended by prompt %d\n", k, i)}),
		}},
		{Blocks: []mockllm.Block{mockllm.Text(fmt.Sprintf("Done with prompt %d.", i))}},
	}
}

// setupProject writes the project the prompts work in.
func setupProject(dir string) error {
	files := map[string]string{
		"notes.txt":   "Soak test notes.\nThe needle is in src.\n" + strings.Repeat("filler line\n", 20),
		"src/main.go": "package main\n\n// needle: the main entry\nfunc main() {}\n",
		"src/util.go": "package main\n\nfunc util() int { return 42 } // not the needle\n",
		"README.md":   "# soak project\n",
	}
	for k := range scratchFiles {
		files[fmt.Sprintf("scratch/e%d.txt", k)] = "edit target\n"
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// schedTrace reads the Go runtime's scheduler trace from gopi's standard
// error: blocks of a "SCHED" line followed by one line per P, M and G.
// A block is complete when the next one starts.
type schedTrace struct {
	mu      sync.Mutex
	changed chan struct{} // closed and replaced when a block completes
	blocks  []traceBlock  // completed blocks, the latest last (a few kept)
	cur     *traceBlock
	other   []string // the latest lines that are not trace lines
	dumping bool
	dump    strings.Builder
	ended   bool
}

// traceBlock is one scheduler trace: when its first line arrived and how
// many goroutines were not dead.
type traceBlock struct {
	at    time.Time
	live  int
	total int
}

func newSchedTrace() *schedTrace { return &schedTrace{changed: make(chan struct{})} }

func (t *schedTrace) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		t.line(sc.Text(), time.Now())
	}
	t.mu.Lock()
	t.ended = true
	close(t.changed)
	t.changed = make(chan struct{})
	t.mu.Unlock()
}

// line takes one line of standard error.
func (t *schedTrace) line(l string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dumping {
		if !strings.HasPrefix(l, "SCHED ") && !strings.HasPrefix(l, "  ") {
			t.dump.WriteString(l + "\n")
		}
		return
	}
	switch {
	case strings.HasPrefix(l, "SCHED "):
		if t.cur != nil {
			t.blocks = append(t.blocks, *t.cur)
			if len(t.blocks) > 8 {
				t.blocks = t.blocks[1:]
			}
			close(t.changed)
			t.changed = make(chan struct{})
		}
		t.cur = &traceBlock{at: now}
	case strings.HasPrefix(l, "  G") && t.cur != nil:
		status, ok := goroutineStatus(l)
		if ok {
			t.cur.total++
			if status != gDead {
				t.cur.live++
			}
		}
	case strings.HasPrefix(l, "  P") || strings.HasPrefix(l, "  M"):
	default:
		t.other = append(t.other, l)
		if len(t.other) > 40 {
			t.other = t.other[1:]
		}
	}
}

// gDead is the runtime's status of a goroutine that has exited (kept for
// reuse); gScan is the bit a goroutine being scanned has set.
const (
	gDead = 6
	gScan = 0x1000
)

// goroutineStatus reads the status of a "  G12: status=4(sleep) …" line.
func goroutineStatus(l string) (int, bool) {
	_, rest, ok := strings.Cut(l, " status=")
	if !ok {
		return 0, false
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end <= 0 {
		return 0, false
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil {
		return 0, false
	}
	return n &^ gScan, true
}

// next returns the live goroutines of the first block that starts after
// since, waiting for it at most limit.
func (t *schedTrace) next(since time.Time, limit time.Duration) (int, error) {
	deadline := time.After(limit)
	for {
		t.mu.Lock()
		for _, b := range t.blocks {
			if b.at.After(since) {
				t.mu.Unlock()
				return b.live, nil
			}
		}
		ch, ended := t.changed, t.ended
		t.mu.Unlock()
		if ended {
			return 0, errors.New("gopi's standard error ended")
		}
		select {
		case <-ch:
		case <-deadline:
			return 0, errors.New("no scheduler trace on gopi's standard error (is GODEBUG honoured?)")
		}
	}
}

// tail returns the latest lines gopi wrote that are not trace lines.
func (t *schedTrace) tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(t.other, "\n")
}

// startDump collects what follows (a SIGQUIT stack dump) apart.
func (t *schedTrace) startDump() {
	t.mu.Lock()
	t.dumping = true
	t.mu.Unlock()
}

func (t *schedTrace) dumpText() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.dump.String()
}
