// Command firstbyte measures how long an agent takes from process start to
// the first byte of its first provider request: it serves gopi's scripted
// mock LLM (internal/mockllm) on a loopback port, starts the command again
// and again, and times each run from just before the process is started
// (fork and exec included) to the moment the first byte of the first model
// request (a POST to …/messages, …/chat/completions, …/responses or
// …:streamGenerateContent) arrives on the socket. Every request is answered
// with a short text reply, so the agent finishes normally; the time to the
// process's exit is reported too.
//
// Usage:
//
//	firstbyte [-n RUNS] [-warmup N] [-usage] [-config DST=TEMPLATE]... [-dir DIR] -- COMMAND ARGS...
//
// Each -config writes TEMPLATE to DST with every "{{URL}}" replaced by the
// mock's root URL (http://127.0.0.1:PORT), before the first run: the
// agent's models.yml. "{{RUN}}" in COMMAND's arguments is replaced by the
// run's number (warm-up runs are negative), e.g. for `/usr/bin/time -o`.
// The command inherits the environment and runs in DIR.
//
// Output: one line per measured run, "run N first_byte_ms F exit_ms E",
// then "summary first_byte best B median M" and "summary exit best B
// median M" (milliseconds, three decimals). A run that exits non-zero or
// makes no model request fails the whole measurement (exit status 1, with
// the command's stderr).
//
// With -usage (Linux), each run line goes on with "cpu_first_ms C rss_first_mb
// R cpu_ms U maxrss_mb X": the CPU time (user and system, every thread) the
// process had used and its peak resident set when the first byte arrived,
// read from /proc, and the same for the whole run from the kernel's
// resource usage at exit; summary lines of those four follow.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// configFlags collects repeated -config DST=TEMPLATE flags.
type configFlags []string

func (c *configFlags) String() string     { return strings.Join(*c, ",") }
func (c *configFlags) Set(v string) error { *c = append(*c, v); return nil }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = "usage: firstbyte [-n RUNS] [-warmup N] [-usage] [-config DST=TEMPLATE]... [-dir DIR] -- COMMAND ARGS..."

// run is the command with its arguments and output streams; it returns the
// exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("firstbyte", flag.ContinueOnError)
	fs.SetOutput(stderr)
	runs := fs.Int("n", 20, "measured runs")
	warmup := fs.Int("warmup", 2, "unmeasured runs first")
	dir := fs.String("dir", "", "working directory of the command (default: the current one)")
	timeout := fs.Duration("timeout", 2*time.Minute, "limit for one run")
	withUsage := fs.Bool("usage", false, "also report CPU time and peak RSS, at the first byte and at exit (Linux)")
	var configs configFlags
	fs.Var(&configs, "config", "DST=TEMPLATE: write TEMPLATE to DST with {{URL}} replaced (repeatable)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	argv := fs.Args()
	if len(argv) == 0 || *runs < 1 || *warmup < 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(stderr, "firstbyte: listen: %v\n", err)
		return 1
	}
	m := newMock(ln, (*runs+*warmup)*8)
	defer m.close()
	url := "http://" + ln.Addr().String()
	for _, c := range configs {
		if err := writeConfig(c, url); err != nil {
			fmt.Fprintf(stderr, "firstbyte: %v\n", err)
			return 1
		}
	}

	var first, exit, cpuFirst, rssFirst, cpu, rss []float64
	for i := -*warmup; i < *runs; i++ {
		r, err := m.measure(argv, *dir, i, *timeout)
		if err != nil {
			fmt.Fprintf(stderr, "firstbyte: run %d: %v\n", i, err)
			return 1
		}
		if i < 0 {
			continue
		}
		fmt.Fprintf(stdout, "run %d first_byte_ms %.3f exit_ms %.3f", i, ms(r.firstByte), ms(r.exit))
		if *withUsage {
			fmt.Fprintf(stdout, " cpu_first_ms %.3f rss_first_mb %.1f cpu_ms %.3f maxrss_mb %.1f",
				ms(r.atFirst.cpu), mb(r.atFirst.rss), ms(r.atExit.cpu), mb(r.atExit.rss))
			cpuFirst, rssFirst = append(cpuFirst, ms(r.atFirst.cpu)), append(rssFirst, mb(r.atFirst.rss))
			cpu, rss = append(cpu, ms(r.atExit.cpu)), append(rss, mb(r.atExit.rss))
		}
		fmt.Fprintln(stdout)
		first = append(first, ms(r.firstByte))
		exit = append(exit, ms(r.exit))
	}
	fmt.Fprintf(stdout, "summary first_byte best %.3f median %.3f\n", best(first), median(first))
	fmt.Fprintf(stdout, "summary exit best %.3f median %.3f\n", best(exit), median(exit))
	if *withUsage {
		fmt.Fprintf(stdout, "summary cpu_first best %.3f median %.3f\n", best(cpuFirst), median(cpuFirst))
		fmt.Fprintf(stdout, "summary rss_first best %.1f median %.1f\n", best(rssFirst), median(rssFirst))
		fmt.Fprintf(stdout, "summary cpu best %.3f median %.3f\n", best(cpu), median(cpu))
		fmt.Fprintf(stdout, "summary maxrss best %.1f median %.1f\n", best(rss), median(rss))
	}
	return 0
}

// writeConfig handles one -config DST=TEMPLATE.
func writeConfig(spec, url string) error {
	dst, src, ok := strings.Cut(spec, "=")
	if !ok || dst == "" || src == "" {
		return fmt.Errorf("-config %q: want DST=TEMPLATE", spec)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("-config: %w", err)
	}
	data = bytes.ReplaceAll(data, []byte("{{URL}}"), []byte(url))
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return fmt.Errorf("-config: %w", err)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func mb(bytes int64) float64 { return float64(bytes) / (1 << 20) }

func best(v []float64) float64 { return slices.Min(v) }

// median is the middle sample (the lower middle for an even count).
func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// mock serves the scripted LLM and reports when model requests arrive.
type mock struct {
	hs       *http.Server
	served   chan error
	arrivals chan arrival // each model request's first byte
	pid      atomic.Int64 // the process being measured; 0 between runs
}

// arrival is a model request's first byte: when it came, and what the
// process had used by then.
type arrival struct {
	at  time.Time
	use resources
}

// resources is CPU time and peak resident set size; zero where unknown.
type resources struct {
	cpu time.Duration
	rss int64 // bytes
}

// result is one measured run.
type result struct {
	firstByte, exit time.Duration
	atFirst, atExit resources
}

// newMock serves a script of turns text replies on ln.
func newMock(ln net.Listener, turns int) *mock {
	h := mockllm.NewHandler()
	for range turns {
		h.Script(mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("ok")}})
	}
	m := &mock{served: make(chan error, 1), arrivals: make(chan arrival, turns)}
	m.hs = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c, _ := r.Context().Value(connKey{}).(*stampConn)
			at := time.Now()
			if c != nil {
				at = c.requestStart()
				defer c.idle()
			}
			if r.Method == http.MethodPost && isModelPath(r.URL.Path) {
				a := arrival{at: at}
				if pid := m.pid.Load(); pid != 0 {
					a.use = processUsage(int(pid))
				}
				select {
				case m.arrivals <- a:
				default:
				}
			}
			h.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
	go func() { m.served <- m.hs.Serve(stampListener{ln}) }()
	return m
}

func (m *mock) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = m.hs.Shutdown(ctx)
	<-m.served
}

// isModelPath reports whether path is one of the streaming model APIs.
func isModelPath(path string) bool {
	for _, suffix := range []string{"/messages", "/chat/completions", "/responses", ":streamGenerateContent"} {
		if strings.HasSuffix(path, suffix) {
			return true
		}
	}
	return false
}

// measure runs the command once: the time from start to the first model
// request's first byte, and to the process's exit, with the resources used
// by then.
func (m *mock) measure(argv []string, dir string, n int, timeout time.Duration) (result, error) {
	for len(m.arrivals) > 0 {
		<-m.arrivals
	}
	args := make([]string, len(argv))
	for i, a := range argv {
		args[i] = strings.ReplaceAll(a, "{{RUN}}", strconv.Itoa(n))
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	m.pid.Store(int64(cmd.Process.Pid))
	werr := cmd.Wait()
	exit := time.Since(start)
	m.pid.Store(0)
	if werr != nil {
		return result{}, fmt.Errorf("%v: %w\n%s", args, werr, stderr.Bytes())
	}
	select {
	case a := <-m.arrivals:
		return result{firstByte: a.at.Sub(start), exit: exit, atFirst: a.use, atExit: exitUsage(cmd.ProcessState)}, nil
	default:
		return result{}, errors.New("the command made no model request")
	}
}

type connKey struct{}

// stampListener wraps accepted connections in stampConn.
type stampListener struct{ net.Listener }

func (l stampListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &stampConn{Conn: c, waiting: true}, nil
}

// stampConn records when the first byte of each request arrives: the first
// successful read while the connection is idle (before its first request,
// or after a response was completed).
type stampConn struct {
	net.Conn
	mu      sync.Mutex
	waiting bool
	at      time.Time
}

func (c *stampConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		now := time.Now()
		c.mu.Lock()
		if c.waiting {
			c.waiting, c.at = false, now
		}
		c.mu.Unlock()
	}
	return n, err
}

// requestStart returns when the current request's first byte arrived.
func (c *stampConn) requestStart() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

// idle marks the end of a request: the next byte read starts another.
func (c *stampConn) idle() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waiting = true
}
